import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  characterBody,
  characterGenerateBody,
  characterGenerateReply,
  characterIdParams,
  characterListReply,
  characterReply,
} from '../../../common/api/characters.ts';
import { errorReplies, errorReply, messageReply } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import {
  createCharacter,
  deleteCharacter,
  generateWithCharacters,
  listCharacters,
  updateCharacter,
} from './service.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 500, 502);

/** Characters per user (GET/POST /api/characters, PUT/DELETE /api/characters/:id) and POST /api/ai/generate. */
export function characterRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.get(
      '/api/characters',
      {
        preValidation: signedIn,
        schema: {
          tags: ['characters'],
          summary: 'The signed-in user’s characters, newest first',
          response: { 200: characterListReply, 401: errorReply },
        },
      },
      async (request) => ({ success: true as const, data: await listCharacters(ctx, currentUser(request).id) }),
    );

    app.post(
      '/api/characters',
      {
        preValidation: signedIn,
        schema: {
          tags: ['characters'],
          summary: 'Creates a character: name and at least one of the user’s own uploaded images required',
          body: characterBody,
          response: { 200: characterReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await createCharacter(ctx, currentUser(request).id, request.body),
      }),
    );

    app.put(
      '/api/characters/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['characters'],
          summary: 'Replaces a character of the user (same rules as create); another user’s is 404',
          params: characterIdParams,
          body: characterBody,
          response: { 200: characterReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await updateCharacter(ctx, currentUser(request).id, request.params.id, request.body),
      }),
    );

    app.delete(
      '/api/characters/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['characters'],
          summary: 'Deletes a character of the user; another user’s is 404',
          params: characterIdParams,
          response: { 200: messageReply, 401: errorReply, 404: errorReply },
        },
      },
      async (request) => {
        await deleteCharacter(ctx, currentUser(request).id, request.params.id);
        return { success: true as const, message: 'Character deleted' };
      },
    );

    app.post(
      '/api/ai/generate',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['characters'],
          summary:
            'Generates with characters (service stability): text-to-image answers data.url when finished (waits ~20 s); text-to-video answers data.taskId and data.statusUrl to poll',
          body: characterGenerateBody,
          response: { 200: characterGenerateReply, ...errors },
        },
      },
      async (request) => generateWithCharacters(ctx, currentUser(request).id, request.body),
    );
  };
}
