import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { listOutbox } from '../../platform/mail/index.ts';
import { renderOutboxPage, toOutboxDto } from './page.ts';

const outboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  transport: z.string(),
  sentAt: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
});

const outboxQuery = z.object({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** The local outbox (embedded mail mode only): an HTML page and a JSON list, newest first. */
export function devMailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/dev/mail', { schema: { hide: true, querystring: outboxQuery } }, async (request, reply) => {
      const messages = await listOutbox(ctx.db, request.query);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(renderOutboxPage(messages, request.query.to));
    });

    app.get(
      '/dev/mail.json',
      {
        schema: {
          tags: ['dev'],
          summary: 'Local outbox messages, newest first (embedded mail mode only)',
          querystring: outboxQuery,
          response: { 200: z.object({ success: z.literal(true), data: z.array(outboxMessage) }) },
        },
      },
      async (request, reply) => {
        const messages = await listOutbox(ctx.db, request.query);
        reply.header('cache-control', 'no-store');
        return { success: true as const, data: messages.map(toOutboxDto) };
      },
    );
  };
}
