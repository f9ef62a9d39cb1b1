import type { z } from 'zod';
import { UPLOAD_STORAGE_CEILINGS_MB, VIDEO_DEFAULTS } from '../../../common/api/generation.constants.ts';
import type {
  generateAudioBody,
  generateImageBody,
  generateVideoBody,
  imageAgentBody,
  imageAgentReply,
} from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { imageLimitError } from '../../../common/rules/generation.ts';
import { GENERATE_KINDS } from '../../../common/rules/generation-status.ts';
import {
  IMAGE_SIDE_LIMITS,
  imageCount,
  imageDimensions,
  imageUnitPrice,
  priceOf,
  videoWantsAudio,
} from '../../../common/rules/pricing.ts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { TaskRow } from '../../platform/jobs/types.ts';
import { type InputKind, prepareMediaRef } from '../../platform/media/inputs.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { chargedTextAgent } from '../../platform/metering/text-agents.ts';
import { planVideo, type VideoPlan, videoDimensions } from './plan.ts';
import type { AudioTaskInput, ImageTaskInput, VideoTaskInput } from './tasks.ts';

type ImageBody = z.infer<typeof generateImageBody>;
type VideoBody = z.infer<typeof generateVideoBody>;
type AudioBody = z.infer<typeof generateAudioBody>;

const MB = 1024 * 1024;
const INPUT_LIMITS: Record<InputKind, number> = {
  image: UPLOAD_STORAGE_CEILINGS_MB.image * MB,
  video: UPLOAD_STORAGE_CEILINGS_MB.video * MB,
  audio: UPLOAD_STORAGE_CEILINGS_MB.other * MB,
};
export interface StartedTask {
  task: TaskRow;
  /** Credits reserved for it. */
  credits: number;
  model: string;
  /** The engine serving the model ('local' for the local previews). */
  engine: string;
}

/** Prepares every reference of a request; on any failure removes what it stored and rethrows. */
class RefPreparer {
  readonly storedKeys: string[] = [];
  private readonly cache = new Map<string, string>();
  constructor(
    private readonly ctx: AppContext,
    private readonly userId: string,
  ) {}

  async one(ref: string, kind: InputKind): Promise<string> {
    const cached = this.cache.get(ref);
    if (cached) return cached;
    const prepared = await prepareMediaRef(this.ctx, this.userId, ref, {
      maxBytes: INPUT_LIMITS[kind],
      allowed: [kind],
    });
    this.storedKeys.push(...prepared.storedKeys);
    this.cache.set(ref, prepared.ref);
    return prepared.ref;
  }

  async maybe(ref: string | null, kind: InputKind): Promise<string | null> {
    return ref ? this.one(ref, kind) : null;
  }

  async many(refs: readonly string[], kind: InputKind): Promise<string[]> {
    const out: string[] = [];
    for (const ref of refs) out.push(await this.one(ref, kind));
    return [...new Set(out)];
  }

  async discard(): Promise<void> {
    const store = new MediaStore(this.ctx);
    for (const key of this.storedKeys) await store.delete(key).catch(() => undefined);
  }
}

/** Runs `fn` with a preparer; stored references are removed again if the task is not created. */
async function withPreparer<T>(ctx: AppContext, userId: string, fn: (p: RefPreparer) => Promise<T>): Promise<T> {
  const preparer = new RefPreparer(ctx, userId);
  try {
    return await fn(preparer);
  } catch (error) {
    await preparer.discard();
    throw error;
  }
}

function assertImageLimit(model: string, count: number): void {
  const message = imageLimitError(model, count);
  if (message) throw new AppError(400, 'image_limit_exceeded', message, { model, count });
}

/**
 * Checks an image request (prompt policy, model, image limit, size), reserves its price and queues
 * it. Nothing is spent when a check fails; 402 when the balance is short.
 */
export async function startImageGeneration(ctx: AppContext, userId: string, body: ImageBody): Promise<StartedTask> {
  ctx.engines.checkPrompt(body.prompt);
  const { capabilities, engine } = ctx.engines.image(body.model);
  const refs = body.referenceImages ?? [];
  const chars = body.characterImages ?? [];
  assertImageLimit(body.model, refs.length + chars.length);
  const { width, height } = imageDimensions(body);
  const max = Math.min(IMAGE_SIDE_LIMITS.max, capabilities.maxWidth, capabilities.maxHeight);
  if (Math.min(width, height) < IMAGE_SIDE_LIMITS.min || Math.max(width, height) > max) {
    throw badRequest(MESSAGES.generation.imageSizeOutOfRange(IMAGE_SIDE_LIMITS.min, max), { width, height });
  }
  const count = imageCount(body);
  const prices = ctx.engines.prices('image', body.model);
  const unitPrice = imageUnitPrice(body, prices);
  const credits = priceOf('image', body, prices);
  return withPreparer(ctx, userId, async (prep) => {
    const references = await prep.many([...refs, ...chars], 'image');
    const input: ImageTaskInput = {
      params: { ...body, referenceImages: undefined, characterImages: undefined },
      references,
      width,
      height,
      count,
      unitPrice,
    };
    const long = Math.max(width, height);
    const task = await ctx.jobs.createTask({
      userId,
      kind: GENERATE_KINDS.image,
      input,
      credits,
      estimatedSeconds: count * (long > 2048 ? 4 : 1) + 1,
      description: `Image generation (${count} × ${width}x${height}, ${body.model})`,
      generationType: 'image',
    });
    return { task, credits, model: body.model, engine: engine.name };
  });
}

export interface VideoStartOptions {
  /** A price other than the list's, e.g. `personaVideo` for a persona's own video (from ctx.engines.prices). */
  credits?: number;
  generationType?: string;
  description?: string;
}

/** Checks a video request (policy, model, mode inputs, image limit), reserves its price and queues it. */
export async function startVideoGeneration(
  ctx: AppContext,
  userId: string,
  body: VideoBody,
  options: VideoStartOptions = {},
): Promise<StartedTask> {
  ctx.engines.checkPrompt(body.prompt);
  const { capabilities, engine } = ctx.engines.video(body.model);
  const raw = planVideo(body);
  assertImageLimit(body.model, raw.limitCount);
  const { width, height } = videoDimensions(body.aspectRatio, body.resolution);
  const generateAudio = videoWantsAudio(body) && capabilities.supportsAudio;
  const credits = options.credits ?? priceOf('video', body, ctx.engines.prices('video', body.model));
  return withPreparer(ctx, userId, async (prep) => {
    const plan: Omit<VideoPlan, 'limitCount'> = {
      mode: raw.mode,
      video: await prep.maybe(raw.video, 'video'),
      character: await prep.maybe(raw.character, 'image'),
      firstFrame: await prep.maybe(raw.firstFrame, 'image'),
      lastFrame: await prep.maybe(raw.lastFrame, 'image'),
      references: await prep.many(raw.references, 'image'),
    };
    const input: VideoTaskInput = {
      params: {
        ...body,
        videoUri: undefined,
        inputImage: undefined,
        lastFrameImage: undefined,
        referenceImages: undefined,
        characterImages: undefined,
        character_images: undefined,
        product_images: undefined,
      },
      plan,
      width,
      height,
      fps: body.fps ?? VIDEO_DEFAULTS.fps,
      generateAudio,
      price: credits,
    };
    const task = await ctx.jobs.createTask({
      userId,
      kind: GENERATE_KINDS.video,
      input,
      credits,
      estimatedSeconds: Math.round(5 + body.duration * 1.5),
      description: options.description ?? `Video generation (${body.duration} s, ${body.model})`,
      generationType: options.generationType ?? 'video',
    });
    return { task, credits, model: body.model, engine: engine.name };
  });
}

/** Checks an audio request (policy, model), reserves its price and queues it. */
export async function startAudioGeneration(ctx: AppContext, userId: string, body: AudioBody): Promise<StartedTask> {
  ctx.engines.checkPrompt(body.prompt);
  const { engine } = ctx.engines.audio(body.model);
  const credits = priceOf('audio', body, ctx.engines.prices('audio', body.model));
  const input: AudioTaskInput = { params: body, price: credits };
  const task = await ctx.jobs.createTask({
    userId,
    kind: GENERATE_KINDS.audio,
    input,
    credits,
    estimatedSeconds: body.type === 'voice' ? 2 : Math.round(2 + body.duration / 10),
    description: `${body.type === 'voice' ? 'Voice' : 'Music'} generation (${body.model})`,
    generationType: 'audio',
  });
  return { task, credits, model: body.model, engine: engine.name };
}

const analysisJson = {
  name: 'prompt_enhancement',
  schema: {
    type: 'object',
    properties: {
      enhanced_prompt: { type: 'string' },
      subject: { type: 'string' },
      style: { type: ['string', 'null'] },
      mood: { type: ['string', 'null'] },
      additions: { type: 'array', items: { type: 'string' } },
    },
    required: ['enhanced_prompt'],
  },
};

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * POST /api/ai/image-agent: a richer prompt from the configured text engine. The prompt and the
 * enhanced prompt both pass the content policy. Free on the local writer; TEXT_AGENTS.creditsPerCall
 * when a vendor LLM writes (refunded on failure).
 */
export async function enhanceImagePrompt(
  ctx: AppContext,
  userId: string,
  body: z.infer<typeof imageAgentBody>,
  signal?: AbortSignal,
): Promise<z.infer<typeof imageAgentReply>> {
  ctx.engines.checkPrompt(body.prompt);
  return chargedTextAgent(ctx, { userId, agent: 'image-agent', label: 'Image agent' }, () =>
    writeEnhancedPrompt(ctx, body, signal),
  );
}

async function writeEnhancedPrompt(
  ctx: AppContext,
  body: z.infer<typeof imageAgentBody>,
  signal?: AbortSignal,
): Promise<z.infer<typeof imageAgentReply>> {
  const { engine } = ctx.engines.text();
  const result = await engine.complete(
    {
      purpose: 'prompt-enhancement',
      system:
        'You improve prompts for an image generator. Keep the subject, add concrete visual detail (composition, lighting, lens, palette), honour the style. Answer with JSON.',
      prompt: body.prompt,
      jsonSchema: analysisJson,
      context: { kind: 'image', style: body.style ?? null, context: body.context ?? null },
    },
    { signal },
  );
  const json = typeof result.json === 'object' && result.json !== null ? (result.json as Record<string, unknown>) : {};
  const enhancedPrompt = str(json.enhanced_prompt) ?? str(json.enhancedPrompt) ?? str(result.text) ?? body.prompt;
  ctx.engines.checkPrompt(enhancedPrompt);
  const original = new Set(words(body.prompt.toLowerCase()));
  const additions = Array.isArray(json.additions)
    ? json.additions.filter((a): a is string => typeof a === 'string')
    : enhancedPrompt
        .split(',')
        .map((part) => part.trim())
        .filter(
          (part) => part && words(part.toLowerCase()).some((w) => !original.has(w)) && !body.prompt.includes(part),
        );
  return {
    success: true,
    enhancedPrompt,
    analysis: {
      subject: str(json.subject) ?? words(body.prompt).slice(0, 12).join(' '),
      style: str(json.style) ?? body.style ?? null,
      mood: str(json.mood),
      wordCount: words(enhancedPrompt).length,
      additions,
      engine: result.metadata.engine,
    },
  };
}
