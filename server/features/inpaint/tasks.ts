import { z } from 'zod';
import { CANVAS_IMAGES } from '../../../common/api/canvas-images.constants.ts';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { EngineMetadata, MediaBuffer } from '../../engines/types.ts';
import { defineTask } from '../../platform/jobs/types.ts';
import { type MediaFormats, resolveMediaInput } from '../../platform/media/inputs.ts';
import { assetsOfTask } from '../assets/service.ts';
import { assertDecodableImage, progressSink, saveOutputs, toGeneratedMedia } from '../generation/outputs.ts';

// The Magic Selector task: one inpaint of the base image where the mask is white (black pixels are
// kept), with the reference for replace and style transfer. The output (PNG, so untouched pixels
// stay byte-identical) is saved as an image asset; an attempt that finds an earlier attempt's asset
// returns it.

export const INPAINT_KIND = 'inpaint.image';
const MB = 1024 * 1024;

const taskInput = z.object({
  model: z.string(),
  prompt: z.string(),
  mode: z.enum(MAGIC_SELECTOR.modes),
  quality: z.enum(MAGIC_SELECTOR.qualities),
  base: z.string(),
  mask: z.string(),
  reference: z.string().nullable(),
  /** 0–1 */
  styleStrength: z.number().min(0).max(1),
  personaId: z.string().nullable(),
  creditsEach: z.number().int().min(0),
});

/** Base and reference images: png, jpg, jpeg or webp (canvas spec, Magic Selector upload). */
export const MAGIC_SELECTOR_FORMATS: MediaFormats = {
  mimeTypes: MAGIC_SELECTOR.mimeTypes,
  message: MESSAGES.magicSelector.fileType,
};

async function loadImage(
  ctx: Parameters<typeof resolveMediaInput>[0],
  userId: string,
  ref: string,
  signal: AbortSignal,
  formats?: MediaFormats,
): Promise<MediaBuffer> {
  const media = await resolveMediaInput(ctx, userId, ref, {
    maxBytes: MAGIC_SELECTOR.inputMaxMb * MB,
    maxStoredBytes: CANVAS_IMAGES.storedInputMaxMb * MB,
    allowed: ['image'],
    formats,
    signal,
  });
  await assertDecodableImage(media);
  return { data: media.data, mimeType: media.mimeType };
}

export const inpaintTask = defineTask({
  kind: INPAINT_KIND,
  input: taskInput,
  retryLimit: 1,
  retryDelaySeconds: 2,
  expireInSeconds: 600,
  async handler({ task, input, ctx, report, signal }) {
    const earlier = await assetsOfTask(ctx, task.userId, task.id);
    if (earlier.length > 0) return { assets: earlier.map(toGeneratedMedia) };
    const progress = progressSink(report);
    await progress.set(2);
    const { engine } = ctx.engines.image(input.model);
    const image = await loadImage(ctx, task.userId, input.base, signal, MAGIC_SELECTOR_FORMATS);
    const mask = await loadImage(ctx, task.userId, input.mask, signal);
    const reference = input.reference
      ? await loadImage(ctx, task.userId, input.reference, signal, MAGIC_SELECTOR_FORMATS)
      : undefined;
    await progress.set(10);
    const result = await engine.inpaint(
      {
        model: input.model,
        prompt: input.prompt,
        image,
        mask,
        mode: input.mode,
        reference,
        styleStrength: input.styleStrength,
        quality: input.quality,
        outputFormat: 'png',
      },
      { signal, onProgress: progress.range(10, 90) },
    );
    const engineMeta: EngineMetadata = result.metadata;
    const metadata = Object.fromEntries(
      Object.entries({
        ...engineMeta,
        width: result.width,
        height: result.height,
        source: 'magic-selector',
        editingTool: 'magic-selector',
        editedAt: ctx.clock.now().toISOString(),
        baseImageUrl: input.base,
        originalImageUrl: input.base,
        referenceImageUrl: input.reference,
        mode: input.mode,
        quality: input.quality,
        styleStrength: input.styleStrength,
      }).filter(([, v]) => v !== undefined && v !== null),
    );
    const rows = await saveOutputs(ctx, {
      userId: task.userId,
      taskId: task.id,
      personaId: input.personaId,
      prompt: input.prompt,
      service: input.model,
      model: input.model,
      creditsEach: input.creditsEach,
      files: [{ type: 'image', media: { data: result.data, mimeType: result.mimeType }, metadata }],
      signal,
    });
    await progress.flush();
    return { assets: rows.map(toGeneratedMedia) };
  },
});
