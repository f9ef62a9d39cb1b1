import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { MediaBuffer, ProgressCallback } from '../../engines/types.ts';
import { PermanentTaskError, type TaskProgress } from '../../platform/jobs/types.ts';
import { extensionOf } from '../../platform/media/inputs.ts';
import { probeMedia, webpThumbnail } from '../../platform/media/probe.ts';
import { MediaStore, mediaUrl } from '../../platform/media/store.ts';
import { makeWorkDir } from '../../platform/media/work-dir.ts';
import { type AssetRow, createAsset, makeThumbnail } from '../assets/service.ts';

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** An asset made by a generation, as the generate routes and task results give it. */
export function toGeneratedMedia(row: AssetRow): GeneratedMedia {
  const type = row.type === 'video' || row.type === 'audio' ? row.type : 'image';
  return {
    id: row.id,
    url: row.url,
    thumbnail_url: row.thumbnailKey ? mediaUrl(row.thumbnailKey, 'image/webp') : null,
    type,
    width: num(row.metadata.width),
    height: num(row.metadata.height),
    duration: num(row.metadata.duration),
    metadata: row.metadata,
  };
}

export interface ProgressSink {
  set(value: number, estimatedSecondsLeft?: number | null): Promise<void>;
  range(lo: number, hi: number): ProgressCallback;
  flush(): Promise<void>;
}

/**
 * Progress written in order and never backwards: `set(p)` for a stage, `range(lo, hi)` as an
 * engine's onProgress (its 0–1 fraction mapped between lo and hi).
 */
export function progressSink(report: (progress: TaskProgress) => Promise<void>): ProgressSink {
  let chain: Promise<void> = Promise.resolve();
  let last = 0;
  const set = (value: number, estimatedSecondsLeft?: number | null): Promise<void> => {
    const progress = Math.max(last, Math.min(99, value));
    last = progress;
    chain = chain.then(() => report({ progress, estimatedSecondsLeft })).catch(() => undefined);
    return chain;
  };
  const range =
    (lo: number, hi: number): ProgressCallback =>
    (fraction, estimatedSecondsLeft) => {
      const f = Number.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 0;
      void set(lo + (hi - lo) * f, estimatedSecondsLeft);
    };
  return { set, range, flush: () => chain };
}

/** Fails the task at once (no retry) when an input image does not decode. */
export async function assertDecodableImage(media: MediaBuffer): Promise<void> {
  try {
    const meta = await sharp(media.data, { animated: false }).metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
  } catch {
    throw new PermanentTaskError('invalid_input', MESSAGES.inputs.unreadable);
  }
}

/** Fails the task at once (no retry) when an input video has no decodable picture. */
export async function assertDecodableVideo(ctx: AppContext, media: MediaBuffer, signal?: AbortSignal): Promise<void> {
  const dir = await makeWorkDir('input');
  try {
    const file = path.join(dir, `input.${extensionOf(media.mimeType)}`);
    await writeFile(file, media.data);
    const probe = await probeMedia(ctx.config, file, signal).catch(() => null);
    if (!probe?.video || !probe.durationMs) throw new PermanentTaskError('invalid_input', MESSAGES.inputs.unreadable);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface GeneratedFile {
  type: 'image' | 'video' | 'audio';
  media: MediaBuffer;
  metadata: Record<string, unknown>;
}

export interface SaveOutputsInput {
  userId: string;
  taskId: string;
  personaId: string | null;
  prompt: string;
  service: string;
  model: string;
  /** Credits recorded on each asset. */
  creditsEach: number;
  files: GeneratedFile[];
  signal?: AbortSignal;
}

const FALLBACK_EXT = { image: 'png', video: 'mp4', audio: 'mp3' } as const;

/**
 * Stores every output (class `generated`) with a WebP thumbnail (images) or poster frame (videos),
 * then writes their asset rows in one transaction: a task saves all its outputs or none. Files
 * stored before a failure are removed.
 */
export async function saveOutputs(ctx: AppContext, input: SaveOutputsInput): Promise<AssetRow[]> {
  const store = new MediaStore(ctx);
  const stored: string[] = [];
  try {
    const prepared: Array<{ file: GeneratedFile; key: string; url: string; thumbnailKey: string | null }> = [];
    for (const file of input.files) {
      const ext = extensionOf(file.media.mimeType);
      const put = await store.put({
        body: file.media.data,
        contentType: file.media.mimeType,
        ext: ext === 'bin' ? FALLBACK_EXT[file.type] : ext,
        storageClass: 'generated',
        userId: input.userId,
        personaId: input.personaId,
        source: 'generation',
        tags: { GenerationId: input.taskId },
      });
      stored.push(put.key);
      let thumbnailKey: string | null = null;
      if (file.type === 'image') {
        const thumb = await store.put({
          body: await webpThumbnail(file.media.data),
          contentType: 'image/webp',
          ext: 'webp',
          storageClass: 'thumbnail',
          userId: input.userId,
          source: 'thumbnail',
          tags: { GenerationId: input.taskId },
        });
        stored.push(thumb.key);
        thumbnailKey = thumb.key;
      } else if (file.type === 'video') {
        thumbnailKey = await makeThumbnail(ctx, input.userId, put.key, file.media.mimeType, input.signal).catch(
          (error: unknown) => {
            ctx.log.warn({ err: error, taskId: input.taskId }, 'could not make a poster frame');
            return null;
          },
        );
        if (thumbnailKey) stored.push(thumbnailKey);
      }
      prepared.push({ file, key: put.key, url: put.url, thumbnailKey });
    }
    input.signal?.throwIfAborted();
    const createdAt = ctx.clock.now().toISOString();
    return await ctx.db.transaction(async (tx) => {
      const txCtx = { db: tx, clock: ctx.clock };
      const rows: AssetRow[] = [];
      for (const item of prepared) {
        rows.push(
          await createAsset(txCtx, {
            userId: input.userId,
            personaId: input.personaId,
            type: item.file.type,
            key: item.key,
            url: item.url,
            thumbnailKey: item.thumbnailKey,
            prompt: input.prompt,
            service: input.service,
            model: input.model,
            creditsUsed: input.creditsEach,
            taskId: input.taskId,
            status: 'completed',
            metadata: {
              source: 'generation',
              generator: input.service,
              taskId: input.taskId,
              createdAt,
              ...item.file.metadata,
            },
          }),
        );
      }
      return rows;
    });
  } catch (error) {
    for (const key of stored) await store.delete(key).catch(() => undefined);
    throw error;
  }
}
