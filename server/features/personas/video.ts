import type { z } from 'zod';
import { generateVideoBody } from '../../../common/api/generation.ts';
import type { PersonaVideoStarted, personaUgcVideoBody, personaVideoBody } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { BASE_IMAGE_TYPE, PERSONA_VIDEO, type PersonaImageType } from '../../../common/rules/personas.ts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/errors.ts';
import { type PersonaRow, visiblePersona } from '../../platform/persona-access.ts';
import { startVideoGeneration } from '../generation/service.ts';
import { taskAcceptedOf } from '../generation/status.ts';
import { personaLine, productsOf, usableImage } from './service.ts';

const M = MESSAGES.personas;

interface PersonaVideoPlan {
  prompt: string;
  originalPrompt: string;
  imageType: PersonaImageType;
  duration: number;
  aspectRatio: string;
  productImages: string[];
  audioDescription?: string;
  description: string;
  generationType: string;
}

/** The persona video pipeline: Veo with the spec's fixed parameters, the persona image as the first frame, 21 credits. */
async function startPersonaVideoTask(
  ctx: AppContext,
  userId: string,
  row: PersonaRow,
  plan: PersonaVideoPlan,
): Promise<PersonaVideoStarted> {
  const inputImage = usableImage(row, plan.imageType);
  const face = row.images[BASE_IMAGE_TYPE];
  const characterImages = face.status === 'ready' && face.url && face.url !== inputImage ? [face.url] : [];
  const body = generateVideoBody.parse({
    prompt: plan.prompt,
    original_prompt: plan.originalPrompt,
    model: PERSONA_VIDEO.model,
    duration: plan.duration,
    aspectRatio: plan.aspectRatio,
    resolution: PERSONA_VIDEO.resolution,
    creativity: PERSONA_VIDEO.creativity,
    styleStrength: PERSONA_VIDEO.styleStrength,
    motionIntensity: PERSONA_VIDEO.motionIntensity,
    generateAudio: PERSONA_VIDEO.generateAudio,
    include_audio: PERSONA_VIDEO.generateAudio,
    personGeneration: PERSONA_VIDEO.personGeneration,
    inputImage,
    character_images: characterImages,
    product_images: plan.productImages.length > 0 ? plan.productImages : undefined,
    audio_description: plan.audioDescription,
    persona_id: row.id,
  });
  const started = await startVideoGeneration(ctx, userId, body, {
    credits: ctx.engines.prices('video', PERSONA_VIDEO.model).personaVideo,
    generationType: plan.generationType,
    description: plan.description,
  });
  return {
    ...taskAcceptedOf(started.task, started),
    personaId: row.id,
    imageType: plan.imageType,
    model: started.model,
    duration: plan.duration,
    aspectRatio: plan.aspectRatio,
    resolution: PERSONA_VIDEO.resolution,
  };
}

/** POST /api/personas/{id}/video (spec 9 persona video). */
export async function startPersonaVideo(
  ctx: AppContext,
  userId: string,
  id: string,
  body: z.infer<typeof personaVideoBody>,
): Promise<PersonaVideoStarted> {
  const row = await visiblePersona(ctx, userId, id);
  const imageType = body.imageType;
  if (!imageType) throw badRequest(M.imageTypeRequired);
  const productImages = productsOf(body.product_images, body.productImages);
  const productPrompt = body.productPrompt ?? body.product_prompt;
  const parts = [body.prompt, personaLine(row)];
  if (productImages.length > 0) {
    parts.push(
      productPrompt
        ? `Product integration: ${productPrompt}`
        : 'The persona naturally shows the product from the product images.',
    );
  }
  return startPersonaVideoTask(ctx, userId, row, {
    prompt: parts.join('\n'),
    originalPrompt: body.prompt,
    imageType,
    duration: body.duration,
    aspectRatio: body.aspectRatio,
    productImages,
    description: `Persona video (${body.duration} s, ${row.name})`.slice(0, 200),
    generationType: 'persona-video',
  });
}

/** POST /api/personas/{id}/ugc-video: the persona presents a product and says the script (audio on), vertical by default. */
export async function startPersonaUgcVideo(
  ctx: AppContext,
  userId: string,
  id: string,
  body: z.infer<typeof personaUgcVideoBody>,
): Promise<PersonaVideoStarted> {
  const row = await visiblePersona(ctx, userId, id);
  const productImages = productsOf(body.product_images);
  const prompt = [
    `User-generated-content style video: ${row.name} holds the product from the product images up to the camera and presents it in a casual, authentic way, speaking directly to the viewer.`,
    `${row.name} says: "${body.script}"`,
    body.prompt ? `Scene: ${body.prompt}` : '',
    personaLine(row),
  ]
    .filter(Boolean)
    .join('\n');
  return startPersonaVideoTask(ctx, userId, row, {
    prompt,
    originalPrompt: body.script,
    imageType: body.imageType,
    duration: body.duration,
    aspectRatio: body.aspectRatio,
    productImages,
    audioDescription: `${row.name} speaks to the camera in ${row.language}: "${body.script}"`,
    description: `UGC video (${body.duration} s, ${row.name})`.slice(0, 200),
    generationType: 'persona-ugc-video',
  });
}
