import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { z } from 'zod';
import { ENHANCOR_KINDS, UPSCALE_TARGET } from '../../../common/api/generation.constants.ts';
import { VIDEO_ENHANCE } from '../../../common/api/uploads.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { EngineMetadata } from '../../engines/types.ts';
import { AppError } from '../../platform/errors.ts';
import { defineTask, PermanentTaskError, type TaskRow } from '../../platform/jobs/types.ts';
import { extensionOf } from '../../platform/media/inputs.ts';
import { withLocalFile } from '../../platform/media/local-file.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { ObjectNotFoundError } from '../../platform/storage/types.ts';
import {
  type AssetRow,
  assetsOfTask,
  createAsset,
  makeThumbnail,
  replaceAssetFile,
  toAssetDto,
  updateAsset,
} from '../assets/service.ts';

export const UPSCALE_IMAGE_KIND = 'upscale.image';
export const UPSCALE_VIDEO_KIND = 'upscale.video';
/** The engine service that upscales video (the Topaz adapter when configured, else the local engine). */
export const VIDEO_UPSCALE_SERVICE = VIDEO_ENHANCE.service;

const common = {
  /** The stored source (own media, or a fetched/decoded copy kept as `enhancement_source`). */
  sourceKey: z.string().min(1),
  /** The URL the user gave, kept in the metadata as `enhanced_from`. */
  sourceUrl: z.string(),
  originalAssetId: z.uuid().optional(),
  /** Whether the asset was already serving an enhanced file before this run (restored on failure). */
  previouslyReplaced: z.boolean().optional(),
};

const imageInput = z.object({
  ...common,
  service: z.enum(ENHANCOR_KINDS),
  mode: z.string().optional(),
  enhancementLevel: z.number().min(0).max(1).optional(),
});

const videoInput = z.object({
  ...common,
  model: z.string(),
  option: z.string(),
  category: z.enum(VIDEO_ENHANCE.categories),
  quality: z.enum(VIDEO_ENHANCE.qualities),
  scale: z.number().int().min(1).max(4).nullable(),
  fps: z.number().int().positive().nullable(),
  interpolation: z.enum(['blend', 'motion']),
  denoise: z.number().min(0).max(1),
  sharpen: z.number().min(0).max(1),
  enhance: z.number().min(0).max(1),
});
type VideoInput = z.infer<typeof videoInput>;

interface EnhancementResult {
  asset_id: string;
  url: string;
  thumbnail_url: string | null;
  width: number;
  height: number;
  /** True when the original asset now serves the enhanced file; false when a new asset was made. */
  replaced: boolean;
  [key: string]: unknown;
}

interface StoredOutput {
  key: string;
  url: string;
  contentType: string;
  thumbnailKey: string | null;
}

/** The source's bytes; a source that has disappeared fails the task at once. */
async function readSource<T>(
  ctx: AppContext,
  key: string,
  signal: AbortSignal,
  fn: (file: string) => Promise<T>,
): Promise<T> {
  try {
    return await withLocalFile(ctx.storage, key, fn, signal);
  } catch (error) {
    if (error instanceof ObjectNotFoundError || (error as { code?: string }).code === 'ENOENT') {
      throw new PermanentTaskError('source_missing', MESSAGES.inputs.unreadable);
    }
    throw error;
  }
}

async function storeOutput(
  ctx: AppContext,
  task: TaskRow,
  data: Buffer,
  contentType: string,
  originalAssetId: string | undefined,
  signal: AbortSignal,
): Promise<StoredOutput> {
  const stored = await new MediaStore(ctx).put({
    body: data,
    contentType,
    ext: extensionOf(contentType),
    storageClass: 'enhancement',
    userId: task.userId,
    source: 'enhancement',
    tags: { GenerationId: task.id, ...(originalAssetId ? { OriginalAssetId: originalAssetId } : {}) },
  });
  try {
    const thumbnailKey = await makeThumbnail(ctx, task.userId, stored.key, contentType, signal);
    return { key: stored.key, url: stored.url, contentType, thumbnailKey };
  } catch (error) {
    // No asset points at the output yet: keep no file behind (e.g. a disk that filled up meanwhile).
    await new MediaStore(ctx).delete(stored.key).catch(() => undefined);
    throw error;
  }
}

/**
 * Points the original asset at the enhanced file (the first file stays in metadata.original_url),
 * or, without one (or when it was deleted meanwhile), saves the output as a new asset.
 */
async function finish(
  ctx: AppContext,
  task: TaskRow,
  output: StoredOutput,
  originalAssetId: string | undefined,
  metadataPatch: Record<string, unknown>,
  newAsset: {
    type: 'enhancement' | 'video_enhancement';
    service: string;
    model: string;
    metadata: Record<string, unknown>;
  },
): Promise<{ row: AssetRow; replaced: boolean }> {
  if (originalAssetId) {
    try {
      const row = await replaceAssetFile(ctx, {
        userId: task.userId,
        assetId: originalAssetId,
        key: output.key,
        url: output.url,
        thumbnailKey: output.thumbnailKey,
        metadataPatch,
      });
      return { row, replaced: true };
    } catch (error) {
      if (!(error instanceof AppError && error.status === 404)) throw error;
      ctx.log.info(
        { taskId: task.id, originalAssetId },
        'enhanced asset was deleted; saving the result as a new asset',
      );
    }
  }
  const row = await createAsset(ctx, {
    userId: task.userId,
    type: newAsset.type,
    key: output.key,
    contentType: output.contentType,
    url: output.url,
    thumbnailKey: output.thumbnailKey,
    metadata: { ...newAsset.metadata, ...metadataPatch, replaced_by_enhancement: false },
    status: 'completed',
    service: newAsset.service,
    model: newAsset.model,
    creditsUsed: task.creditsReserved,
    taskId: task.id,
  });
  return { row, replaced: false };
}

function resultOf(row: AssetRow, width: number, height: number, replaced: boolean): EnhancementResult {
  const dto = toAssetDto(row);
  return { asset_id: row.id, url: dto.url, thumbnail_url: dto.thumbnail_url, width, height, replaced };
}

/** A retried attempt whose earlier attempt already saved the new asset returns it instead of redoing the work. */
async function earlierResult(
  ctx: AppContext,
  task: TaskRow,
  originalAssetId: string | undefined,
): Promise<EnhancementResult | null> {
  if (originalAssetId) return null;
  const [row] = await assetsOfTask(ctx, task.userId, task.id);
  if (!row) return null;
  return resultOf(row, Number(row.metadata.width ?? 0), Number(row.metadata.height ?? 0), false);
}

/**
 * Stores the enhanced file and records the enhancement as completed: on the original asset, or on a new
 * asset made from the source URL. `details` follow the output size in the metadata.
 */
async function saveEnhancement(
  ctx: AppContext,
  task: TaskRow,
  signal: AbortSignal,
  enhancement: {
    input: { originalAssetId?: string; sourceUrl: string };
    result: { data: Buffer; mimeType: string; width: number; height: number };
    requestIdKey: 'enhancor_request_id' | 'topaz_request_id';
    details: Record<string, unknown>;
    newAsset: { type: 'enhancement' | 'video_enhancement'; service: string; model: string };
  },
): Promise<EnhancementResult> {
  const { input, result, requestIdKey, details, newAsset } = enhancement;
  const output = await storeOutput(ctx, task, result.data, result.mimeType, input.originalAssetId, signal);
  const { row, replaced } = await finish(
    ctx,
    task,
    output,
    input.originalAssetId,
    {
      replaced_by_enhancement: true,
      enhancement_status: 'completed',
      enhancement_error: null,
      [requestIdKey]: task.id,
      enhanced_at: ctx.clock.now().toISOString(),
      width: result.width,
      height: result.height,
      ...details,
    },
    { ...newAsset, metadata: { enhanced_from: input.sourceUrl } },
  );
  return resultOf(row, result.width, result.height, replaced);
}

/**
 * Marks the original asset's enhancement failed (with the error) in the transaction that fails and
 * refunds the task. In a savepoint: an asset deleted meanwhile must not undo the refund.
 */
async function markFailed(
  ctx: AppContext,
  tx: Db,
  task: TaskRow,
  error: { code: string; message: string },
): Promise<void> {
  const assetId = typeof task.input.originalAssetId === 'string' ? task.input.originalAssetId : null;
  if (!assetId) return;
  try {
    await tx.transaction(async (savepoint) => {
      await updateAsset({ ...ctx, db: savepoint }, task.userId, assetId, {
        metadata: {
          enhancement_status: 'failed',
          enhancement_error: error.message,
          replaced_by_enhancement: task.input.previouslyReplaced === true,
        },
      });
    });
  } catch (failure) {
    ctx.log.info({ err: failure, taskId: task.id, assetId }, 'could not mark the enhanced asset failed');
  }
}

const progress = (report: (p: { progress: number; estimatedSecondsLeft?: number | null }) => Promise<void>) => {
  let pending: Promise<void> = Promise.resolve();
  return (fraction: number, estimatedSecondsLeft?: number) => {
    pending = pending
      .then(() => report({ progress: 10 + Math.max(0, Math.min(1, fraction)) * 75, estimatedSecondsLeft }))
      .catch(() => undefined);
  };
};

/**
 * upscale.image: one of the image enhance services (realistic-skin, portrait-upscaler,
 * image-upscaler, detailed) brings the image to 4K (3840 wide for landscape, UPSCALE_TARGET), then
 * the result is stored (class `enhancement`) with a WebP thumbnail and either replaces the original
 * asset's file or becomes a new `enhancement` asset.
 */
export const upscaleImageTask = defineTask({
  kind: UPSCALE_IMAGE_KIND,
  input: imageInput,
  retryLimit: 1,
  retryDelaySeconds: 2,
  expireInSeconds: 600,
  async handler({ task, input, ctx, signal, report }): Promise<EnhancementResult> {
    const earlier = await earlierResult(ctx, task, input.originalAssetId);
    if (earlier) return earlier;
    await report({ progress: 5, estimatedSecondsLeft: 15 });
    const stored = await new MediaStore(ctx).get(input.sourceKey);
    const source = await readSource(ctx, input.sourceKey, signal, async (file) => {
      const data = await readFile(file);
      try {
        // A full decode (shrunk on load where the format allows): a header that parses over a body
        // that does not is refused here, once, instead of failing in the engine on every retry.
        await sharp(data, { failOn: 'error' }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
      } catch {
        throw new PermanentTaskError('unreadable_media', MESSAGES.inputs.unreadable);
      }
      return { data, mimeType: stored?.contentType ?? 'image/png' };
    });
    await report({ progress: 10 });
    const { engine } = ctx.engines.upscale(input.service);
    const result = await engine.image(
      {
        model: input.service,
        image: source,
        targetWidth: UPSCALE_TARGET.width,
        targetHeight: UPSCALE_TARGET.height,
        enhancementLevel: input.enhancementLevel,
        mode: input.mode,
      },
      { signal, onProgress: progress(report) },
    );
    await report({ progress: 88, estimatedSecondsLeft: 2 });
    const enhancement = {
      service: input.service,
      mode: input.mode ?? null,
      enhancementLevel: input.enhancementLevel ?? null,
      width: result.width,
      height: result.height,
      engine: { ...result.metadata },
    };
    return saveEnhancement(ctx, task, signal, {
      input,
      result,
      requestIdKey: 'enhancor_request_id',
      details: { enhancement },
      newAsset: { type: 'enhancement', service: input.service, model: input.service },
    });
  },
  onFailed: async ({ task, ctx, tx, error }) => markFailed(ctx, tx, task, error),
});

/** The smallest scale (2–4) that brings the source to 4K (3840x2160, either orientation); 4 at most. */
export function scaleTowards4K(width: number, height: number): number {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const needed = Math.max(UPSCALE_TARGET.width / long, UPSCALE_TARGET.height / short);
  return Math.min(4, Math.max(2, Math.ceil(needed - 1e-9)));
}

/**
 * upscale.video: the catalogue model's settings (scale, frame rate, quality → denoise/sharpen/
 * enhance) run by the video upscaler; the result is stored (class `enhancement`) with a WebP
 * thumbnail of a frame and replaces the original asset's file or becomes a `video_enhancement` asset.
 */
export const upscaleVideoTask = defineTask({
  kind: UPSCALE_VIDEO_KIND,
  input: videoInput,
  retryLimit: 1,
  retryDelaySeconds: 5,
  // The clients give up after 30 minutes (UPSCALE_TIMEOUT_MS).
  expireInSeconds: 1_800,
  async handler({ task, input, ctx, signal, report }): Promise<EnhancementResult> {
    const earlier = await earlierResult(ctx, task, input.originalAssetId);
    if (earlier) return earlier;
    await report({ progress: 2, estimatedSecondsLeft: VIDEO_ENHANCE.estimatedSeconds });
    const store = new MediaStore(ctx);
    // The facts probed when the video was stored, when its row has them; else one probe here, shared with the engine.
    const stored = (await store.factsOf([input.sourceKey])).get(input.sourceKey);
    const source = await readSource(ctx, input.sourceKey, signal, async (file) => {
      const row = await store.get(input.sourceKey);
      let probe: Awaited<ReturnType<typeof probeMedia>>;
      try {
        probe = stored?.video ? stored : await probeMedia(ctx.config, file, signal);
      } catch {
        throw new PermanentTaskError('unreadable_media', MESSAGES.inputs.unreadable);
      }
      if (!probe.video) throw new PermanentTaskError('unreadable_media', MESSAGES.inputs.unreadable);
      return { data: await readFile(file), mimeType: row?.contentType ?? 'video/mp4', probe, video: probe.video };
    });
    const scale = input.scale ?? scaleTowards4K(source.video.width, source.video.height);
    await report({ progress: 10 });
    const { engine } = ctx.engines.upscale(VIDEO_UPSCALE_SERVICE);
    const result = await engine.video(
      {
        model: input.model,
        video: { data: source.data, mimeType: source.mimeType },
        sourceProbe: source.probe,
        scale,
        ...(input.fps ? { fps: input.fps, interpolation: input.interpolation } : {}),
        denoise: input.denoise,
        sharpen: input.sharpen,
        enhance: input.enhance,
      },
      { signal, onProgress: progress(report) },
    );
    await report({ progress: 88, estimatedSecondsLeft: 5 });
    return saveEnhancement(ctx, task, signal, {
      input,
      result,
      requestIdKey: 'topaz_request_id',
      details: { duration: result.durationSeconds, fps: result.fps, enhancement: videoSettings(input, scale, result) },
      newAsset: { type: 'video_enhancement', service: 'topaz', model: input.model },
    });
  },
  onFailed: async ({ task, ctx, tx, error }) => markFailed(ctx, tx, task, error),
});

function videoSettings(
  input: VideoInput,
  scale: number,
  result: { width: number; height: number; fps: number; metadata: EngineMetadata },
): Record<string, unknown> {
  return {
    model: input.model,
    option: input.option,
    category: input.category,
    quality: input.quality,
    scale,
    fps: input.fps,
    interpolation: input.interpolation,
    denoise: input.denoise,
    sharpen: input.sharpen,
    enhance: input.enhance,
    width: result.width,
    height: result.height,
    engine: { ...result.metadata },
  };
}
