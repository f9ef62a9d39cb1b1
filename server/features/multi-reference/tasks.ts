import { z } from 'zod';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { imageDimensions } from '../../../common/rules/pricing.ts';
import type { AppContext } from '../../context.ts';
import type { MediaBuffer } from '../../engines/types.ts';
import { defineTask } from '../../platform/jobs/types.ts';
import { resolveMediaInput } from '../../platform/media/inputs.ts';
import { assetsOfTask } from '../assets/service.ts';
import {
  assertDecodableImage,
  type GeneratedFile,
  progressSink,
  saveOutputs,
  toGeneratedMedia,
} from '../generation/outputs.ts';

// One task per multi-reference call: loads the references, blends them by weight with the image
// engine's compose (the prompt and strength on top), once per asked image, and saves the outputs as
// image assets. An attempt that finds the assets of an earlier attempt returns them.

export const MULTI_REFERENCE_KIND = 'multi-reference.image';
const MB = 1024 * 1024;
const QUALITY_SIDE = { draft: 768, standard: 1024, premium: 2048 } as const;

const taskInput = z.object({
  model: z.string(),
  prompt: z.string(),
  negativePrompt: z.string().nullable(),
  references: z
    .array(
      z.object({
        url: z.string(),
        weight: z.number().min(0).max(1),
        type: z.string(),
        description: z.string().nullable(),
      }),
    )
    .min(1),
  blendMode: z.string(),
  strength: z.number().min(0).max(1),
  numImages: z.number().int().min(1),
  aspectRatio: z.string(),
  quality: z.enum(MULTI_REFERENCE.qualities),
  compositionMode: z.string(),
  preserveDetails: z.boolean(),
  seed: z.number().int().nullable(),
  personaId: z.string().nullable(),
  creditsEach: z.number().int().min(0),
});
export type MultiReferenceTaskInput = z.infer<typeof taskInput>;

async function loadImage(ctx: AppContext, userId: string, ref: string, signal: AbortSignal): Promise<MediaBuffer> {
  const media = await resolveMediaInput(ctx, userId, ref, {
    maxBytes: MULTI_REFERENCE.imageMaxMb * MB,
    allowed: ['image'],
    signal,
  });
  await assertDecodableImage(media);
  return media;
}

export const multiReferenceTask = defineTask({
  kind: MULTI_REFERENCE_KIND,
  input: taskInput,
  retryLimit: 1,
  retryDelaySeconds: 2,
  expireInSeconds: 600,
  async handler({ task, input, ctx, report, signal }) {
    const earlier = await assetsOfTask(ctx, task.userId, task.id);
    if (earlier.length > 0) return { assets: earlier.map(toGeneratedMedia) };
    const progress = progressSink(report);
    await progress.set(2);
    const { engine, capabilities } = ctx.engines.image(input.model);
    const images: MediaBuffer[] = [];
    for (const ref of input.references) images.push(await loadImage(ctx, task.userId, ref.url, signal));
    await progress.set(15);
    const side = Math.min(QUALITY_SIDE[input.quality], capabilities.maxWidth, capabilities.maxHeight);
    const size = imageDimensions({ size: `${side}x${side}`, aspectRatio: input.aspectRatio });
    const guidance = input.references
      .map((r) => (r.description ? `${r.type}: ${r.description}` : null))
      .filter((v): v is string => v !== null);
    const prompt = [input.prompt, ...guidance].join('. ');
    const span = 75 / input.numImages;
    const editedAt = ctx.clock.now().toISOString();
    const files: GeneratedFile[] = [];
    for (let i = 0; i < input.numImages; i++) {
      const from = 15 + span * i;
      const result = await engine.compose(
        {
          model: input.model,
          prompt,
          images: images.map((image, j) => ({
            image,
            weight: input.references[j]?.weight ?? 0.5,
            role: input.references[j]?.type,
          })),
          ...size,
          seed: input.seed === null ? undefined : input.seed + i,
          blendMode: input.blendMode,
          strength: input.strength,
          negativePrompt: input.negativePrompt ?? undefined,
          compositionMode: input.compositionMode,
          preserveDetails: input.preserveDetails,
          outputFormat: 'png',
        },
        { signal, onProgress: progress.range(from, from + span) },
      );
      files.push({
        type: 'image',
        media: { data: result.data, mimeType: result.mimeType },
        metadata: {
          ...result.metadata,
          width: result.width,
          height: result.height,
          source: 'multi-reference',
          editingTool: 'multi-reference',
          editedAt,
          negativePrompt: input.negativePrompt ?? undefined,
          referenceImages: input.references,
          blendMode: input.blendMode,
          strength: input.strength,
          aspectRatio: input.aspectRatio,
          quality: input.quality,
          compositionMode: input.compositionMode,
          preserveDetails: input.preserveDetails,
          seed: input.seed === null ? undefined : input.seed + i,
          variationIndex: i,
        },
      });
    }
    const rows = await saveOutputs(ctx, {
      userId: task.userId,
      taskId: task.id,
      personaId: input.personaId,
      prompt: input.prompt,
      service: input.model,
      model: input.model,
      creditsEach: input.creditsEach,
      files,
      signal,
    });
    await progress.flush();
    return { assets: rows.map(toGeneratedMedia) };
  },
});
