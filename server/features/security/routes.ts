import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  securityActionBody,
  securityActionReply,
  securityReply,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorEnableReply,
  twoFactorSetupReply,
} from '../../../common/api/account.ts';
import { errorReply, messageReply } from '../../../common/api/envelope.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../platform/auth/session.ts';
import type { RequestMeta } from '../../platform/auth/sessions.ts';
import { AppError, unauthorized } from '../../platform/errors.ts';
import { changePassword, confirmPassword, getSecurityState, updateAlerts } from './service.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  isTwoFactorEnabled,
  setupTwoFactor,
  verifySecondFactor,
} from './two-factor.ts';

const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 409: errorReply, 429: errorReply };
const m = MESSAGES.account;

function signedInOf(request: FastifyRequest) {
  if (!request.auth) throw unauthorized(MESSAGES.auth.required);
  return request.auth;
}

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** Security tab: password, alert toggles, sessions, TOTP two-factor (spec 2.6, 3 Security). */
export function securityRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  /** The calls that check a password or a code are limited per IP like log-in. */
  const perIp = { rateLimit: { max: ctx.config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: 60_000 } };

  return async (app) => {
    app.get(
      '/api/users/security',
      {
        preValidation: signedIn,
        schema: {
          tags: ['account'],
          summary: 'Two-factor state, alert toggles, active sessions and the last password change',
          security: [{ bearer: [] }],
          response: { 200: securityReply, ...errors },
        },
      },
      async (request) => {
        const auth = signedInOf(request);
        return { success: true as const, data: await getSecurityState(ctx, auth.user.id, auth.session.id) };
      },
    );

    app.post(
      '/api/users/security',
      {
        config: perIp,
        preValidation: signedIn,
        schema: {
          tags: ['account'],
          summary: "action 'change_password' (other sessions are signed out) or 'update_alerts'",
          security: [{ bearer: [] }],
          body: securityActionBody,
          response: { 200: securityActionReply, ...errors },
        },
      },
      async (request) => {
        const auth = signedInOf(request);
        const body = request.body;
        let message: string;
        if (body.action === 'change_password') {
          await changePassword(ctx, auth.user, auth.session.id, body, meta(request));
          message = m.passwordChanged;
        } else {
          await updateAlerts(ctx, auth.user.id, body);
          message = m.alertsUpdated;
        }
        return {
          success: true as const,
          message,
          data: await getSecurityState(ctx, auth.user.id, auth.session.id),
        };
      },
    );

    app.post(
      '/api/users/two-factor/setup',
      {
        preValidation: signedIn,
        schema: {
          tags: ['account'],
          summary: 'Start two-factor enrolment: a new TOTP secret, its otpauth URL and QR code',
          security: [{ bearer: [] }],
          response: { 200: twoFactorSetupReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, data: await setupTwoFactor(ctx, signedInOf(request).user) }),
    );

    app.post(
      '/api/users/two-factor/enable',
      {
        config: perIp,
        preValidation: signedIn,
        schema: {
          tags: ['account'],
          summary:
            'Turn two-factor on with the first code (other sessions are signed out); returns the recovery codes once',
          security: [{ bearer: [] }],
          body: twoFactorEnableBody,
          response: { 200: twoFactorEnableReply, ...errors },
        },
      },
      async (request) => {
        const auth = signedInOf(request);
        const recoveryCodes = await enableTwoFactor(
          ctx,
          { userId: auth.user.id, sessionId: auth.session.id },
          request.body.code,
        );
        return { success: true as const, message: m.twoFactorEnabled, data: { recoveryCodes } };
      },
    );

    app.post(
      '/api/users/two-factor/disable',
      {
        config: perIp,
        preValidation: signedIn,
        schema: {
          tags: ['account'],
          summary: 'Turn two-factor off (password and a current or recovery code)',
          security: [{ bearer: [] }],
          body: twoFactorDisableBody,
          response: { 200: messageReply, ...errors },
        },
      },
      async (request) => {
        const { user } = signedInOf(request);
        if (!(await isTwoFactorEnabled(ctx.db, user.id))) throw new AppError(400, 'not_enabled', m.twoFactorNotEnabled);
        await confirmPassword(ctx, user, request.body.password, m.passwordWrong, request.ip);
        if (!(await verifySecondFactor(ctx, user.id, request.body.code))) {
          throw new AppError(400, 'invalid_code', m.twoFactorInvalidCode);
        }
        await disableTwoFactor(ctx.db, user.id);
        return { success: true as const, message: m.twoFactorDisabled };
      },
    );
  };
}
