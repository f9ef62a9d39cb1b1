import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { UPLOAD_STORAGE_CEILINGS_MB, UPSCALE_TARGET } from '../../../common/api/generation.constants.ts';
import { generateAudioBody, generateImageBody, generateVideoBody } from '../../../common/api/generation.ts';
import { withQualitySuffix } from '../../../common/rules/generation.ts';
import { GENERATE_KINDS } from '../../../common/rules/generation-status.ts';
import type { AppContext } from '../../context.ts';
import type {
  AudioResult,
  EngineMetadata,
  ImageResult,
  MediaBuffer,
  ProgressCallback,
  VideoResult,
} from '../../engines/types.ts';
import { defineTask, type TaskRow } from '../../platform/jobs/types.ts';
import { resolveMediaInput } from '../../platform/media/inputs.ts';
import { assetsOfTask } from '../assets/service.ts';
import {
  assertDecodableImage,
  assertDecodableVideo,
  type GeneratedFile,
  type ProgressSink,
  progressSink,
  type SaveOutputsInput,
  saveOutputs,
  toGeneratedMedia,
} from './outputs.ts';
import { serviceOf } from './plan.ts';

// The three generation task kinds. Each resolves its inputs, calls the engine with progress
// reporting, stores the outputs with thumbnails and saves them as assets in one go. A retried
// attempt that finds the assets of an earlier attempt returns them instead of generating again.

const MB = 1024 * 1024;
const IMAGE_INPUT_MAX_BYTES = UPLOAD_STORAGE_CEILINGS_MB.image * MB;
const VIDEO_INPUT_MAX_BYTES = UPLOAD_STORAGE_CEILINGS_MB.video * MB;
const SEED_RANGE = 2_147_483_647;

const imageTaskInput = z.object({
  params: generateImageBody,
  /** Reference and character images, already checked by the route. */
  references: z.array(z.string()),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  count: z.number().int().min(1),
  unitPrice: z.number().int().min(0),
});
export type ImageTaskInput = z.infer<typeof imageTaskInput>;

const VIDEO_MODES = ['magic-modify', 'act-studio', 'first-last-frame', 'image-to-video', 'text-to-video'] as const;
const videoTaskInput = z.object({
  /** The request without its media fields (those are in `plan`). */
  params: generateVideoBody,
  plan: z.object({
    mode: z.enum(VIDEO_MODES),
    video: z.string().nullable(),
    character: z.string().nullable(),
    firstFrame: z.string().nullable(),
    lastFrame: z.string().nullable(),
    references: z.array(z.string()),
  }),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  fps: z.number().int().positive(),
  generateAudio: z.boolean(),
  price: z.number().int().min(0),
});
export type VideoTaskInput = z.infer<typeof videoTaskInput>;

const audioTaskInput = z.object({ params: generateAudioBody, price: z.number().int().min(0) });
export type AudioTaskInput = z.infer<typeof audioTaskInput>;

const loader = (ctx: AppContext, userId: string, signal: AbortSignal) => ({
  async image(ref: string): Promise<MediaBuffer> {
    const media = await resolveMediaInput(ctx, userId, ref, {
      maxBytes: IMAGE_INPUT_MAX_BYTES,
      allowed: ['image'],
      signal,
    });
    await assertDecodableImage(media);
    return media;
  },
  async video(ref: string): Promise<MediaBuffer> {
    const media = await resolveMediaInput(ctx, userId, ref, {
      maxBytes: VIDEO_INPUT_MAX_BYTES,
      allowed: ['video'],
      signal,
    });
    await assertDecodableVideo(ctx, media, signal);
    return media;
  },
});

const compact = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== null));

/** An engine's output as a file to save: the engine's metadata, then `details`, without empty values. */
function generatedFile(
  type: GeneratedFile['type'],
  result: MediaBuffer & { metadata: EngineMetadata },
  details: Record<string, unknown>,
): GeneratedFile {
  return {
    type,
    media: { data: result.data, mimeType: result.mimeType },
    metadata: compact({ ...result.metadata, ...details }),
  };
}

/** How a request's outputs are recorded on their assets. */
const recordedAs = (params: { persona_id?: string; service?: string; prompt: string; model: string }) => ({
  personaId: params.persona_id ?? null,
  prompt: params.prompt,
  service: params.service ?? serviceOf(params.model),
  model: params.model,
});

interface GenerationRun<Input> {
  task: TaskRow;
  input: Input;
  ctx: AppContext;
  signal: AbortSignal;
  progress: ProgressSink;
}

/**
 * A generation task kind, retried once. An attempt that finds the assets of an earlier attempt returns
 * them; otherwise `generate` makes the outputs and they are saved as assets in one go.
 */
function defineGenerationTask<Input>(definition: {
  kind: string;
  input: z.ZodType<Input>;
  retryDelaySeconds: number;
  expireInSeconds: number;
  generate(run: GenerationRun<Input>): Promise<Omit<SaveOutputsInput, 'userId' | 'taskId' | 'signal'>>;
}) {
  const { kind, input, retryDelaySeconds, expireInSeconds, generate } = definition;
  return defineTask({
    kind,
    input,
    retryLimit: 1,
    retryDelaySeconds,
    expireInSeconds,
    async handler({ task, input, ctx, report, signal }) {
      const earlier = await assetsOfTask(ctx, task.userId, task.id);
      if (earlier.length > 0) return { assets: earlier.map(toGeneratedMedia) };
      const progress = progressSink(report);
      const outputs = await generate({ task, input, ctx, signal, progress });
      const rows = await saveOutputs(ctx, { userId: task.userId, taskId: task.id, ...outputs, signal });
      await progress.flush();
      return { assets: rows.map(toGeneratedMedia) };
    },
  });
}

const AUTO_UPSCALE_SERVICE = 'image-upscaler';

/** autoUpscale: the generated image brought to 4K by its long side (the image-upscaler service). */
async function upscaleTo4k(
  ctx: AppContext,
  image: ImageResult,
  signal: AbortSignal,
  onProgress: ProgressCallback,
): Promise<ImageResult> {
  const { engine } = ctx.engines.upscale(AUTO_UPSCALE_SERVICE);
  const upscaled = await engine.image(
    {
      model: AUTO_UPSCALE_SERVICE,
      image,
      targetWidth: UPSCALE_TARGET.width,
      targetHeight: UPSCALE_TARGET.height,
    },
    { signal, onProgress },
  );
  return { ...upscaled, seed: image.seed, metadata: { ...image.metadata, upscale: upscaled.metadata } };
}

export const generateImageTask = defineGenerationTask({
  kind: GENERATE_KINDS.image,
  input: imageTaskInput,
  retryDelaySeconds: 2,
  expireInSeconds: 600,
  async generate({ task, input, ctx, signal, progress }) {
    const { params } = input;
    const { engine, capabilities } = ctx.engines.image(params.model);
    await progress.set(3);
    const load = loader(ctx, task.userId, signal);
    const references: MediaBuffer[] = [];
    for (const ref of input.references.slice(0, capabilities.maxReferenceImages))
      references.push(await load.image(ref));
    await progress.set(8);

    const prompt = withQualitySuffix(params.prompt);
    const span = 82 / input.count;
    const files: GeneratedFile[] = [];
    for (let i = 0; i < input.count; i++) {
      const seed = params.seed !== undefined ? params.seed + i : randomInt(SEED_RANGE);
      const from = 8 + span * i;
      const generated = await engine.textToImage(
        {
          model: params.model,
          prompt,
          negativePrompt: params.negativePrompt,
          width: input.width,
          height: input.height,
          style: params.style,
          quality: params.quality,
          seed,
          referenceImages: references.length > 0 ? references : undefined,
        },
        { signal, onProgress: progress.range(from, from + (params.autoUpscale ? span / 2 : span)) },
      );
      const result = params.autoUpscale
        ? await upscaleTo4k(ctx, generated, signal, progress.range(from + span / 2, from + span))
        : generated;
      files.push(
        generatedFile('image', result, {
          ...(params.autoUpscale
            ? { autoUpscaled: true, generatedWidth: generated.width, generatedHeight: generated.height }
            : {}),
          width: result.width,
          height: result.height,
          seed: result.seed ?? seed,
          variation: i + 1,
          variations: input.count,
          style: params.style,
          quality: params.quality,
          aspectRatio: params.aspectRatio,
          sampleImageSize: params.sampleImageSize,
          negativePrompt: params.negativePrompt,
          referenceCount: references.length,
        }),
      );
      await progress.set(from + span);
    }
    return { ...recordedAs(params), creditsEach: input.unitPrice, files };
  },
});

export const generateVideoTask = defineGenerationTask({
  kind: GENERATE_KINDS.video,
  input: videoTaskInput,
  retryDelaySeconds: 3,
  expireInSeconds: 900,
  async generate({ task, input, ctx, signal, progress }) {
    const { params, plan } = input;
    const { engine, capabilities } = ctx.engines.video(params.model);
    await progress.set(2);
    const load = loader(ctx, task.userId, signal);
    const sourceVideo = plan.video ? await load.video(plan.video) : undefined;
    const character = plan.character ? await load.image(plan.character) : undefined;
    const firstFrame = plan.firstFrame ? await load.image(plan.firstFrame) : undefined;
    const lastFrame = plan.lastFrame ? await load.image(plan.lastFrame) : undefined;
    const references: MediaBuffer[] = [];
    for (const ref of plan.references.slice(0, capabilities.maxReferenceImages)) references.push(await load.image(ref));
    await progress.set(8);

    const options = { signal, onProgress: progress.range(8, 88) };
    const base = {
      model: params.model,
      prompt: withQualitySuffix(params.prompt),
      negativePrompt: params.negativePrompt,
      durationSeconds: params.duration,
      width: input.width,
      height: input.height,
      fps: input.fps,
      generateAudio: input.generateAudio,
      style: params.style,
      referenceImages: references.length > 0 ? references : undefined,
    };
    let result: VideoResult;
    if (plan.mode === 'magic-modify' && sourceVideo) {
      result = await engine.videoToVideo(
        {
          model: params.model,
          prompt: base.prompt,
          video: sourceVideo,
          reference: references[0],
          width: input.width,
          height: input.height,
        },
        options,
      );
    } else if (plan.mode === 'act-studio' && sourceVideo && character) {
      result = await engine.characterPerformance(
        { model: params.model, character, reference: sourceVideo, width: input.width, height: input.height },
        options,
      );
    } else if (firstFrame) {
      result = await engine.imageToVideo({ ...base, image: firstFrame, lastFrame }, options);
    } else {
      result = await engine.textToVideo(base, options);
    }
    await progress.set(90);
    return {
      ...recordedAs(params),
      creditsEach: input.price,
      files: [
        generatedFile('video', result, {
          width: result.width,
          height: result.height,
          duration: result.durationSeconds,
          fps: result.fps,
          hasAudio: result.hasAudio,
          mode: plan.mode,
          aspectRatio: params.aspectRatio,
          resolution: params.resolution,
          style: params.style,
          quality: params.quality,
          creativity: params.creativity,
          negativePrompt: params.negativePrompt,
          personGeneration: params.personGeneration,
          // The spec's clients read either spelling.
          sequenceItemId: params.itemId,
          sequence_item_id: params.itemId,
          original_prompt: params.original_prompt,
        }),
      ],
    };
  },
});

export const generateAudioTask = defineGenerationTask({
  kind: GENERATE_KINDS.audio,
  input: audioTaskInput,
  retryDelaySeconds: 2,
  expireInSeconds: 600,
  async generate({ input, ctx, signal, progress }) {
    const { params } = input;
    const { engine } = ctx.engines.audio(params.model);
    await progress.set(5);
    const options = { signal, onProgress: progress.range(5, 88) };
    const instruments =
      typeof params.instruments === 'string'
        ? params.instruments
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : params.instruments;
    const result: AudioResult =
      params.type === 'voice'
        ? await engine.voice({ model: params.model, text: params.prompt, voice: params.voice }, options)
        : await engine.music(
            {
              model: params.model,
              prompt: params.prompt,
              durationSeconds: params.duration,
              genre: params.genre,
              mood: params.mood,
              instruments,
            },
            options,
          );
    await progress.set(90);
    return {
      ...recordedAs(params),
      creditsEach: input.price,
      files: [
        generatedFile('audio', result, {
          duration: result.durationSeconds,
          audioType: params.type,
          genre: params.genre,
          mood: params.mood,
          instruments,
          voice: params.voice,
        }),
      ],
    };
  },
});
