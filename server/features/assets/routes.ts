import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assetIdParams,
  assetReply,
  createAssetBody,
  listAssetsQuery,
  listAssetsReply,
} from '../../../common/api/assets.ts';
import { errorReply } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { deleteAsset, getAsset, listAssets, parseAssetTypes, registerAsset, toAssetDto } from './service.ts';

const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 409: errorReply };
const deletedReply = z.object({
  success: z.literal(true),
  data: z.object({ id: z.string(), deleted: z.literal(true) }),
});

/** The media library: GET/POST /api/ai/assets, GET/DELETE /api/ai/assets/{id}. */
export function assetRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.get(
      '/api/ai/assets',
      {
        preValidation: signedIn,
        schema: {
          tags: ['assets'],
          summary: 'The signed-in user’s assets, newest first (type: one or a list split by | or ,)',
          querystring: listAssetsQuery,
          response: { 200: listAssetsReply, ...errors },
        },
      },
      async (request) => {
        const { limit, offset, type, persona_id } = request.query;
        const page = await listAssets(ctx, currentUser(request).id, {
          limit,
          offset,
          types: parseAssetTypes(type),
          personaId: persona_id,
        });
        const data = page.rows.map(toAssetDto);
        return {
          success: true as const,
          data,
          assets: data,
          pagination: { offset, limit, hasMore: page.hasMore, total: page.total },
        };
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
      async (request) => ({
        success: true as const,
        data: toAssetDto(await registerAsset(ctx, currentUser(request).id, request.body)),
      }),
    );
  };
}
