import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CANVAS_IMAGES } from '../../../common/api/canvas-images.constants.ts';
import {
  advancedCompositionBody,
  editImageBody,
  multiCompositionBody,
  multiCompositionReply,
  multiImageCompositionBody,
  nanobanaReply,
  textToImageBody,
  textToImageReply,
} from '../../../common/api/canvas-images.ts';
import { errorReplies } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { composeImages, editImage, multiComposition, textToImage } from './service.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 500, 502);

/**
 * The canvas image calls: NanoBana edit, multi-image and advanced composition, text to image, and
 * the region-masked multi-composition. Each runs as a `canvas.image` (or `generate.image`) task and
 * answers the finished result (or the task while it is still running after ~20 s).
 */
export function canvasImageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/nanobana/edit-image',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.canvasImages(1),
        schema: {
          tags: ['canvas'],
          summary: 'Edits one image by a prompt (NanoBana, up to 2K); the result is an image asset',
          body: editImageBody,
          response: { 200: nanobanaReply, ...errors },
        },
      },
      async (request) => editImage(ctx, currentUser(request).id, request.body),
    );

    app.post(
      '/api/nanobana/multi-image-composition',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.canvasImages(CANVAS_IMAGES.maxComposeImages),
        schema: {
          tags: ['canvas'],
          summary: 'Composes up to 10 images into one by a prompt (NanoBana, 2K)',
          body: multiImageCompositionBody,
          response: { 200: nanobanaReply, ...errors },
        },
      },
      async (request) =>
        composeImages(ctx, currentUser(request).id, { ...request.body, tool: 'multi-image-composition' }),
    );

    app.post(
      '/api/nanobana/advanced-composition',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.canvasImages(CANVAS_IMAGES.maxComposeImages),
        schema: {
          tags: ['canvas'],
          summary: 'Composes up to 10 images at an aspect ratio (NanoBana, 2K)',
          body: advancedCompositionBody,
          response: { 200: nanobanaReply, ...errors },
        },
      },
      async (request) => composeImages(ctx, currentUser(request).id, { ...request.body, tool: 'advanced-composition' }),
    );

    app.post(
      '/api/nanobana/generate-text-to-image',
      {
        preValidation: signedIn,
        schema: {
          tags: ['canvas'],
          summary: 'Generates one image from a prompt (NanoBana); data.url and data.base64',
          body: textToImageBody,
          response: { 200: textToImageReply, ...errors },
        },
      },
      async (request) => textToImage(ctx, currentUser(request).id, request.body),
    );

    app.post(
      '/api/ai/generate/multi-composition',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.canvasImages(CANVAS_IMAGES.maxSteps + 1),
        schema: {
          tags: ['canvas'],
          summary: 'Reference chain: each step inpaints its region of the previous output (up to 10 steps)',
          body: multiCompositionBody,
          response: { 200: multiCompositionReply, ...errors },
        },
      },
      async (request) => multiComposition(ctx, currentUser(request).id, request.body),
    );
  };
}
