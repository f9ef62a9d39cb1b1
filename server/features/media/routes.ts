import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { MEDIA_URL_PREFIX } from '../../../common/api/media.constants.ts';
import { type MediaQuery, mediaParams, mediaQuery } from '../../../common/api/media.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { MediaObjectRow } from '../../platform/media/store.ts';
import { ObjectNotFoundError } from '../../platform/storage/types.ts';
import { attachmentDisposition, authorizeMedia, cacheControl, etagOf, parseRange } from './service.ts';

type MediaRequest = FastifyRequest<{ Params: z.infer<typeof mediaParams>; Querystring: z.infer<typeof mediaQuery> }>;

/**
 * Sends one stored object (already authorised) with Range support, its content type, cache headers
 * (one day for temporary classes) and `?download=1` as an attachment. Used by the media proxies and by
 * the admin's audited GET /api/admin/media/{key}.
 */
export async function sendMedia(
  ctx: AppContext,
  request: FastifyRequest<{ Querystring: Pick<MediaQuery, 'download'> }>,
  reply: FastifyReply,
  row: MediaObjectRow,
): Promise<FastifyReply> {
  const key = row.key;
  const size = row.size;
  const etag = etagOf(row);
  reply
    .header('accept-ranges', 'bytes')
    .header('cache-control', cacheControl(row))
    .header('etag', etag)
    .header('last-modified', row.createdAt.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  if (request.query.download === '1' || request.query.download === 'true') {
    reply.header('content-disposition', attachmentDisposition(key));
  }
  const range = parseRange(request.headers.range, size);
  if (range.kind === 'full' && request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (range.kind === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${size}`)
      .header('cache-control', 'no-store')
      .send({ success: false, error: MESSAGES.media.rangeNotSatisfiable, code: 'range_not_satisfiable' });
  }
  try {
    if (range.kind === 'partial') {
      const stream = await ctx.storage.read(key, { start: range.start, end: range.end });
      return reply
        .code(206)
        .type(row.contentType)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', String(range.end - range.start + 1))
        .send(stream);
    }
    const stream = size === 0 ? Buffer.alloc(0) : await ctx.storage.read(key);
    return reply.code(200).type(row.contentType).header('content-length', String(size)).send(stream);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw notFound();
    throw error;
  }
}

/** The media proxies: every stored object its reader may see (authorizeMedia), served by sendMedia. */
export function mediaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const serve = async (request: MediaRequest, reply: FastifyReply) => {
    const row = await authorizeMedia(ctx, request, request.params['*'], request.query);
    return sendMedia(ctx, request, reply, row);
  };

  return async (app) => {
    const prefixes = [
      [MEDIA_URL_PREFIX.image, 'An image'],
      [MEDIA_URL_PREFIX.video, 'A video'],
      [MEDIA_URL_PREFIX.audio, 'An audio file'],
      [MEDIA_URL_PREFIX.personaImage, 'A persona image'],
      [MEDIA_URL_PREFIX.personaVideo, 'A persona video'],
    ] as const;
    for (const [prefix, what] of prefixes) {
      app.get(
        `${prefix}*`,
        {
          schema: {
            tags: ['media'],
            summary: `${what} from storage (Range, ?download=1, signed URLs with expires+sig)`,
            params: mediaParams,
            querystring: mediaQuery,
          },
        },
        serve,
      );
    }
  };
}
