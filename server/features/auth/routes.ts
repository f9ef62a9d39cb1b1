import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginReply, loginTwoFactorBody } from '../../../common/api/account.ts';
import { EMAIL_CODE, PASSWORD_RESET, SESSION_TTL_DAYS } from '../../../common/api/auth.constants.ts';
import {
  loginBody,
  meReply,
  passwordResetConfirmBody,
  passwordResetRequestBody,
  passwordResetRequestReply,
  registerBody,
  registerReply,
  resendVerificationBody,
  resendVerificationReply,
  sessionIdParams,
  sessionReply,
  sessionsReply,
  verifyCodeBody,
  verifyCodeReply,
} from '../../../common/api/auth.ts';
import { errorReplies, errorReply, messageReply } from '../../../common/api/envelope.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { assertSignedIn, currentUser, optionalUser, requireUser, SESSION_COOKIE } from '../../platform/auth/session.ts';
import { listSessions, type RequestMeta, revokeAllSessions, revokeSession } from '../../platform/auth/sessions.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';
import type { ZodApp } from '../../platform/http/zod-app.ts';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.ts';
import { registerUser, verifyRegistration } from './registration.ts';
import { getMe, loginUser, loginWithSecondFactor, subscriptionCache } from './service.ts';
import { loadUserDto } from './users.ts';
import { resendVerification, verifyCode } from './verification.ts';

const errors = errorReplies(400, 401, 403, 404, 409, 429);
const signedIn = requireUser();

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** What the auth routes share: the session cookie and the per-IP limit. */
interface AuthRouteDeps {
  setSessionCookie: (reply: FastifyReply, token: string) => void;
  clearSessionCookie: (reply: FastifyReply) => void;
  /** Per IP, per route, for the calls that guess secrets (log-in, codes) or send mail. */
  perIp: { rateLimit: { max: number; timeWindow: number } };
}

/** Sign-up, log-in, email verification and sessions. Tokens go in the body and in an httpOnly cookie. */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const secure = ctx.config.secureCookies;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  const deps: AuthRouteDeps = {
    setSessionCookie: (reply, token) =>
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: SESSION_TTL_DAYS * 86_400 }),
    clearSessionCookie: (reply) => reply.clearCookie(SESSION_COOKIE, cookieOptions),
    perIp: { rateLimit: { max: ctx.config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: 60_000 } },
  };

  return async (app) => {
    app.addHook('onClose', await subscriptionCache.start(ctx));
    registerSignUpRoute(app, ctx, deps);
    registerLoginRoutes(app, ctx, deps);
    registerVerificationRoutes(app, ctx, deps);
    registerPasswordResetRoutes(app, ctx, deps);
    registerSessionRoutes(app, ctx, deps);
  };
}

function registerSignUpRoute(app: ZodApp, ctx: AppContext, { perIp }: AuthRouteDeps): void {
  app.post(
    '/api/auth/register',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary:
          'Start a creator or brand sign-up: mails a code (the account is created by verify-code); same answer for taken emails',
        body: registerBody,
        response: { 202: registerReply, ...errors },
      },
    },
    async (request, reply) => {
      await registerUser(ctx, request.body);
      return reply.code(202).send({
        success: true as const,
        message: MESSAGES.auth.registrationCodeSent,
        email: request.body.email,
        cooldownSeconds: EMAIL_CODE.resendCooldownSeconds,
      });
    },
  );
}

/** Logging in (with a second factor when asked), logging out, and who is signed in. */
function registerLoginRoutes(
  app: ZodApp,
  ctx: AppContext,
  { perIp, setSessionCookie, clearSessionCookie }: AuthRouteDeps,
): void {
  app.post(
    '/api/auth/login',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary:
          'Log in with email and password (with two-factor on, or after many failed log-ins of the account: a challenge and no session yet)',
        body: loginBody,
        response: { 200: loginReply, ...errors },
      },
    },
    async (request, reply) => {
      const result = await loginUser(ctx, request.body, meta(request));
      if (result.kind === 'session') {
        setSessionCookie(reply, result.token);
        return { success: true as const, data: { token: result.token, user: result.user } };
      }
      if (result.kind === 'two_factor') {
        return {
          success: true as const,
          requiresTwoFactor: true as const,
          challengeToken: result.challengeToken,
          expiresInSeconds: result.expiresInSeconds,
        };
      }
      return {
        success: true as const,
        requiresEmailCode: true as const,
        message: MESSAGES.auth.loginCodeMailed,
        challengeToken: result.challengeToken,
        expiresInSeconds: result.expiresInSeconds,
      };
    },
  );

  app.post(
    '/api/auth/login/two-factor',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary: 'Finish a challenged log-in with a TOTP or recovery code, or the code mailed to the account',
        body: loginTwoFactorBody,
        response: { 200: sessionReply, ...errors },
      },
    },
    async (request, reply) => {
      const { token, user } = await loginWithSecondFactor(ctx, request.body, meta(request));
      setSessionCookie(reply, token);
      return { success: true as const, data: { token, user } };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], summary: 'Revoke the current session', response: { 200: messageReply, ...errors } } },
    async (request, reply) => {
      if (request.auth) {
        assertSignedIn(request);
        await revokeSession(ctx.db, ctx.clock.now(), request.auth.user.id, request.auth.session.id);
      }
      clearSessionCookie(reply);
      return { success: true as const, message: MESSAGES.auth.loggedOut };
    },
  );

  app.get(
    '/api/auth/me',
    {
      preValidation: signedIn,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and credits',
        security: [{ bearer: [] }],
        response: { 200: meReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await getMe(ctx, currentUser(request), request.receivedAt) }),
  );
}

/** Email codes: sending a new one, and verifying one (which finishes a sign-up). */
function registerVerificationRoutes(app: ZodApp, ctx: AppContext, { perIp, setSessionCookie }: AuthRouteDeps): void {
  app.post(
    '/api/auth/resend-verification',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary: 'Send a new email code (same answer for unknown or verified emails)',
        body: resendVerificationBody,
        response: { 200: resendVerificationReply, 502: errorReply, ...errors },
      },
    },
    async (request) => {
      await resendVerification(ctx, request.body.email, optionalUser(request));
      return {
        success: true as const,
        message: MESSAGES.verification.sent,
        cooldownSeconds: EMAIL_CODE.resendCooldownSeconds,
      };
    },
  );

  app.post(
    '/api/auth/verify-code',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary:
          'Verify an email with the 6-digit code: with `email`, finishes a sign-up (creates the account and signs in); without, the signed-in user’s email. Returns a fresh token',
        security: [{ bearer: [] }, {}],
        body: verifyCodeBody,
        response: { 200: verifyCodeReply, ...errors },
      },
    },
    async (request, reply) => {
      const { email, code } = request.body;
      if (email) {
        const { token, user } = await verifyRegistration(ctx, { email, code }, meta(request));
        setSessionCookie(reply, token);
        return { success: true as const, message: MESSAGES.verification.verified, token, user };
      }
      assertSignedIn(request);
      const auth = request.auth;
      if (!auth) throw unauthorized(MESSAGES.auth.required);
      const result = await verifyCode(ctx, { user: auth.user, sessionId: auth.session.id }, code, meta(request));
      setSessionCookie(reply, result.token);
      return {
        success: true as const,
        message: result.alreadyVerified ? MESSAGES.verification.alreadyVerified : MESSAGES.verification.verified,
        token: result.token,
        user: await loadUserDto(ctx.db, auth.user.id, ctx.clock.now()),
      };
    },
  );
}

function registerPasswordResetRoutes(app: ZodApp, ctx: AppContext, { perIp, clearSessionCookie }: AuthRouteDeps): void {
  app.post(
    '/api/auth/password-reset/request',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset code (same 202 answer for unknown emails; a few mails per email and hour)',
        body: passwordResetRequestBody,
        response: { 202: passwordResetRequestReply, ...errors },
      },
    },
    async (request, reply) => {
      // The mail is not awaited: the answer takes as long for emails without an account.
      await requestPasswordReset(ctx, request.body.email);
      return reply.code(202).send({
        success: true as const,
        message: MESSAGES.passwordReset.requested,
        expiresInMinutes: Math.round(PASSWORD_RESET.expiresInSeconds / 60),
      });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      config: perIp,
      schema: {
        tags: ['auth'],
        summary:
          'Set a new password with the mailed code (single use, 30 minutes); signs out every session and mails the owner',
        body: passwordResetConfirmBody,
        response: { 200: messageReply, ...errors },
      },
    },
    async (request, reply) => {
      await confirmPasswordReset(ctx, request.body, meta(request));
      clearSessionCookie(reply);
      return { success: true as const, message: MESSAGES.passwordReset.done };
    },
  );
}

/** The signed-in user's sessions, and revoking them. */
function registerSessionRoutes(app: ZodApp, ctx: AppContext, { clearSessionCookie }: AuthRouteDeps): void {
  app.get(
    '/api/auth/sessions',
    {
      preValidation: signedIn,
      schema: {
        tags: ['auth'],
        summary: 'Active sessions, most recently seen first',
        security: [{ bearer: [] }],
        response: { 200: sessionsReply, ...errors },
      },
    },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw unauthorized(MESSAGES.auth.required);
      return {
        success: true as const,
        data: await listSessions(ctx.db, ctx.clock.now(), auth.user.id, auth.session.id),
      };
    },
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      preValidation: signedIn,
      schema: {
        tags: ['auth'],
        summary: 'Revoke one of your sessions',
        security: [{ bearer: [] }],
        params: sessionIdParams,
        response: { 200: messageReply, ...errors },
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      if (!auth) throw unauthorized(MESSAGES.auth.required);
      if (!(await revokeSession(ctx.db, ctx.clock.now(), auth.user.id, request.params.id))) {
        throw notFound(MESSAGES.auth.sessionNotFound);
      }
      if (request.params.id === auth.session.id) clearSessionCookie(reply);
      return { success: true as const, message: MESSAGES.auth.sessionRevoked };
    },
  );

  app.delete(
    '/api/users/sessions/revoke-all',
    {
      preValidation: signedIn,
      schema: {
        tags: ['auth'],
        summary: 'Revoke all your sessions, this one included',
        security: [{ bearer: [] }],
        response: { 200: messageReply, ...errors },
      },
    },
    async (request, reply) => {
      await revokeAllSessions(ctx.db, ctx.clock.now(), currentUser(request).id);
      clearSessionCookie(reply);
      return { success: true as const, message: MESSAGES.auth.sessionsRevoked };
    },
  );
}
