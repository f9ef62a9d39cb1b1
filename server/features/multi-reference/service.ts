import type { z } from 'zod';
import type { PriceTable } from '../../../common/api/generation.constants.ts';
import { MEDIA_URL_PREFIX } from '../../../common/api/media.constants.ts';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import type { MultiReferenceReply, multiReferenceBody } from '../../../common/api/multi-reference.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';
import { finishedTask, generatedMediaOf } from '../../platform/jobs/outcome.ts';
import { inlineOrMediaRef, prepareMediaRef } from '../../platform/media/inputs.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { visiblePersona } from '../../platform/persona-access.ts';
import { MULTI_REFERENCE_KIND, type MultiReferenceTaskInput } from './tasks.ts';
import { MULTI_REFERENCE_VIDEO_KIND, type MultiReferenceVideoInput } from './video-task.ts';

type Body = z.infer<typeof multiReferenceBody>;
const MB = 1024 * 1024;

const unsupported = () => new AppError(400, 'unsupported_type', MESSAGES.multiReference.unsupportedType);

/** prepareMediaRef with the size limit of the mode and the spec's message for a refused type. */
async function prepareReference(
  ctx: AppContext,
  userId: string,
  url: string,
  maxMb: number,
  allowed: Array<'image' | 'video'>,
) {
  try {
    return await prepareMediaRef(ctx, userId, inlineOrMediaRef(url), { maxBytes: maxMb * MB, allowed });
  } catch (error) {
    if (error instanceof AppError && error.code === 'unsupported_type') throw unsupported();
    throw error;
  }
}

/** A video reference stored with us must be one of the spec's containers (mp4, mov, webm, avi). */
function assertVideoContainer(ref: string): void {
  const stored = ref.startsWith(MEDIA_URL_PREFIX.video) || ref.startsWith(MEDIA_URL_PREFIX.personaVideo);
  if (!stored) return; // a public URL: its type is checked when the task fetches it
  const ext = ref.split('?')[0]?.split('.').pop()?.toLowerCase() ?? '';
  if (!(MULTI_REFERENCE.videoExtensions as readonly string[]).includes(ext)) throw unsupported();
}

/** Credits one call reserves: `multiReference` per asked image, from the serving engine's price list. */
function multiReferencePrice(prices: PriceTable, numImages: number): number {
  return prices.multiReference * Math.max(1, Math.floor(numImages));
}

/**
 * POST /api/ai/generate/multi-reference: checks the prompt and every reference (own media, data
 * URIs stored as temporary references, images only, 10 MB), reserves the credits and runs the
 * blend as a task; answers the first output (data.url) and all of them (data.images).
 */
export async function generateMultiReference(
  ctx: AppContext,
  userId: string,
  body: Body,
): Promise<MultiReferenceReply> {
  ctx.engines.checkPrompt(body.prompt);
  if (body.negativePrompt) ctx.engines.checkPrompt(body.negativePrompt);
  if (body.personaId) await visiblePersona(ctx, userId, body.personaId);
  if (body.type === MULTI_REFERENCE.videoToVideo.type) return generateVideoToVideo(ctx, userId, body);
  const model = MULTI_REFERENCE.model;
  ctx.engines.image(model);
  const prices = ctx.engines.prices('image', model);
  const credits = multiReferencePrice(prices, body.numImages);
  const creditsEach = multiReferencePrice(prices, 1);
  const stored: string[] = [];
  let taskId: string;
  try {
    const references: MultiReferenceTaskInput['references'] = [];
    for (const ref of body.referenceImages) {
      if (ref.mediaType === 'video') throw unsupported();
      const prepared = await prepareReference(ctx, userId, ref.url, MULTI_REFERENCE.imageMaxMb, ['image']);
      stored.push(...prepared.storedKeys);
      references.push({ url: prepared.ref, weight: ref.weight, type: ref.type, description: ref.description ?? null });
    }
    const input: MultiReferenceTaskInput = {
      model,
      prompt: body.prompt,
      negativePrompt: body.negativePrompt ?? null,
      references,
      blendMode: body.blendMode,
      strength: body.strength,
      numImages: body.numImages,
      aspectRatio: body.aspectRatio,
      quality: body.quality,
      compositionMode: body.compositionMode,
      preserveDetails: body.preserveDetails,
      seed: body.seed ?? null,
      personaId: body.personaId ?? null,
      creditsEach,
    };
    const task = await ctx.jobs.createTask({
      userId,
      kind: MULTI_REFERENCE_KIND,
      input,
      credits,
      estimatedSeconds: 2 + references.length + body.numImages * 2,
      description: `Multi-reference (${references.length} references, ${body.numImages} images, ${model})`,
      generationType: 'image',
    });
    taskId = task.id;
  } catch (error) {
    const store = new MediaStore(ctx);
    for (const key of stored) await store.delete(key).catch(() => undefined);
    throw error;
  }
  return replyOf(ctx, userId, taskId, credits, {
    generator: model,
    blendMode: body.blendMode,
    strength: body.strength,
    compositionMode: body.compositionMode,
    referenceCount: body.referenceImages.length,
    weights: body.referenceImages.map((r) => r.weight),
  });
}

/** Waits briefly for the task (finishedTask) and answers its outputs in variation order, first one up front. */
async function replyOf(
  ctx: AppContext,
  userId: string,
  taskId: string,
  credits: number,
  metadata: MultiReferenceReply['data']['metadata'],
): Promise<MultiReferenceReply> {
  const task = await finishedTask(ctx, userId, taskId, MESSAGES.multiReference.failed);
  const outputs = generatedMediaOf(task).sort(
    (a, b) => Number(a.metadata.variationIndex ?? 0) - Number(b.metadata.variationIndex ?? 0),
  );
  const first = outputs[0];
  return {
    success: true,
    data: {
      status: task.status === 'completed' && first !== undefined ? 'completed' : 'processing',
      taskId: task.id,
      url: first?.url ?? null,
      id: first?.id ?? null,
      thumbnail_url: first?.thumbnail_url ?? null,
      width: first?.width ?? null,
      height: first?.height ?? null,
      images: outputs,
      // What the local preview did with the prompt (engines that report it): docs/engines.md.
      metadata: first?.metadata.preview ? { ...metadata, preview: first.metadata.preview } : metadata,
    },
    creditsUsed: credits,
  };
}

/**
 * Video-to-video mode (`type: 'video-to-video'`): images and videos up to 100 MB (videos mp4, mov,
 * webm, avi), at least one video; the first video is restyled by the image references as a task
 * (`videoRunway` per variation from the serving engine's price list, refunded if it fails). Answers the finished video, or the task
 * id while it is still running (poll GET /api/tasks/{id}).
 */
async function generateVideoToVideo(ctx: AppContext, userId: string, body: Body): Promise<MultiReferenceReply> {
  const model = MULTI_REFERENCE.videoToVideo.model;
  ctx.engines.video(model);
  const creditsEach = ctx.engines.prices('video', model).videoRunway;
  const credits = creditsEach * Math.max(1, Math.floor(body.numImages));
  const stored: string[] = [];
  let taskId: string;
  try {
    let video: string | null = null;
    const images: MultiReferenceVideoInput['images'] = [];
    for (const ref of body.referenceImages) {
      const allowed: Array<'image' | 'video'> =
        ref.mediaType === 'video' ? ['video'] : ref.mediaType === 'image' ? ['image'] : ['image', 'video'];
      const prepared = await prepareReference(ctx, userId, ref.url, MULTI_REFERENCE.videoMaxMb, allowed);
      stored.push(...prepared.storedKeys);
      const isVideo = ref.mediaType === 'video' || prepared.ref.startsWith(MEDIA_URL_PREFIX.video);
      if (isVideo) {
        assertVideoContainer(prepared.ref);
        video ??= prepared.ref;
      } else images.push({ url: prepared.ref, weight: ref.weight });
    }
    if (!video) throw new AppError(400, 'video_required', MESSAGES.multiReference.videoRequired);
    const input: MultiReferenceVideoInput = {
      model,
      prompt: body.prompt,
      video,
      images,
      numImages: body.numImages,
      aspectRatio: body.aspectRatio,
      quality: body.quality,
      seed: body.seed ?? null,
      personaId: body.personaId ?? null,
      creditsEach,
    };
    const task = await ctx.jobs.createTask({
      userId,
      kind: MULTI_REFERENCE_VIDEO_KIND,
      input,
      credits,
      estimatedSeconds: 10 + body.numImages * 15,
      description: `Multi-reference video-to-video (${images.length} images, ${body.numImages} videos, ${model})`,
      generationType: 'video',
    });
    taskId = task.id;
  } catch (error) {
    const store = new MediaStore(ctx);
    for (const key of stored) await store.delete(key).catch(() => undefined);
    throw error;
  }
  return replyOf(ctx, userId, taskId, credits, {
    generator: model,
    mode: MULTI_REFERENCE.videoToVideo.type,
    referenceCount: body.referenceImages.length,
    weights: body.referenceImages.map((r) => r.weight),
  });
}
