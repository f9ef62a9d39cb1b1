import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { uploadedMedia } from '../../db/schema/index.ts';
import { defineTask, PermanentTaskError } from '../../platform/jobs/types.ts';
import { withLocalFile } from '../../platform/media/local-file.ts';
import { grabFrame, imageInfo, probeMedia, webpThumbnail } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';

export const MEDIA_EXTRACT_KIND = 'media.extract';

interface Extracted {
  width: number | null;
  height: number | null;
  durationMs: number | null;
  thumbnail: Buffer | null;
  metadata: Record<string, unknown>;
}

/**
 * Thumbnail and metadata of an uploaded file: sharp for images (size, WebP thumbnail), ffprobe and
 * ffmpeg for video (size, duration, a frame as WebP thumbnail) and audio (duration).
 */
export const mediaExtractTask = defineTask({
  kind: MEDIA_EXTRACT_KIND,
  input: z.object({ uploadId: z.uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 2,
  expireInSeconds: 300,
  async handler({ input, ctx, signal, report }) {
    const [upload] = await ctx.db.select().from(uploadedMedia).where(eq(uploadedMedia.id, input.uploadId)).limit(1);
    if (!upload) throw new PermanentTaskError('not_found', 'The uploaded file no longer exists');
    await report({ progress: 10, estimatedSecondsLeft: upload.type === 'image' ? 1 : 3 });

    const extracted = await withLocalFile(
      ctx.storage,
      upload.key,
      async (file): Promise<Extracted> => {
        try {
          if (upload.type === 'image') {
            const info = await imageInfo(file);
            await report({ progress: 40, estimatedSecondsLeft: 1 });
            return {
              width: info.width,
              height: info.height,
              durationMs: null,
              thumbnail: await webpThumbnail(file),
              metadata: { format: info.format, hasAlpha: info.hasAlpha, space: info.space, pages: info.pages ?? 1 },
            };
          }
          const probe = await probeMedia(ctx.config, file, signal);
          await report({ progress: 40, estimatedSecondsLeft: 2 });
          const metadata = {
            format: probe.formatName,
            bitRate: probe.bitRate,
            video: probe.video,
            audio: probe.audio,
          };
          if (upload.type === 'video') {
            if (!probe.video) throw new PermanentTaskError('unreadable_media', 'The video has no picture');
            const seconds = probe.durationMs ? Math.min(1, probe.durationMs / 2000) : 0;
            const frame = await grabFrame(ctx.config, file, seconds, signal);
            return {
              width: probe.video.width,
              height: probe.video.height,
              durationMs: probe.durationMs,
              thumbnail: await webpThumbnail(frame),
              metadata,
            };
          }
          if (!probe.audio) throw new PermanentTaskError('unreadable_media', 'The file has no audio');
          return { width: null, height: null, durationMs: probe.durationMs, thumbnail: null, metadata };
        } catch (error) {
          if (error instanceof PermanentTaskError || signal.aborted) throw error;
          // The bytes passed the type check but do not decode: retrying cannot help.
          throw new PermanentTaskError('unreadable_media', 'The file could not be read');
        }
      },
      signal,
    );
    await report({ progress: 80, estimatedSecondsLeft: 1 });

    let thumbnailKey: string | null = null;
    let thumbnailUrl: string | null = null;
    if (extracted.thumbnail) {
      const stored = await new MediaStore(ctx).put({
        body: extracted.thumbnail,
        contentType: 'image/webp',
        ext: 'webp',
        storageClass: 'thumbnail',
        userId: upload.userId,
        source: 'thumbnail',
        tags: { OriginalAssetId: upload.id },
      });
      thumbnailKey = stored.key;
      thumbnailUrl = stored.url;
    }
    await ctx.db
      .update(uploadedMedia)
      .set({
        status: 'ready',
        width: extracted.width,
        height: extracted.height,
        durationMs: extracted.durationMs,
        thumbnailKey,
        metadata: extracted.metadata,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(uploadedMedia.id, upload.id));
    return {
      uploadId: upload.id,
      width: extracted.width,
      height: extracted.height,
      durationMs: extracted.durationMs,
      thumbnail_url: thumbnailUrl,
    };
  },
  async onFailed({ task, tx, ctx }) {
    const uploadId = typeof task.input.uploadId === 'string' ? task.input.uploadId : null;
    if (!uploadId) return;
    await tx
      .update(uploadedMedia)
      .set({ status: 'failed', updatedAt: ctx.clock.now() })
      .where(eq(uploadedMedia.id, uploadId));
  },
});
