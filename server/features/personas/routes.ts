import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies, messageReply } from '../../../common/api/envelope.ts';
import {
  createPersonaBody,
  listPersonasQuery,
  personaIdParams,
  personaImageBody,
  personaImageReply,
  personaListReply,
  personaReply,
  personaTaskReply,
  personaUgcVideoBody,
  personaVideoBody,
  personaVideoReply,
  regeneratePersonaBody,
  updatePersonaImagesBody,
} from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { PERSONA_VIDEO } from '../../../common/rules/personas.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import {
  createPersona,
  deletePersona,
  generatePersonaImage,
  getPersona,
  listPersonas,
  mayPublishPersonas,
  regeneratePersona,
  updatePersonaImages,
} from './service.ts';
import { startPersonaUgcVideo, startPersonaVideo } from './video.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 409, 413, 422, 500, 502);

/** AI personas: list and search, create (with the image-set task), images, regenerate, delete, video and image. */
export function personaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.get(
      '/api/personas',
      {
        preValidation: signedIn,
        schema: {
          tags: ['personas'],
          summary: 'The user’s personas and public ones, newest first; search matches name, description and tags',
          querystring: listPersonasQuery,
          response: { 200: personaListReply, ...errorReplies(400, 401) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await listPersonas(ctx, currentUser(request).id, request.query),
        permissions: { canCreatePublic: mayPublishPersonas(ctx, currentUser(request)) },
      }),
    );

    app.get(
      '/api/personas/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['personas'],
          summary: 'One persona (own or public) with its images and status',
          params: personaIdParams,
          response: { 200: personaReply, ...errorReplies(401, 404) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await getPersona(ctx, currentUser(request).id, request.params.id),
      }),
    );

    app.post(
      '/api/personas',
      {
        preValidation: signedIn,
        schema: {
          tags: ['personas'],
          summary:
            'Creates a persona (status generating) and queues its five images as a task (4 credits each, placeholders refunded); isPublic needs the designated admin account',
          body: createPersonaBody,
          response: { 200: personaTaskReply, ...errors },
        },
      },
      async (request) => createPersona(ctx, currentUser(request), request.body),
    );

    app.post(
      '/api/personas/:id/update-images',
      {
        preValidation: signedIn,
        schema: {
          tags: ['personas'],
          summary: 'Sets images of the user’s persona to images in their library (ai_generated_images)',
          params: personaIdParams,
          body: updatePersonaImagesBody,
          response: { 200: personaReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await updatePersonaImages(ctx, currentUser(request).id, request.params.id, request.body),
      }),
    );

    app.post(
      '/api/personas/:id/regenerate',
      {
        preValidation: signedIn,
        schema: {
          tags: ['personas'],
          summary: 'Regenerates one image type (or all five) of the user’s persona as a task',
          params: personaIdParams,
          body: regeneratePersonaBody,
          response: { 200: personaTaskReply, ...errors },
        },
      },
      async (request) => regeneratePersona(ctx, currentUser(request).id, request.params.id, request.body.imageType),
    );

    app.delete(
      '/api/personas/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['personas'],
          summary: 'Deletes the user’s persona, its generated images and its workspace entries',
          params: personaIdParams,
          response: { 200: messageReply, ...errorReplies(401, 404) },
        },
      },
      async (request) => {
        await deletePersona(ctx, currentUser(request).id, request.params.id);
        return { success: true as const, message: MESSAGES.personas.deleted };
      },
    );

    app.post(
      '/api/personas/:id/video',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['personas'],
          summary: `Starts a persona video (${PERSONA_VIDEO.model}, ${PERSONA_VIDEO.resolution}, audio on, ${PERSONA_VIDEO.credits} credits); poll statusUrl`,
          params: personaIdParams,
          body: personaVideoBody,
          response: { 200: personaVideoReply, ...errors },
        },
      },
      async (request) => {
        const data = await startPersonaVideo(ctx, currentUser(request).id, request.params.id, request.body);
        return { success: true as const, data, creditsUsed: data.creditsReserved };
      },
    );

    app.post(
      '/api/personas/:id/ugc-video',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['personas'],
          summary: 'Starts a UGC video: the persona presents 1–2 product images and says the script (9:16 by default)',
          params: personaIdParams,
          body: personaUgcVideoBody,
          response: { 200: personaVideoReply, ...errors },
        },
      },
      async (request) => {
        const data = await startPersonaUgcVideo(ctx, currentUser(request).id, request.params.id, request.body);
        return { success: true as const, data, creditsUsed: data.creditsReserved };
      },
    );

    app.post(
      '/api/personas/:id/image',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['personas'],
          summary: 'A new image of the persona from a prompt, conditioned on its face_only image (waits ~20 s)',
          params: personaIdParams,
          body: personaImageBody,
          response: { 200: personaImageReply, ...errors },
        },
      },
      async (request) => generatePersonaImage(ctx, currentUser(request).id, request.params.id, request.body),
    );
  };
}
