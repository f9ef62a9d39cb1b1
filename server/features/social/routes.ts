import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import {
  accountsReply,
  calendarDayBody,
  calendarDayReply,
  calendarQuery,
  calendarReply,
  cancelScheduledQuery,
  cancelScheduledReply,
  connectParams,
  connectReply,
  createScheduledBody,
  createScheduledReply,
  disconnectBody,
  disconnectQuery,
  disconnectReply,
  listScheduledQuery,
  listScheduledReply,
  publishBody,
  publishReply,
  type SocialPlatform,
  socialPlatform,
  updateScheduledBody,
  updateScheduledReply,
} from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import type { ZodApp } from '../../platform/http/zod-app.ts';
import {
  type CallbackOutcome,
  CONNECT_TTL_MS,
  completeAccountChoice,
  completeConnect,
  disconnect,
  listAccounts,
  redirectUriFor,
  startConnect,
} from './accounts.ts';
import { accountChoicePage, CALLBACK_PAGE_CSP, CHOICE_PAGE_CSP, callbackPage } from './pages.ts';
import { publish, scheduleFor } from './posts.ts';
import { sandboxRoutes } from './sandbox/routes.ts';
import {
  calendar,
  cancelPost,
  dayPosts,
  listPosts,
  publishAgain,
  resumeMissedPosts,
  updatePost,
} from './scheduled-posts.ts';

const M = MESSAGES.social;
const tags = ['social'];
const errors = errorReplies(400, 401, 403, 404, 409, 503);
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
/**
 * Binds a connect flow to the browser that started it (its value is the flow's nonce). One per platform, scoped to
 * that platform's callback path, so connecting two platforms at once works and no other route ever receives it.
 */
const CONNECT_COOKIE = 'genpro_social_connect';
const signedIn = requireUser();

// The path as the browser sees the callback (PUBLIC_URL may carry a prefix a proxy strips).
const connectCookieOptions = (ctx: AppContext, platform: SocialPlatform) =>
  ({
    path: new URL(redirectUriFor(ctx, platform)).pathname,
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
  }) as const;

/** Social accounts, publishing and scheduled posts (accounts spec 2.2, 2.3, 5, 7), and the sandbox networks. */
export function socialRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    registerAccountRoutes(app, ctx);
    await registerOAuthCallbackRoutes(app, ctx);
    registerPublishRoute(app, ctx);
    registerScheduledPostRoutes(app, ctx);

    // The sandbox network's pages (consent, posts): only where the sandbox networks are on (not in production
    // unless SANDBOX_NETWORKS=true), so "published" posts never become public pages on a production studio.
    if (ctx.config.SANDBOX_NETWORKS) await app.register(sandboxRoutes(ctx));
  };
}

/** The connected accounts, disconnecting one, and starting a connect flow. */
function registerAccountRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/api/social/accounts',
    {
      preValidation: signedIn,
      schema: { tags, summary: 'Social accounts, every platform', response: { 200: accountsReply, ...errors } },
    },
    async (request) => ({
      success: true as const,
      data: { accounts: await listAccounts(ctx, currentUser(request).id) },
    }),
  );

  app.delete(
    '/api/social/accounts',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Disconnects a platform (platform in the query or the body)',
        querystring: disconnectQuery,
        body: disconnectBody,
        response: { 200: disconnectReply, ...errors },
      },
    },
    async (request) => {
      await disconnect(ctx, currentUser(request).id, request.query.platform ?? request.body?.platform ?? undefined);
      return { success: true as const, message: M.disconnected };
    },
  );

  app.post(
    '/api/social/connect/:platformId',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Starts OAuth: the authorization URL to open in a new tab',
        params: connectParams,
        response: { 200: connectReply, ...errors },
      },
    },
    async (request, reply) => {
      const platform = request.params.platformId;
      const { authUrl, browserNonce } = await startConnect(ctx, currentUser(request).id, platform);
      reply.setCookie(CONNECT_COOKIE, browserNonce, {
        ...connectCookieOptions(ctx, platform),
        maxAge: CONNECT_TTL_MS / 1000,
      });
      return { success: true as const, authUrl };
    },
  );
}

/** Where a connect flow comes back: the provider's callback, and the choice when a login grants several accounts. */
async function registerOAuthCallbackRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  // The OAuth callback: opened by the provider in the user's tab. The single-use state names the flow; the
  // connect cookie (and the session, when the tab has one) must show it is the browser that started it.
  app.get(
    '/api/social/oauth/:id',
    {
      schema: {
        tags,
        summary: 'OAuth callback: exchanges the code, stores the account, and closes the tab',
        params: z.object({ id: socialPlatform }),
        querystring: z.object({
          code: z.string().max(2048).optional(),
          state: z.string().max(512).optional(),
          error: z.string().max(512).optional(),
        }),
      },
    },
    async (request, reply) => {
      const platform = request.params.id;
      const outcome = await completeConnect(ctx, platform, request.query, {
        nonce: request.cookies[CONNECT_COOKIE],
        signedInUserId: request.auth?.user.id ?? null,
      });
      if (outcome.ok === 'choose') {
        // Several Pages granted: the tab asks which one; the connect cookie stays for that answer.
        return reply
          .code(200)
          .headers({ ...PAGE_HEADERS, 'content-security-policy': CHOICE_PAGE_CSP })
          .send(
            accountChoicePage({
              platform,
              title: M.choosePage,
              hint: M.choosePageHint,
              action: `${connectCookieOptions(ctx, platform).path}/choose`,
              choiceId: outcome.choiceId,
              choices: outcome.choices,
            }),
          );
      }
      return finishConnect(ctx, reply, platform, outcome);
    },
  );

  // The person's choice among the accounts a login granted (the Facebook Pages they manage), from the chooser
  // page in the tab that started the connect flow.
  await app.register(async (chooser) => {
    chooser.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    chooser.withTypeProvider<ZodTypeProvider>().post(
      '/api/social/oauth/:id/choose',
      {
        schema: {
          tags,
          summary: 'Connects the account (Facebook Page) chosen after the login, and closes the tab',
          params: z.object({ id: socialPlatform }),
          body: z.object({ choice: z.string().max(128).optional(), account: z.string().max(128).optional() }),
        },
      },
      async (request, reply) => {
        const platform = request.params.id;
        const outcome = await completeAccountChoice(ctx, platform, request.body, {
          nonce: request.cookies[CONNECT_COOKIE],
          signedInUserId: request.auth?.user.id ?? null,
        });
        return finishConnect(ctx, reply, platform, outcome);
      },
    );
  });
}

/** Ends a connect flow: clears its cookie, resumes the platform's missed posts, and shows the page closing the tab. */
async function finishConnect(
  ctx: AppContext,
  reply: FastifyReply,
  platform: SocialPlatform,
  outcome: Exclude<CallbackOutcome, { ok: 'choose' }>,
) {
  reply.clearCookie(CONNECT_COOKIE, connectCookieOptions(ctx, platform));
  const resumed = outcome.ok ? await resumeMissedPosts(ctx, outcome.userId, platform) : 0;
  const html = outcome.ok
    ? callbackPage(true, resumed > 0 ? M.connectedResumed(resumed) : M.connectedCloseTab)
    : callbackPage(false, outcome.message);
  return reply
    .code(outcome.ok ? 200 : 400)
    .headers({ ...PAGE_HEADERS, 'content-security-policy': CALLBACK_PAGE_CSP })
    .send(html);
}

function registerPublishRoute(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/api/social/publish',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Publishes now (a task per platform) or schedules',
        body: publishBody,
        response: { 200: publishReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { results: await publish(ctx, currentUser(request), request.body) },
    }),
  );
}

/** Scheduled posts: scheduling, the list, editing, publishing again, cancelling, and the calendar. */
function registerScheduledPostRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/api/social/scheduled-posts',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Schedules a post (one per platform)',
        body: createScheduledBody,
        response: { 200: createScheduledReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await scheduleFor(ctx, currentUser(request), request.body),
    }),
  );

  app.get(
    '/api/social/scheduled-posts',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Scheduled posts: upcoming or all',
        querystring: listScheduledQuery,
        response: { 200: listScheduledReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listPosts(ctx, currentUser(request).id, request.query.filter),
    }),
  );

  app.put(
    '/api/social/scheduled-posts',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Edits the message or reschedules a future post',
        body: updateScheduledBody,
        response: { 200: updateScheduledReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await updatePost(ctx, currentUser(request).id, request.body),
    }),
  );

  app.post(
    '/api/social/scheduled-posts/:id/publish-again',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Publishes a failed post again now (e.g. after reconnecting its account)',
        params: cancelScheduledQuery,
        response: { 200: updateScheduledReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await publishAgain(ctx, currentUser(request).id, request.params.id),
    }),
  );

  app.delete(
    '/api/social/scheduled-posts',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Cancels a future scheduled post',
        querystring: cancelScheduledQuery,
        response: { 200: cancelScheduledReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await cancelPost(ctx, currentUser(request).id, request.query.id),
    }),
  );

  app.get(
    '/api/social/scheduled-posts/calendar',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Days with posts between start and end, in a time zone',
        querystring: calendarQuery,
        response: { 200: calendarReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { calendar: await calendar(ctx, currentUser(request).id, request.query) },
    }),
  );

  app.post(
    '/api/social/scheduled-posts/calendar',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: "A day's posts, in a time zone",
        body: calendarDayBody,
        response: { 200: calendarDayReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { posts: await dayPosts(ctx, currentUser(request).id, request.body.date, request.body.timezone) },
    }),
  );
}
