import sharp from 'sharp';
import { z } from 'zod';
import { CANVAS_IMAGES } from '../../../common/api/canvas-images.constants.ts';
import { imageDimensions } from '../../../common/rules/pricing.ts';
import type { AppContext } from '../../context.ts';
import type { EngineMetadata, ImageResult, MediaBuffer } from '../../engines/types.ts';
import { defineTask, PermanentTaskError } from '../../platform/jobs/types.ts';
import { resolveMediaInput } from '../../platform/media/inputs.ts';
import { assetsOfTask } from '../assets/service.ts';
import {
  assertDecodableImage,
  type GeneratedFile,
  type ProgressSink,
  progressSink,
  saveOutputs,
  toGeneratedMedia,
} from '../generation/outputs.ts';

// One task kind for the canvas image calls: a NanoBana edit, a composition of several images, and
// the multi-composition reference chain (each step inpaints its rectangular region of the previous
// step's output). Outputs are saved as image assets with the canvas metadata keys in one go; an
// attempt that finds the assets of an earlier attempt returns them.

export const CANVAS_IMAGE_KIND = 'canvas.image';
const MB = 1024 * 1024;
const QUALITY_SIDE = { '1k': 1024, '2k': 2048, '4k': 3840 } as const;

const region = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
type Region = z.infer<typeof region>;

const common = {
  prompt: z.string(),
  model: z.string(),
  personaId: z.string().nullable(),
  fileNamePrefix: z.string().nullable(),
  /** Credits recorded on each output asset. */
  creditsEach: z.number().int().min(0),
};

const taskInput = z.discriminatedUnion('operation', [
  z.object({
    operation: z.literal('edit'),
    ...common,
    image: z.string(),
    quality: z.enum(['1k', '2k', '4k']),
  }),
  z.object({
    operation: z.literal('compose'),
    ...common,
    tool: z.enum(['multi-image-composition', 'advanced-composition']),
    images: z.array(z.string()).min(1),
    aspectRatio: z.string().nullable(),
  }),
  z.object({
    operation: z.literal('multi-composition'),
    ...common,
    base: z.string(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    steps: z
      .array(
        z.object({
          id: z.string(),
          prompt: z.string(),
          region,
          reference: z.string().nullable(),
          referenceName: z.string().nullable(),
        }),
      )
      .min(1),
    consistencyStrength: z.number().min(0).max(1),
    preserveOriginal: z.boolean(),
  }),
]);
export type CanvasImageTaskInput = z.infer<typeof taskInput>;
type Input<Op extends CanvasImageTaskInput['operation']> = Extract<CanvasImageTaskInput, { operation: Op }>;

interface Run<Op extends CanvasImageTaskInput['operation']> {
  ctx: AppContext;
  userId: string;
  input: Input<Op>;
  signal: AbortSignal;
  progress: ProgressSink;
  editedAt: string;
}

async function loadImage(ctx: AppContext, userId: string, ref: string, signal: AbortSignal): Promise<MediaBuffer> {
  const media = await resolveMediaInput(ctx, userId, ref, {
    maxBytes: CANVAS_IMAGES.inputMaxMb * MB,
    maxStoredBytes: CANVAS_IMAGES.storedInputMaxMb * MB,
    allowed: ['image'],
    signal,
  });
  await assertDecodableImage(media);
  return media;
}

async function sizeOf(media: MediaBuffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(media.data).metadata();
  if (!meta.width || !meta.height) throw new PermanentTaskError('invalid_input', 'An input file could not be read');
  const rotated = (meta.orientation ?? 1) >= 5;
  return rotated ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/** Long side from the quality (capped by the model), shape from the given ratio or the image. */
function outputSize(
  ctx: AppContext,
  model: string,
  longSide: number,
  shape: { aspectRatio: string } | { width: number; height: number },
): { width: number; height: number } {
  const { capabilities } = ctx.engines.image(model);
  const side = Math.min(longSide, capabilities.maxWidth, capabilities.maxHeight);
  const aspectRatio = 'aspectRatio' in shape ? shape.aspectRatio : `${shape.width}:${shape.height}`;
  return imageDimensions({ size: `${side}x${side}`, aspectRatio });
}

const compact = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== null));

function file(result: ImageResult, metadata: Record<string, unknown>): GeneratedFile {
  const engine: EngineMetadata = result.metadata;
  return {
    type: 'image',
    media: { data: result.data, mimeType: result.mimeType },
    metadata: compact({ ...engine, width: result.width, height: result.height, ...metadata }),
  };
}

async function runEdit({ ctx, userId, input, signal, progress, editedAt }: Run<'edit'>): Promise<GeneratedFile[]> {
  const { engine } = ctx.engines.image(input.model);
  const image = await loadImage(ctx, userId, input.image, signal);
  await progress.set(10);
  const size = outputSize(ctx, input.model, QUALITY_SIDE[input.quality], await sizeOf(image));
  const result = await engine.edit(
    { model: input.model, prompt: input.prompt, image, ...size, outputFormat: 'png' },
    { signal, onProgress: progress.range(10, 90) },
  );
  return [
    file(result, {
      source: 'canvas-quick-edit',
      generator: 'nanobana',
      editingTool: 'nanobana-edit-image',
      editedAt,
      baseImageUrl: input.image,
      originalImageUrl: input.image,
      quality: input.quality,
      fileNamePrefix: input.fileNamePrefix,
    }),
  ];
}

async function runCompose({
  ctx,
  userId,
  input,
  signal,
  progress,
  editedAt,
}: Run<'compose'>): Promise<GeneratedFile[]> {
  const { engine } = ctx.engines.image(input.model);
  const images: MediaBuffer[] = [];
  for (const ref of input.images) images.push(await loadImage(ctx, userId, ref, signal));
  await progress.set(15);
  const first = images[0];
  if (!first) throw new PermanentTaskError('invalid_input', 'An input file could not be read');
  const size = outputSize(
    ctx,
    input.model,
    QUALITY_SIDE['2k'],
    input.aspectRatio ? { aspectRatio: input.aspectRatio } : await sizeOf(first),
  );
  const result = await engine.compose(
    {
      model: input.model,
      prompt: input.prompt,
      images: images.map((image, i) => ({ image, weight: 1, role: i === 0 ? 'base' : 'reference' })),
      ...size,
      blendMode: input.tool === 'advanced-composition' ? 'advanced-composition' : 'weighted',
      outputFormat: 'png',
    },
    { signal, onProgress: progress.range(15, 90) },
  );
  return [
    file(result, {
      source: 'canvas-composition',
      generator: 'nanobana',
      editingTool: input.tool,
      editedAt,
      baseImageUrl: input.images[0],
      sourceImageUrls: input.images,
      imageCount: input.images.length,
      aspectRatio: input.aspectRatio,
      fileNamePrefix: input.fileNamePrefix,
    }),
  ];
}

/** A PNG mask of the image's size: white inside the region (clipped to the image), black elsewhere. */
async function rectangleMask(width: number, height: number, r: Region): Promise<MediaBuffer> {
  const mask = Buffer.alloc(width * height);
  const x1 = Math.min(width, r.x + r.width);
  const y1 = Math.min(height, r.y + r.height);
  for (let y = r.y; y < y1; y++) mask.fill(255, y * width + r.x, y * width + x1);
  const data = await sharp(mask, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return { data, mimeType: 'image/png' };
}

async function runMultiComposition({
  ctx,
  userId,
  input,
  signal,
  progress,
  editedAt,
}: Run<'multi-composition'>): Promise<GeneratedFile[]> {
  const { engine } = ctx.engines.image(input.model);
  let current = await loadImage(ctx, userId, input.base, signal);
  const { width, height } = await sizeOf(current);
  if (width !== input.width || height !== input.height) {
    throw new PermanentTaskError('invalid_input', 'The base image changed while the composition was queued');
  }
  await progress.set(5);
  const span = 90 / input.steps.length;
  const files: GeneratedFile[] = [];
  for (const [index, step] of input.steps.entries()) {
    const from = 5 + span * index;
    const reference = step.reference ? await loadImage(ctx, userId, step.reference, signal) : undefined;
    const result = await engine.inpaint(
      {
        model: input.model,
        prompt: step.prompt,
        image: current,
        mask: await rectangleMask(width, height, step.region),
        // add-remove: a step that asks to remove (remove, erase, without…) fills its region from the
        // surroundings; any other prompt paints the region as inpaint does.
        mode: reference ? 'replace' : 'add-remove',
        reference,
        styleStrength: input.consistencyStrength,
        outputFormat: 'png',
      },
      { signal, onProgress: progress.range(from, from + span) },
    );
    files.push(
      file(result, {
        source: 'multi-composition',
        generator: 'nanobana',
        editingTool: 'multi-composition',
        editedAt,
        baseImageUrl: input.base,
        originalImageUrl: input.base,
        regionId: step.id,
        regionMask: step.region,
        stepIndex: index,
        stepCount: input.steps.length,
        referenceImageUrl: step.reference,
        referenceImageName: step.referenceName,
        mode: 'reference-chain',
        consistencyStrength: input.consistencyStrength,
        preserveOriginal: input.preserveOriginal,
        fileNamePrefix: input.fileNamePrefix,
      }),
    );
    current = { data: result.data, mimeType: result.mimeType };
    await progress.set(from + span);
  }
  return files;
}

export const canvasImageTask = defineTask({
  kind: CANVAS_IMAGE_KIND,
  input: taskInput,
  retryLimit: 1,
  retryDelaySeconds: 2,
  expireInSeconds: 600,
  async handler({ task, input, ctx, report, signal }) {
    const earlier = await assetsOfTask(ctx, task.userId, task.id);
    if (earlier.length > 0) return { assets: earlier.map(toGeneratedMedia) };
    const progress = progressSink(report);
    const run = { ctx, userId: task.userId, signal, progress, editedAt: ctx.clock.now().toISOString() };
    await progress.set(2);
    let files: GeneratedFile[];
    if (input.operation === 'edit') files = await runEdit({ ...run, input });
    else if (input.operation === 'compose') files = await runCompose({ ...run, input });
    else files = await runMultiComposition({ ...run, input });
    const rows = await saveOutputs(ctx, {
      userId: task.userId,
      taskId: task.id,
      personaId: input.personaId,
      prompt: input.prompt,
      service: 'nanobana',
      model: input.model,
      creditsEach: input.creditsEach,
      files,
      signal,
    });
    await progress.flush();
    return { assets: rows.map(toGeneratedMedia) };
  },
});
