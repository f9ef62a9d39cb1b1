import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { UPLOAD_STORAGE_CEILINGS_MB } from '../../../common/api/generation.constants.ts';
import { SEQUENCE_LIMITS, truncatePrompt } from '../../../common/rules/sequences.ts';
import { defineTask } from '../../platform/jobs/types.ts';
import { extensionOf, resolveMediaInput, storedKeyOf } from '../../platform/media/inputs.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { makeWorkDir } from '../../platform/media/work-dir.ts';
import { assetsOfTask, createAsset, makeThumbnail } from '../assets/service.ts';
import { toGeneratedMedia } from '../generation/outputs.ts';
import { type CompileInput, compileMaster } from './compile.ts';

export const COMPILE_MASTER_KIND = 'sequence.compile-master';

const MB = 1024 * 1024;
const VIDEO_INPUT_MAX_BYTES = UPLOAD_STORAGE_CEILINGS_MB.video * MB;

const compileTaskInput = z.object({
  /** Checked by the route: the user's own videos, in timeline order. */
  items: z.array(
    z.object({
      id: z.string(),
      prompt: z.string(),
      videoUrl: z.string(),
      startTime: z.number().min(0),
      duration: z.number().positive(),
    }),
  ),
  /** How many items the sequence had (with or without a video). */
  sequenceCount: z.number().int().min(0),
  movieScript: z.string().nullable(),
});
export type CompileTaskInput = z.infer<typeof compileTaskInput>;

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * sequence.compile-master: reads every clip, plans the master (stream copy or re-encode), runs ffmpeg,
 * stores the MP4 (class `generated`) with a poster frame and saves it as a video asset with the spec's
 * metadata (sequenceCount, duration, videoCount, movieScript, sequenceItems with prompts cut to 100).
 * A retried attempt that finds the asset of an earlier attempt returns it.
 */
export const compileMasterVideoTask = defineTask({
  kind: COMPILE_MASTER_KIND,
  input: compileTaskInput,
  retryLimit: 1,
  retryDelaySeconds: 2,
  expireInSeconds: 900,
  async handler({ task, input, ctx, report, signal }) {
    const earlier = await assetsOfTask(ctx, task.userId, task.id);
    const found = earlier[0];
    if (found) {
      return {
        assets: [toGeneratedMedia(found)],
        masterVideoUrl: found.url,
        assetId: found.id,
        duration: Number(found.metadata.duration ?? 0),
        videoCount: Number(found.metadata.videoCount ?? input.items.length),
        streamCopy: found.metadata.streamCopy === true,
      };
    }
    const dir = await makeWorkDir('master');
    const store = new MediaStore(ctx);
    let storedKey: string | null = null;
    try {
      // Clips stored here carry the facts an earlier probe found (keyed by storage key: the bytes never change).
      const keys = input.items.map((item) => storedKeyOf(ctx.config, item.videoUrl));
      const known = await store.factsOf(keys.filter((key): key is string => key !== null));
      const files: CompileInput[] = [];
      for (const [i, item] of input.items.entries()) {
        const media = await resolveMediaInput(ctx, task.userId, item.videoUrl, {
          maxBytes: VIDEO_INPUT_MAX_BYTES,
          allowed: ['video'],
          signal,
        });
        const file = path.join(
          dir,
          `clip-${i}.${extensionOf(media.mimeType) === 'bin' ? 'mp4' : extensionOf(media.mimeType)}`,
        );
        await writeFile(file, media.data);
        const key = keys[i];
        files.push({
          file,
          itemId: item.id,
          startTime: item.startTime,
          duration: item.duration,
          facts: key ? known.get(key) : null,
        });
        await report({ progress: 2 + Math.round((18 * (i + 1)) / input.items.length) });
      }
      const out = path.join(dir, 'master.mp4');
      const plan = await compileMaster(ctx.config, files, out, {
        workDir: dir,
        signal,
        onProgress: (fraction) => void report({ progress: 20 + Math.round(fraction * 70) }),
        onFacts: async (i, facts) => {
          const key = keys[i];
          if (key) await store.saveFacts(key, facts);
        },
      });
      // The master's probe (its duration, and the facts kept on its row) runs beside storing it.
      const probing = probeMedia(ctx.config, out, signal);
      const probed = probing.catch(() => null);
      const put = await store.put({
        body: await readFile(out),
        contentType: 'video/mp4',
        ext: 'mp4',
        storageClass: 'generated',
        userId: task.userId,
        source: 'generation',
        tags: { GenerationId: task.id },
        probe: probed,
      });
      storedKey = put.key;
      const probe = await probing;
      const duration = round1((probe.durationMs ?? plan.duration * 1000) / 1000);
      const thumbnailKey = await makeThumbnail(ctx, task.userId, put.key, 'video/mp4', signal).catch(() => null);
      const sequenceItems = input.items.map((item, i) => ({
        id: item.id,
        prompt: truncatePrompt(item.prompt, SEQUENCE_LIMITS.masterPromptChars),
        startTime: plan.cuts[i]?.start ?? item.startTime,
        duration: plan.cuts[i]?.duration ?? item.duration,
      }));
      const summary =
        input.movieScript?.trim() ||
        input.items
          .map((item) => item.prompt)
          .filter(Boolean)
          .join(' | ');
      const row = await createAsset(ctx, {
        userId: task.userId,
        type: 'video',
        key: put.key,
        url: put.url,
        thumbnailKey,
        prompt: truncatePrompt(
          summary || `Master video (${input.items.length} clips)`,
          SEQUENCE_LIMITS.masterPromptChars,
        ),
        service: 'master-compile',
        model: 'ffmpeg',
        creditsUsed: 0,
        taskId: task.id,
        status: 'completed',
        metadata: {
          source: 'master-video',
          generator: 'master-compile',
          taskId: task.id,
          createdAt: ctx.clock.now().toISOString(),
          sequenceCount: input.sequenceCount,
          duration,
          videoCount: input.items.length,
          movieScript: input.movieScript,
          sequenceItems,
          width: plan.target.width,
          height: plan.target.height,
          fps: plan.target.fps,
          hasAudio: true,
          streamCopy: plan.streamCopy,
        },
      });
      return {
        assets: [toGeneratedMedia(row)],
        masterVideoUrl: row.url,
        assetId: row.id,
        duration,
        videoCount: input.items.length,
        streamCopy: plan.streamCopy,
      };
    } catch (error) {
      if (storedKey) await store.delete(storedKey).catch(() => undefined);
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
});
