import sharp from 'sharp';
import type { z } from 'zod';
import { CANVAS_IMAGES } from '../../../common/api/canvas-images.constants.ts';
import type {
  advancedCompositionBody,
  editImageBody,
  multiCompositionBody,
  multiCompositionReply,
  multiImageCompositionBody,
  nanobanaReply,
  textToImageBody,
  textToImageReply,
} from '../../../common/api/canvas-images.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { generateImageBody } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { canvasImagePrice } from '../../../common/rules/pricing.ts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { finishedTask, generatedMediaOf } from '../../platform/jobs/outcome.ts';
import type { TaskRow } from '../../platform/jobs/types.ts';
import { inlineOrMediaRef, prepareMediaRef, resolveMediaInput, storedKeyOf } from '../../platform/media/inputs.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { visiblePersona } from '../../platform/persona-access.ts';
import { startImageGeneration } from '../generation/service.ts';
import { CANVAS_IMAGE_KIND, type CanvasImageTaskInput } from './tasks.ts';

type EditBody = z.infer<typeof editImageBody>;
type MultiImageBody = z.infer<typeof multiImageCompositionBody>;
type AdvancedBody = z.infer<typeof advancedCompositionBody>;
type TextToImageBody = z.infer<typeof textToImageBody>;
type MultiCompositionBody = z.infer<typeof multiCompositionBody>;
type NanobanaReply = z.infer<typeof nanobanaReply>;

const MB = 1024 * 1024;
/** Inline data up to 10 MB; the user's own stored images by URL up to the image upload ceiling. */
const INPUT_LIMITS = { maxBytes: CANVAS_IMAGES.inputMaxMb * MB, maxStoredBytes: CANVAS_IMAGES.storedInputMaxMb * MB };

/**
 * Checks every input image (own media for owner, data for size and sniffed type: images only) and
 * stores data as temporary references; on any failure removes what it stored and rethrows.
 */
async function withInputs<T>(
  ctx: AppContext,
  userId: string,
  fn: (prepare: (ref: string) => Promise<string>) => Promise<T>,
): Promise<T> {
  const stored: string[] = [];
  try {
    return await fn(async (ref) => {
      const prepared = await prepareMediaRef(ctx, userId, ref, { ...INPUT_LIMITS, allowed: ['image'] });
      stored.push(...prepared.storedKeys);
      return prepared.ref;
    });
  } catch (error) {
    const store = new MediaStore(ctx);
    for (const key of stored) await store.delete(key).catch(() => undefined);
    throw error;
  }
}

interface Started {
  task: TaskRow;
  credits: number;
}

async function queue(
  ctx: AppContext,
  userId: string,
  input: CanvasImageTaskInput,
  credits: number,
  description: string,
  estimatedSeconds: number,
): Promise<Started> {
  const task = await ctx.jobs.createTask({
    userId,
    kind: CANVAS_IMAGE_KIND,
    input,
    credits,
    estimatedSeconds,
    description,
    generationType: 'image',
  });
  return { task, credits };
}

/** The reply of a quick single-image call: finished media, or the task still running. */
/**
 * The spec's image reply. Still processing (a busy machine can take longer than the request waits), it carries the
 * task id the web client then follows, and `metadata` names the engine and model making it already.
 */
export function imageReply(
  task: TaskRow,
  media: GeneratedMedia | undefined,
  credits: number,
  serving: { engine: string; model: string },
): NanobanaReply {
  const done = task.status === 'completed' && media !== undefined;
  return {
    success: true,
    data: {
      status: done ? 'completed' : 'processing',
      taskId: task.id,
      url: media?.url ?? null,
      id: media?.id ?? null,
      thumbnail_url: media?.thumbnail_url ?? null,
      width: media?.width ?? null,
      height: media?.height ?? null,
      fileName: media ? (media.url.split('/').pop()?.split('?')[0] ?? null) : null,
      mimeType: media ? 'image/png' : null,
      metadata: media?.metadata ?? { engine: serving.engine, model: serving.model },
    },
    creditsUsed: credits,
  };
}

/** The engine serving the canvas's model, named in replies while its work still runs. */
function servingCanvasModel(ctx: AppContext): { engine: string; model: string } {
  return { engine: ctx.engines.image(CANVAS_IMAGES.model).engine.name, model: CANVAS_IMAGES.model };
}

/** A persona id must name one the user may use (their own or a public one): 404 otherwise, before any spend. */
async function assertUsablePersona(ctx: AppContext, userId: string, personaId: string | undefined): Promise<void> {
  if (personaId) await visiblePersona(ctx, userId, personaId);
}

/** POST /api/nanobana/edit-image: the image edited by the prompt at the asked quality (NanoBana tops at 2K). */
export async function editImage(ctx: AppContext, userId: string, body: EditBody): Promise<NanobanaReply> {
  ctx.engines.checkPrompt(body.prompt);
  await assertUsablePersona(ctx, userId, body.personaId);
  ctx.engines.image(CANVAS_IMAGES.model);
  const credits = canvasImagePrice('edit', ctx.engines.prices('image', CANVAS_IMAGES.model));
  const started = await withInputs(ctx, userId, async (prepare) =>
    queue(
      ctx,
      userId,
      {
        operation: 'edit',
        prompt: body.prompt,
        model: CANVAS_IMAGES.model,
        personaId: body.personaId ?? null,
        fileNamePrefix: body.fileNamePrefix ?? null,
        creditsEach: credits,
        image: await prepare(inlineOrMediaRef(body.imageBuffer, body.imageMimeType)),
        quality: body.quality,
      },
      credits,
      'Canvas quick edit (nanobana)',
      3,
    ),
  );
  const task = await finishedTask(ctx, userId, started.task.id, MESSAGES.canvasImages.editFailed);
  return imageReply(task, generatedMediaOf(task)[0], credits, servingCanvasModel(ctx));
}

/** POST /api/nanobana/multi-image-composition and /api/nanobana/advanced-composition. */
export async function composeImages(
  ctx: AppContext,
  userId: string,
  body: (MultiImageBody & { tool: 'multi-image-composition' }) | (AdvancedBody & { tool: 'advanced-composition' }),
): Promise<NanobanaReply> {
  ctx.engines.checkPrompt(body.prompt);
  await assertUsablePersona(ctx, userId, body.personaId);
  ctx.engines.image(CANVAS_IMAGES.model);
  const credits = canvasImagePrice('compose', ctx.engines.prices('image', CANVAS_IMAGES.model));
  const mimeTypeOf = (i: number) =>
    body.tool === 'advanced-composition' ? (body.mimeTypes?.[i] ?? body.mimeTypes?.[0]) : body.imageMimeType;
  const started = await withInputs(ctx, userId, async (prepare) => {
    const images: string[] = [];
    for (const [i, image] of body.imageBuffers.entries())
      images.push(await prepare(inlineOrMediaRef(image, mimeTypeOf(i))));
    return queue(
      ctx,
      userId,
      {
        operation: 'compose',
        prompt: body.prompt,
        model: CANVAS_IMAGES.model,
        personaId: body.personaId ?? null,
        fileNamePrefix: body.fileNamePrefix ?? null,
        creditsEach: credits,
        tool: body.tool,
        images,
        aspectRatio: body.aspectRatio ?? null,
      },
      credits,
      `Canvas ${body.tool} (${images.length} images, nanobana)`,
      2 + images.length,
    );
  });
  const task = await finishedTask(ctx, userId, started.task.id, MESSAGES.canvasImages.compositionFailed);
  return imageReply(task, generatedMediaOf(task)[0], credits, servingCanvasModel(ctx));
}

async function readBase64(ctx: AppContext, url: string): Promise<string | null> {
  const key = storedKeyOf(ctx.config, url);
  if (!key) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.read(key)) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks).toString('base64');
}

/**
 * POST /api/nanobana/generate-text-to-image: the image generation (model nanobana, the shape of
 * aspectRatio at the quality's long side, priced from the one list) with the image also as base64.
 */
export async function textToImage(
  ctx: AppContext,
  userId: string,
  body: TextToImageBody,
): Promise<z.infer<typeof textToImageReply>> {
  await assertUsablePersona(ctx, userId, body.personaId);
  const started = await startImageGeneration(
    ctx,
    userId,
    generateImageBody.parse({
      prompt: body.prompt,
      model: CANVAS_IMAGES.model,
      aspectRatio: body.aspectRatio,
      sampleImageSize: body.quality.toUpperCase(),
      persona_id: body.personaId,
    }),
  );
  const task = await finishedTask(ctx, userId, started.task.id);
  const media = generatedMediaOf(task)[0];
  const reply = imageReply(task, media, started.credits, started);
  return { ...reply, data: { ...reply.data, base64: media ? await readBase64(ctx, media.url) : null } };
}

/**
 * POST /api/ai/generate/multi-composition: checks the base image and every region (in the base
 * image's pixels, within its bounds) and reference, reserves `compositionStep` per step (from the serving engine's price list) and
 * runs the reference chain; each step's output is an asset.
 */
export async function multiComposition(
  ctx: AppContext,
  userId: string,
  body: MultiCompositionBody,
): Promise<z.infer<typeof multiCompositionReply>> {
  for (const step of body.compositionSteps) ctx.engines.checkPrompt(step.prompt);
  await assertUsablePersona(ctx, userId, body.personaId);
  ctx.engines.image(CANVAS_IMAGES.model);
  const prices = ctx.engines.prices('image', CANVAS_IMAGES.model);
  const credits = canvasImagePrice('multi-composition', prices, body.compositionSteps.length);
  const started = await withInputs(ctx, userId, async (prepare) => {
    const base = await prepare(inlineOrMediaRef(body.baseImage));
    const media = await resolveMediaInput(ctx, userId, base, { ...INPUT_LIMITS, allowed: ['image'] });
    const meta = await sharp(media.data)
      .metadata()
      .catch(() => null);
    if (!meta?.width || !meta.height) throw new AppError(400, 'invalid_input', MESSAGES.inputs.unreadable);
    const rotated = (meta.orientation ?? 1) >= 5;
    const width = rotated ? meta.height : meta.width;
    const height = rotated ? meta.width : meta.height;
    const steps: Extract<CanvasImageTaskInput, { operation: 'multi-composition' }>['steps'] = [];
    for (const step of body.compositionSteps) {
      const r = step.regionMask;
      const region = {
        x: Math.floor(r.x),
        y: Math.floor(r.y),
        width: Math.max(1, Math.round(r.width)),
        height: Math.max(1, Math.round(r.height)),
      };
      if (region.x + region.width > width || region.y + region.height > height) {
        throw badRequest(MESSAGES.canvasImages.regionOutside(step.id, width, height), { regionMask: r });
      }
      steps.push({
        id: step.id,
        prompt: step.prompt,
        region,
        reference: step.referenceImage ? await prepare(inlineOrMediaRef(step.referenceImage)) : null,
        referenceName: step.referenceImageName ?? null,
      });
    }
    return queue(
      ctx,
      userId,
      {
        operation: 'multi-composition',
        prompt: body.compositionSteps.map((s) => s.prompt).join(' | '),
        model: CANVAS_IMAGES.model,
        personaId: body.personaId ?? null,
        fileNamePrefix: null,
        creditsEach: canvasImagePrice('multi-composition', prices, 1),
        base,
        width,
        height,
        steps,
        consistencyStrength: body.consistencyStrength,
        preserveOriginal: body.preserveOriginal,
      },
      credits,
      `Multi-composition (${steps.length} steps, nanobana)`,
      1 + steps.length * 2,
    );
  });
  const task = await finishedTask(ctx, userId, started.task.id, MESSAGES.canvasImages.compositionFailed);
  const media = generatedMediaOf(task).sort(
    (a, b) => Number(a.metadata.stepIndex ?? 0) - Number(b.metadata.stepIndex ?? 0),
  );
  const steps = media.map((m) => ({
    id: String(m.metadata.regionId ?? ''),
    outputImage: m.url,
    assetId: m.id,
    thumbnail_url: m.thumbnail_url,
  }));
  const input = task.input as Record<string, unknown>;
  return {
    success: true,
    data: {
      id: task.id,
      status: task.status === 'completed' ? 'completed' : 'processing',
      steps,
      finalImage: steps.at(-1)?.outputImage ?? null,
      assets: media,
      metadata: {
        mode: body.mode,
        stepCount: body.compositionSteps.length,
        maxSteps: body.maxSteps,
        consistencyStrength: body.consistencyStrength,
        preserveOriginal: body.preserveOriginal,
        baseImageUrl: input.base,
        width: input.width,
        height: input.height,
        generator: 'nanobana',
        taskId: task.id,
      },
    },
    creditsUsed: credits,
  };
}
