import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHAT_FAILURE_MESSAGE, chatBody, chatReply, helpPageReply } from '../../../common/api/chat.ts';
import { errorReplies } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { optionalUser } from '../../platform/auth/session.ts';
import { notFound } from '../../platform/errors.ts';
import { helpIndex } from './help-index.ts';
import { livePrices } from './prices.ts';
import { answerChat, isLocalText, llmRequest } from './service.ts';

const errors = errorReplies(400, 422, 429, 500, 502);
/** Per user, so one account cannot drain the text vendor for everyone. */
const CHAT_PER_MINUTE = 20;

/**
 * The asker, when signed in (bearer token, or session cookie sent by the studio with X-Requested-With).
 * The spec's chat call carries no auth header, so a request without a session is answered too, from the
 * help pages only; a cookie without X-Requested-With could be a cross-site form, so it gets no account data.
 */
const askerOf = (request: FastifyRequest): string | null => optionalUser(request)?.id ?? null;

const wantsStream = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/event-stream');
const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;

/** The chatWithGenPro assistant (accounts spec 2.1, 5, 7, 8) and the help pages it quotes. */
export function chatRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/chat/genpro',
      {
        config: {
          rateLimit: {
            // Signed out, per address: help-page questions only, and fewer of them.
            max: (request: FastifyRequest) =>
              askerOf(request) ? CHAT_PER_MINUTE : ctx.config.RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE,
            timeWindow: 60_000,
            keyGenerator: (request: FastifyRequest) => askerOf(request) ?? `ip:${normalizeIP(request.ip)}`,
          },
        },
        schema: {
          tags: ['chat'],
          summary:
            'Answers a question about the studio: from the help pages (local assistant) or the configured LLM grounded by them; streams SSE with Accept: text/event-stream when an LLM is configured. Public: signed in (bearer or session cookie) the answer may use your credits and recent tasks; signed out it answers from the help pages only, at most 10 a minute per address',
          body: chatBody,
          response: { 200: chatReply, ...errors },
        },
      },
      async (request, reply) => {
        const asker = askerOf(request);
        const { engine } = ctx.engines.text();
        if (isLocalText(engine) || !wantsStream(request)) return answerChat(ctx, asker, request.body);

        const { request: textRequest, sources } = await llmRequest(ctx, asker, request.body);
        const abort = new AbortController();
        request.raw.on('close', () => abort.abort());
        const chunks = engine.stream(textRequest, { signal: abort.signal })[Symbol.asyncIterator]();
        // The first chunk comes before any header: a content-policy refusal or a vendor failure still
        // answers as an ordinary JSON error.
        const first = await chunks.next();

        reply.hijack();
        reply.raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
          'x-request-id': request.id,
        });
        try {
          if (!first.done) reply.raw.write(sse({ delta: first.value }));
          for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
            reply.raw.write(sse({ delta: next.value }));
          }
          reply.raw.write(sse({ done: true, sources }));
        } catch (error) {
          if (!abort.signal.aborted) {
            request.log.warn({ err: error }, 'chat stream failed');
            reply.raw.write(sse({ error: CHAT_FAILURE_MESSAGE }));
          }
        }
        reply.raw.end();
        return reply;
      },
    );

    app.get(
      '/api/help/:slug',
      {
        schema: {
          tags: ['chat'],
          summary:
            'One help page of docs/help (?lang=ar: its Arabic page in docs/help/ar) as markdown, its prices from the live price list (public)',
          params: z.object({ slug: z.string().regex(/^[a-z0-9-]+$/) }),
          querystring: z.object({ lang: z.enum(['en', 'ar']).optional() }),
          response: { 200: helpPageReply, ...errorReplies(400, 404) },
        },
      },
      async (request) => {
        const page = (await helpIndex(request.query.lang ?? 'en')).pages.get(request.params.slug);
        if (!page) throw notFound('Help page not found');
        return { success: true as const, data: { ...page, markdown: livePrices(ctx).render(page.markdown) } };
      },
    );
  };
}
