import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isbot } from 'isbot';
import { z } from 'zod';
import { socialPlatform } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import type { AppContext } from '../../../context.ts';
import { keyedHash } from '../../security/secret-box.ts';
import { redirectUriFor } from '../accounts.ts';
import { storePostMetrics, storeSandboxFollowers } from '../metrics.ts';
import { consentPage, notFoundPage, postPage } from '../pages.ts';
import {
  approveConsent,
  findSandboxPost,
  followSandboxAccount,
  likeSandboxPost,
  recordSandboxView,
  sandboxFigures,
  sandboxVisitorState,
} from './network.ts';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const authorizeQuery = z.object({
  response_type: z.literal('code').optional(),
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2048),
  state: z.string().min(8).max(512),
  code_challenge: z.string().min(43).max(128),
  code_challenge_method: z.literal('S256'),
  scope: z.string().max(500).optional(),
});

/** Binds the consent form to the signed-in session and this flow (a cross-site form cannot approve). */
function consentToken(sessionTokenHash: string, state: string): string {
  return createHash('sha256').update(`sandbox-consent:${sessionTokenHash}:${state}`).digest('base64url');
}

/**
 * Who is looking at a sandbox page: a keyed hash of the client address and user agent (the address is never
 * stored), or null for a known bot (isbot's maintained list, which also names headless browsers) or a request
 * without a user agent.
 */
function visitorOf(ctx: AppContext, request: FastifyRequest): string | null {
  const agent = request.headers['user-agent'] ?? '';
  if (!agent || isbot(agent)) return null;
  return keyedHash(ctx.config, 'sandbox-visitor', `${request.ip}\n${agent}`);
}

const postParams = z.object({ platform: socialPlatform, id: z.string().max(64) });

/** The sandbox networks' pages: consent (Approve/Deny) and public post pages that count unique views. */
/**
 * The post's media as the share page shows it. The network was sent absolute URLs on PUBLIC_URL; with PUBLIC_URL
 * unset that is http://localhost:<port>, which a viewer who opened the studio at 127.0.0.1 or by its network name
 * cannot load: the page then uses the path, so the file comes from whatever origin the page came from.
 */
function pageMediaUrl(config: AppContext['config'], url: string): string {
  return config.PUBLIC_URL === undefined && url.startsWith(`${config.publicUrl}/`)
    ? url.slice(config.publicUrl.length)
    : url;
}

export function sandboxRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8192 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    app.get(
      '/social/sandbox/:platform/authorize',
      { schema: { hide: true, params: z.object({ platform: socialPlatform }), querystring: authorizeQuery } },
      async (request, reply) => {
        const { platform } = request.params;
        const q = request.query;
        if (q.redirect_uri !== redirectUriFor(ctx, platform)) {
          return reply.code(400).headers(PAGE_HEADERS).send(notFoundPage(MESSAGES.social.connectFailed));
        }
        const auth = request.auth;
        const html = consentPage({
          platform,
          username: auth ? auth.user.email : null,
          fields: auth
            ? {
                redirect_uri: q.redirect_uri,
                state: q.state,
                code_challenge: q.code_challenge,
                consent: consentToken(auth.session.tokenHash, q.state),
              }
            : {},
        });
        return reply
          .code(auth ? 200 : 401)
          .headers(PAGE_HEADERS)
          .send(html);
      },
    );

    app.post(
      '/social/sandbox/:platform/authorize',
      {
        schema: {
          hide: true,
          params: z.object({ platform: socialPlatform }),
          body: z.object({
            redirect_uri: z.string().max(2048),
            state: z.string().min(8).max(512),
            code_challenge: z.string().min(43).max(128),
            consent: z.string().max(100),
            decision: z.enum(['approve', 'deny']),
          }),
        },
      },
      async (request, reply) => {
        const { platform } = request.params;
        const b = request.body;
        const auth = request.auth;
        if (
          !auth ||
          b.redirect_uri !== redirectUriFor(ctx, platform) ||
          b.consent !== consentToken(auth.session.tokenHash, b.state)
        ) {
          return reply.code(403).headers(PAGE_HEADERS).send(notFoundPage(MESSAGES.social.connectFailed));
        }
        const target = new URL(b.redirect_uri);
        target.searchParams.set('state', b.state);
        if (b.decision === 'approve') {
          target.searchParams.set(
            'code',
            await approveConsent(ctx, { platform, userId: auth.user.id, codeChallenge: b.code_challenge }),
          );
        } else {
          target.searchParams.set('error', 'access_denied');
        }
        return reply.redirect(target.toString(), 303);
      },
    );

    app.get(
      '/social/sandbox/:platform/posts/:id',
      { schema: { hide: true, params: postParams } },
      async (request, reply) => {
        const { platform, id } = request.params;
        const found = await findSandboxPost(ctx, platform, id);
        if (!found) return reply.code(404).headers(PAGE_HEADERS).send(notFoundPage(MESSAGES.social.postGone));
        const visitor = visitorOf(ctx, request);
        const counted = await recordSandboxView(ctx, found.id, visitor);
        const post = counted === null ? found : { ...found, views: counted };
        if (counted !== null) await storePostMetrics(ctx, platform, post.id, sandboxFigures(post));
        const state = await sandboxVisitorState(ctx, { ...post, platform }, visitor);
        return reply
          .code(200)
          .headers(PAGE_HEADERS)
          .send(
            postPage({
              platform,
              ...post,
              mediaUrls: post.mediaUrls.map((url) => pageMediaUrl(ctx.config, url)),
              ...state,
            }),
          );
      },
    );

    // Like and Follow: plain forms on the share page (no script), one per visitor; a bot's press is ignored.
    app.post(
      '/social/sandbox/:platform/posts/:id/:action',
      { schema: { hide: true, params: postParams.extend({ action: z.enum(['like', 'follow']) }) } },
      async (request, reply) => {
        const { platform, id, action } = request.params;
        const post = await findSandboxPost(ctx, platform, id);
        if (!post) return reply.code(404).headers(PAGE_HEADERS).send(notFoundPage(MESSAGES.social.postGone));
        const visitor = visitorOf(ctx, request);
        if (visitor && action === 'like') {
          const likes = await likeSandboxPost(ctx, post.id, visitor);
          await storePostMetrics(ctx, platform, post.id, sandboxFigures({ ...post, likes }));
        }
        // A post whose author disconnected (grant gone) has no account left to follow.
        if (visitor && action === 'follow' && post.ownerUserId) {
          const followers = await followSandboxAccount(ctx, platform, post.ownerUserId, visitor);
          await storeSandboxFollowers(ctx, platform, post.ownerUserId, followers);
        }
        return reply.redirect(`/social/sandbox/${platform}/posts/${post.id}`, 303);
      },
    );
  };
}
