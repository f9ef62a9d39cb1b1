import type { z } from 'zod';
import { generateVideoBody } from '../../../common/api/generation.ts';
import type {
  compileMasterBody,
  GenerateVideoSequenceReply,
  generateVideoSequenceBody,
  MovieAgentReply,
  movieAgentBody,
  VideoPrompt,
} from '../../../common/api/sequences.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  SEQUENCE_LIMITS,
  SEQUENCE_MESSAGES,
  SEQUENCE_VIDEO_MODES,
  type SequenceVideoMode,
} from '../../../common/rules/sequences.ts';
import type { AppContext } from '../../context.ts';
import { sceneIndexForImage, settingOf } from '../../engines/local/script-scenes.ts';
import { readScriptScenes } from '../../engines/local/text.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { generatedMediaOf } from '../../platform/jobs/outcome.ts';
import { ownedMediaObject, storedKeyOf } from '../../platform/media/inputs.ts';
import { mediaUrl } from '../../platform/media/store.ts';
import { chargedTextAgent } from '../../platform/metering/text-agents.ts';
import { startVideoGeneration } from '../generation/service.ts';
import { taskAcceptedOf } from '../generation/status.ts';
import { composePrompt, type Frame, lookAtFrames, readFrames } from './movie-frames.ts';
import { COMPILE_MASTER_KIND, type CompileTaskInput } from './tasks.ts';

type SequenceBody = z.infer<typeof generateVideoSequenceBody>;
type MovieAgentBody = z.infer<typeof movieAgentBody>;
type CompileBody = z.infer<typeof compileMasterBody>;

/** The ledger's generation_type for sequence videos. */
const SEQUENCE_GENERATION_TYPE = 'video_sequence';

function modeOf(model: string): SequenceVideoMode {
  return model === SEQUENCE_VIDEO_MODES.dream.model ? 'dream' : 'pro';
}

/**
 * POST /api/ai/generate-video-sequence: the item's image as the first frame of an image-to-video
 * generation. Pro: Veo with audio, 8 s, 101 credits. Dream: seedance, 12 s, high quality, 41 credits.
 * Reuses startVideoGeneration (checks, ownership of the image, reservation, the generate.video task).
 */
export async function startSequenceVideo(
  ctx: AppContext,
  userId: string,
  body: SequenceBody,
): Promise<GenerateVideoSequenceReply> {
  const mode = modeOf(body.model);
  const settings = SEQUENCE_VIDEO_MODES[mode];
  const videoBody = generateVideoBody.parse({
    prompt: body.prompt,
    model: settings.model,
    duration: settings.durationSeconds,
    aspectRatio: body.aspectRatio,
    inputImage: body.imageUrl,
    itemId: body.itemId,
    ...(mode === 'pro' ? { generateAudio: true } : { quality: SEQUENCE_VIDEO_MODES.dream.quality }),
  });
  // Priced like any video of its model (pro: Veo with audio, dream: Seedance), from the serving engine's list.
  const started = await startVideoGeneration(ctx, userId, videoBody, {
    generationType: SEQUENCE_GENERATION_TYPE,
    description: `Sequence video (${mode}, ${settings.durationSeconds} s, ${settings.model})`,
  });
  const task = await ctx.jobs.getTask(userId, started.task.id);
  const done = task.status === 'completed' ? (generatedMediaOf(task)[0] ?? null) : null;
  const accepted = taskAcceptedOf(task, started);
  return {
    success: true,
    videoUrl: done?.url ?? null,
    data: {
      ...accepted,
      status: done ? 'completed' : 'processing',
      itemId: body.itemId ?? null,
      mode,
      model: settings.model,
      durationSeconds: settings.durationSeconds,
    },
  };
}

// ---- movie agent ----

interface AgentShot {
  shotType: string;
  cameraMovement: string;
  durationSeconds: number;
  prompt: string;
}
interface AgentScene {
  sceneNumber: number;
  heading: string;
  summary: string;
  shots: AgentShot[];
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value.trim() ? value.trim() : fallback;
const number = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** The scenes of the text engine's movie-agent answer, read defensively (any engine may answer). */
function scenesOf(json: unknown): AgentScene[] {
  const scenes = Array.isArray(record(json).scenes) ? (record(json).scenes as unknown[]) : [];
  return scenes.map((raw, i) => {
    const scene = record(raw);
    const shots = (Array.isArray(scene.shots) ? scene.shots : []).map((s) => {
      const shot = record(s);
      return {
        shotType: text(shot.shotType, 'wide shot'),
        cameraMovement: text(shot.cameraMovement, 'static'),
        durationSeconds: number(shot.durationSeconds ?? shot.duration, SEQUENCE_LIMITS.defaultDuration),
        prompt: text(shot.prompt, ''),
      };
    });
    return {
      sceneNumber: number(scene.sceneNumber, i + 1),
      heading: text(scene.heading, `SCENE ${i + 1}`),
      summary: text(scene.summary, ''),
      shots: shots.filter((s) => s.prompt),
    };
  });
}

/** What kind of script it is, from its form and words. */
function contentTypeOf(script: string): string {
  if (/\b(INT\.|EXT\.)/.test(script)) return 'screenplay';
  const lower = script.toLowerCase();
  if (/\b(product|brand|buy|sale|launch|commercial|advert)/.test(lower)) return 'commercial';
  if (/\b(verse|chorus|lyrics|song|beat drops)\b/.test(lower)) return 'music-video';
  if (/\b(documentary|interview|narrator)\b/.test(lower)) return 'documentary';
  return 'narrative';
}

const clampDuration = (seconds: number) =>
  Math.min(SEQUENCE_LIMITS.maxDuration, Math.max(SEQUENCE_LIMITS.minDuration, Math.round(seconds)));

/**
 * POST /api/ai/movie-agent. The script is read into scenes (slug lines or paragraphs); with images, the
 * images are spread over the script in order (image i of n takes the scene at its share of the script, so
 * every scene is used when there are at least as many images as scenes) and each image's pixels are
 * measured. The text engine's movie-agent purpose writes the shots, knowing the scenes and the images;
 * each image's prompt is its scene's next shot, the scene's setting, the measured image and the image's
 * own prompt. Without images, one prompt per shot. Stops after 10 minutes with the spec's timeout message.
 * Free on the local writer; TEXT_AGENTS.creditsPerCall when a vendor LLM writes (refunded on failure).
 */
export async function runMovieAgent(
  ctx: AppContext,
  userId: string,
  body: MovieAgentBody,
  options: { timeoutMs?: number } = {},
): Promise<MovieAgentReply> {
  ctx.engines.checkPrompt(body.movieScript);
  const frames = await readFrames(ctx, userId, body.images);
  return chargedTextAgent(ctx, { userId, agent: 'movie-agent', label: 'Movie agent' }, () =>
    analyseScript(ctx, body, frames, options),
  );
}

async function analyseScript(
  ctx: AppContext,
  body: MovieAgentBody,
  frames: Array<Frame | null>,
  options: { timeoutMs?: number },
): Promise<MovieAgentReply> {
  const timeoutMs = options.timeoutMs ?? SEQUENCE_LIMITS.movieAgentTimeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  const { engine } = ctx.engines.text();
  const timedOut = () => new AppError(504, 'timeout', SEQUENCE_MESSAGES.movieAgentTimedOut);
  // A long script is read on a thread of the local text pool, off the event loop (issue 27).
  const script = await readScriptScenes(body.movieScript, signal);
  const sceneOfImage = body.images.map((_, i) => sceneIndexForImage(i, body.images.length, script.length));
  let result: Awaited<ReturnType<typeof engine.complete>>;
  try {
    const write = async () => {
      // A vendor's vision model looks at the images first; its sentences go to the writer and the prompts.
      await lookAtFrames(ctx, engine, frames, signal);
      return engine.complete(
        {
          purpose: 'movie-agent',
          system:
            'You are a film director. Split the script into scenes and shots and write one cinematic video prompt per shot. ' +
            'Keep each scene’s place and time of day from its heading; when images are given, each image is the first frame ' +
            'of a shot in the scene it is assigned to, so describe motion that starts from what the image shows. Answer with JSON.',
          prompt: body.movieScript,
          context: {
            script: body.movieScript,
            style: 'cinematic',
            imageCount: body.images.length,
            scenes: script.map((s) => ({
              sceneNumber: s.sceneNumber,
              heading: s.heading,
              setting: settingOf(s),
              mood: s.mood,
            })),
            images: body.images.map((image, i) => ({
              id: image.id,
              sceneNumber: (sceneOfImage[i] ?? 0) + 1,
              measured: frames[i]?.facts.description ?? null,
              seen: frames[i]?.seen ?? null,
            })),
          },
        },
        { signal },
      );
    };
    result = await Promise.race([
      write(),
      new Promise<never>((_, reject) => {
        signal.addEventListener('abort', () => reject(timedOut()), { once: true });
      }),
    ]);
  } catch (error) {
    if (signal.aborted) throw timedOut();
    throw error;
  }
  const json = record(result.json);
  const scenes = scenesOf(result.json);
  const shots = scenes.flatMap((scene) => scene.shots.map((shot, k) => ({ scene, shot, index: k + 1 })));
  if (shots.length === 0) throw new AppError(502, 'movie_agent_failed', SEQUENCE_MESSAGES.movieAgentAnalysisFailed);
  /** The engine's scene for a script scene: the same number, else the same position. */
  const written = (index: number): AgentScene | undefined => {
    const number = script[index]?.sceneNumber ?? index + 1;
    const found = scenes.find((s) => s.sceneNumber === number && s.shots.length > 0);
    return found ?? (scenes.length === script.length ? scenes[index] : undefined);
  };
  const used = new Map<number, number>();
  const videoPrompts: VideoPrompt[] =
    body.images.length > 0
      ? body.images.map((image, i) => {
          const index = sceneOfImage[i] ?? 0;
          const scene = script[index];
          const nth = used.get(index) ?? 0;
          used.set(index, nth + 1);
          const sceneShots = written(index)?.shots ?? [];
          const shot = sceneShots[nth % Math.max(1, sceneShots.length)] ?? {
            shotType: 'wide shot',
            cameraMovement: 'slow push-in',
            durationSeconds: SEQUENCE_LIMITS.defaultDuration,
            prompt: scene?.text || body.movieScript,
          };
          const extra = image.prompt?.trim() && !/^Manually pinned:/.test(image.prompt) ? image.prompt.trim() : '';
          return {
            id: image.id,
            prompt: composePrompt(shot.prompt, scene, frames[i] ?? null, extra, shot),
            duration: clampDuration(shot.durationSeconds),
            shotType: shot.shotType,
            cameraMovement: shot.cameraMovement,
          };
        })
      : shots.map(({ scene, shot, index }) => ({
          id: `scene-${scene.sceneNumber}-shot-${index}`,
          prompt: composePrompt(
            shot.prompt,
            script.find((s) => s.sceneNumber === scene.sceneNumber),
            null,
            '',
            shot,
          ),
          duration: clampDuration(shot.durationSeconds),
          shotType: shot.shotType,
          cameraMovement: shot.cameraMovement,
        }));
  for (const prompt of videoPrompts) ctx.engines.checkPrompt(prompt.prompt);
  const totalDurationSeconds = videoPrompts.reduce((sum, p) => sum + p.duration, 0);
  return {
    success: true,
    contentType: contentTypeOf(body.movieScript),
    sequenceCount: videoPrompts.length,
    analysis: {
      summary: scenes
        .map((scene) => scene.summary)
        .filter(Boolean)
        .slice(0, 3)
        .join(' '),
      style: text(json.style, 'cinematic'),
      sceneCount: scenes.length,
      totalDurationSeconds,
      scenes: scenes.map(({ sceneNumber, heading, summary }) => ({ sceneNumber, heading, summary })),
      engine: result.metadata.engine,
    },
    videoPrompts,
  };
}

// ---- master video ----

/**
 * Checks a compile request and queues the compile task (free). Items without a video URL are skipped
 * (none left: 'No completed videos available to compile.'); every URL must be the user's own video.
 */
export async function startCompile(ctx: AppContext, userId: string, body: CompileBody) {
  const items = body.sequenceItems.filter((item) => item.videoUrl);
  if (items.length === 0) throw new AppError(400, 'no_videos', SEQUENCE_MESSAGES.noVideosToCompile);
  const clips: CompileTaskInput['items'] = [];
  for (const item of items) {
    const key = item.videoUrl ? storedKeyOf(ctx.config, item.videoUrl) : null;
    const object = key ? await ownedMediaObject(ctx, userId, key).catch(() => null) : null;
    if (!object || object.userId !== userId) {
      throw new AppError(400, 'not_your_media', MESSAGES.assets.notYourMedia, { itemId: item.id });
    }
    if (!object.contentType.startsWith('video/')) {
      throw badRequest(MESSAGES.assets.typeMismatch('video', object.contentType), { itemId: item.id });
    }
    clips.push({
      id: item.id,
      prompt: item.prompt,
      videoUrl: mediaUrl(object.key, object.contentType, object.storageClass),
      startTime: item.startTime,
      duration: item.duration,
    });
  }
  const input: CompileTaskInput = {
    items: clips,
    sequenceCount: body.sequenceItems.length,
    movieScript: body.movieScript ?? null,
  };
  const task = await ctx.jobs.createTask({
    userId,
    kind: COMPILE_MASTER_KIND,
    input,
    credits: 0,
    estimatedSeconds: Math.round(3 + clips.reduce((s, c) => s + c.duration, 0) / 2),
    description: `Master video (${clips.length} clips)`,
    generationType: 'master_video',
  });
  return { task, videoCount: clips.length };
}
