import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  brandPublicProfileReply,
  creatorPublicProfileReply,
  listBrandsQuery,
  listBrandsReply,
  listCreatorsQuery,
  listCreatorsReply,
  profileIdParams,
} from '../../../common/api/directory.ts';
import { errorReplies } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { getBrandPublicProfile, getCreatorPublicProfile, listBrands, listCreators } from './service.ts';

const errors = errorReplies(400, 401, 403, 404);
const bearer = [{ bearer: [] }];

/** Creator and brand directories (spec 7 Marketplace) and the public profile pages' data. */
export function directoryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.get(
      '/api/creators',
      {
        preValidation: signedIn,
        schema: {
          tags: ['directory'],
          summary: 'Creator directory: approved creators (approved creators, brands and admins)',
          security: bearer,
          querystring: listCreatorsQuery,
          response: { 200: listCreatorsReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await listCreators(ctx, currentUser(request), request.query)),
      }),
    );
    app.get(
      '/api/brands',
      {
        preValidation: signedIn,
        schema: {
          tags: ['directory'],
          summary: 'Brand directory (approved creators, brands and admins)',
          security: bearer,
          querystring: listBrandsQuery,
          response: { 200: listBrandsReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await listBrands(ctx, currentUser(request), request.query)),
      }),
    );
    app.get(
      '/api/creators/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['directory'],
          summary: "A creator's public profile (/creators/{id})",
          security: bearer,
          params: profileIdParams,
          response: { 200: creatorPublicProfileReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await getCreatorPublicProfile(ctx, currentUser(request), request.params.id),
      }),
    );
    app.get(
      '/api/brands/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['directory'],
          summary: "A brand's public profile (/brands/{id})",
          security: bearer,
          params: profileIdParams,
          response: { 200: brandPublicProfileReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await getBrandPublicProfile(ctx, currentUser(request), request.params.id),
      }),
    );
  };
}
