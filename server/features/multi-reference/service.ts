import type { z } from 'zod';
import type { MultiReferenceReply, multiReferenceBody } from '../../../common/api/multi-reference.ts';
import { MULTI_REFERENCE, type PriceTable } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { prepareMediaRef } from '../../platform/media/inputs.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { finishedTask, generatedMediaOf } from '../generation/service.ts';
import { visiblePersona } from '../personas/service.ts';
import { MULTI_REFERENCE_KIND, type MultiReferenceTaskInput } from './tasks.ts';

type Body = z.infer<typeof multiReferenceBody>;
const MB = 1024 * 1024;

/** Bare base64 becomes a PNG-claimed data URI (the bytes are sniffed anyway); URIs and URLs pass as they are. */
function asRef(value: string): string {
  const v = value.trim();
  // Only a media path is a path: the base64 of a JPEG starts with '/9j/'.
  if (v.startsWith('data:') || v.startsWith('/api/') || /^https?:\/\//i.test(v)) return v;
  return `data:application/octet-stream;base64,${v}`;
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
      const prepared = await prepareMediaRef(ctx, userId, asRef(ref.url), {
        maxBytes: MULTI_REFERENCE.imageMaxMb * MB,
        allowed: ['image'],
      });
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
  const task = await finishedTask(ctx, userId, taskId, MESSAGES.multiReference.failed);
  const images = generatedMediaOf(task).sort(
    (a, b) => Number(a.metadata.variationIndex ?? 0) - Number(b.metadata.variationIndex ?? 0),
  );
  const first = images[0];
  const done = task.status === 'completed' && first !== undefined;
  return {
    success: true,
    data: {
      status: done ? 'completed' : 'processing',
      taskId: task.id,
      url: first?.url ?? null,
      id: first?.id ?? null,
      thumbnail_url: first?.thumbnail_url ?? null,
      width: first?.width ?? null,
      height: first?.height ?? null,
      images,
      metadata: {
        generator: model,
        blendMode: body.blendMode,
        strength: body.strength,
        compositionMode: body.compositionMode,
        referenceCount: body.referenceImages.length,
        weights: body.referenceImages.map((r) => r.weight),
      },
    },
    creditsUsed: credits,
  };
}
