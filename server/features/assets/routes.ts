import type { FastifyReply } from 'fastify';
import { type FastifyPluginAsyncZod, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assetIdParams,
  assetReply,
  createAssetBody,
  type ListAssetsReply,
  listAssetsQuery,
  listAssetsReply,
} from '../../../common/api/assets.ts';
import { errorReply } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { visiblePersona } from '../../platform/persona-access.ts';
import { assetListCache } from './list-cache.ts';
import { deleteAsset, getAsset, listAssets, parseAssetTypes, registerAsset, toAssetDto } from './service.ts';

const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 409: errorReply };
const deletedReply = z.object({
  success: z.literal(true),
  data: z.object({ id: z.string(), deleted: z.literal(true) }),
});

/**
 * An already serialized JSON body, sent as it is (Fastify serializes no Buffer). Returned rather than passed
 * to reply.send: an async handler that returns the reply makes Fastify wait on it as a thenable.
 */
function jsonBody<Reply>(reply: FastifyReply, body: Buffer): Reply {
  reply.type('application/json; charset=utf-8');
  return body as unknown as Reply;
}

/** The media library: GET/POST /api/ai/assets, GET/DELETE /api/ai/assets/{id}. */
export function assetRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  const listCache = assetListCache.of(ctx);
  return async (app) => {
    app.addHook('onClose', await assetListCache.start(ctx));

    app.get(
      '/api/ai/assets',
      {
        preValidation: signedIn,
        // The handler sends the 200 body as bytes (built by toAssetDto to the letter of its schema, kept by the
        // list cache); checking 70 assets again with zod costs more than writing them (the schema still documents
        // the route). Errors keep the zod serializer.
        serializerCompiler: (route) =>
          route.httpStatus === '200'
            ? (data) => JSON.stringify(data)
            : serializerCompiler(route as unknown as Parameters<typeof serializerCompiler>[0]),
        schema: {
          tags: ['assets'],
          summary:
            'The signed-in user’s assets, newest first unless sort says otherwise (type: one or a list split by | or ,; q: words of the prompt)',
          querystring: listAssetsQuery,
          response: { 200: listAssetsReply, ...errors },
        },
      },
      async (request, reply) => {
        const { limit, offset, type, persona_id, q, sort } = request.query;
        const userId = currentUser(request).id;
        const types = parseAssetTypes(type);
        const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean).join(' ');
        const cacheKey = JSON.stringify([limit, offset, types ? [...types].sort() : [], persona_id ?? '', words, sort]);
        const body = await listCache.read(
          `${userId} ${cacheKey}`,
          userId,
          async () => {
            const page = await listAssets(ctx, userId, { limit, offset, types, personaId: persona_id, q: words, sort });
            const data = page.rows.map(toAssetDto);
            return Buffer.from(
              JSON.stringify({
                success: true as const,
                data,
                pagination: { offset, limit, hasMore: page.hasMore, total: page.total },
              }),
            );
          },
          request.receivedAt,
        );
        return jsonBody<ListAssetsReply>(reply, body);
      },
    );

    app.get(
      '/api/ai/assets/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['assets'],
          summary: 'One asset with its metadata',
          params: assetIdParams,
          response: { 200: assetReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: toAssetDto(await getAsset(ctx, currentUser(request).id, request.params.id)),
      }),
    );

    app.delete(
      '/api/ai/assets/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['assets'],
          summary: 'Deletes an asset and the files it owns',
          params: assetIdParams,
          response: { 200: deletedReply, ...errors },
        },
      },
      async (request) => {
        await deleteAsset(ctx, currentUser(request).id, request.params.id);
        return { success: true as const, data: { id: request.params.id, deleted: true as const } };
      },
    );

    app.post(
      '/api/ai/assets',
      {
        preValidation: signedIn,
        schema: {
          tags: ['assets'],
          summary: 'Registers media already in the user’s storage as an asset (credits_used is always 0)',
          body: createAssetBody,
          response: { 200: assetReply, ...errors },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        if (request.body.persona_id) await visiblePersona(ctx, userId, request.body.persona_id);
        return { success: true as const, data: toAssetDto(await registerAsset(ctx, userId, request.body)) };
      },
    );
  };
}
