import { z } from 'zod';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { MediaBuffer } from '../../engines/types.ts';
import { AppError } from '../../platform/errors.ts';
import { defineTask } from '../../platform/jobs/types.ts';
import { resolveMediaInput } from '../../platform/media/inputs.ts';
import { assetsOfTask } from '../assets/service.ts';
import { type GeneratedFile, progressSink, saveOutputs, toGeneratedMedia } from '../generation/outputs.ts';

// Multi-reference in video-to-video mode: the first video reference restyled by the image references
// (their colours mixed by weight; vendors take the heaviest as their one reference) with the video
// engine's videoToVideo, once per variation, saved as video assets. An attempt that finds the assets
// of an earlier attempt returns them.

export const MULTI_REFERENCE_VIDEO_KIND = 'multi-reference.video';

const MB = 1024 * 1024;
/** Short side of the output per quality. */
const QUALITY_SHORT_SIDE = { draft: 360, standard: 540, premium: 720 } as const;
/** The container types video-to-video accepts (spec: mp4, mov, webm, avi). */
const VIDEO_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo'];

const taskInput = z.object({
  model: z.string(),
  prompt: z.string(),
  video: z.string(),
  images: z.array(z.object({ url: z.string(), weight: z.number().min(0).max(1) })),
  numImages: z.number().int().min(1),
  aspectRatio: z.string(),
  quality: z.enum(MULTI_REFERENCE.qualities),
  seed: z.number().int().nullable(),
  personaId: z.string().nullable(),
  creditsEach: z.number().int().min(0),
});
export type MultiReferenceVideoInput = z.infer<typeof taskInput>;

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

/** Output size for an aspect ratio ("16:9") at a quality: the short side fixed, the long side from the ratio. */
function videoSize(aspectRatio: string, quality: keyof typeof QUALITY_SHORT_SIDE): { width: number; height: number } {
  const [a, b] = aspectRatio.split(':').map(Number);
  const ratio = a > 0 && b > 0 ? a / b : 1;
  const short = QUALITY_SHORT_SIDE[quality];
  return ratio >= 1 ? { width: even(short * ratio), height: short } : { width: short, height: even(short / ratio) };
}

export const multiReferenceVideoTask = defineTask({
  kind: MULTI_REFERENCE_VIDEO_KIND,
  input: taskInput,
  retryLimit: 1,
  retryDelaySeconds: 3,
  expireInSeconds: 1800,
  async handler({ task, input, ctx, report, signal }) {
    const earlier = await assetsOfTask(ctx, task.userId, task.id);
    if (earlier.length > 0) return { assets: earlier.map(toGeneratedMedia) };
    const progress = progressSink(report);
    await progress.set(2);
    const { engine } = ctx.engines.video(input.model);
    const video = await resolveMediaInput(ctx, task.userId, input.video, {
      maxBytes: MULTI_REFERENCE.videoMaxMb * MB,
      allowed: ['video'],
      signal,
    });
    if (!VIDEO_MIME_TYPES.includes(video.mimeType)) {
      throw new AppError(400, 'unsupported_type', MESSAGES.multiReference.unsupportedType);
    }
    const references: Array<{ image: MediaBuffer; weight: number }> = [];
    for (const ref of input.images) {
      const image = await resolveMediaInput(ctx, task.userId, ref.url, {
        maxBytes: MULTI_REFERENCE.videoMaxMb * MB,
        allowed: ['image'],
        signal,
      });
      references.push({ image, weight: ref.weight });
    }
    await progress.set(10);
    const heaviest = [...references].sort((x, y) => y.weight - x.weight)[0]?.image;
    const size = videoSize(input.aspectRatio, input.quality);
    const span = 80 / input.numImages;
    const files: GeneratedFile[] = [];
    for (let i = 0; i < input.numImages; i++) {
      const from = 10 + span * i;
      const result = await engine.videoToVideo(
        {
          model: input.model,
          prompt: input.prompt,
          video,
          reference: heaviest,
          references,
          ...size,
          seed: input.seed === null ? undefined : input.seed + i,
        },
        { signal, onProgress: progress.range(from, from + span) },
      );
      files.push({
        type: 'video',
        media: { data: result.data, mimeType: result.mimeType },
        metadata: {
          ...result.metadata,
          width: result.width,
          height: result.height,
          duration: result.durationSeconds,
          fps: result.fps,
          hasAudio: result.hasAudio,
          source: 'multi-reference',
          editingTool: 'multi-reference',
          mode: MULTI_REFERENCE.videoToVideo.type,
          aspectRatio: input.aspectRatio,
          quality: input.quality,
          referenceImages: input.images,
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
