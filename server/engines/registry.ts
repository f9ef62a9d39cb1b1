import type { Config } from '../config.ts';
import { badRequest } from '../platform/errors.ts';
import {
  AUDIO_MODEL_NAMES,
  DEFAULT_TEXT_MODEL,
  IMAGE_MODEL_NAMES,
  imageCapabilities,
  TEXT_MODEL_NAMES,
  UPSCALE_SERVICE_NAMES,
  VIDEO_MODEL_NAMES,
  videoCapabilities,
} from './catalog.ts';
import { LocalAudioEngine } from './local/audio.ts';
import { LocalImageEngine } from './local/image.ts';
import { LocalTextEngine } from './local/text.ts';
import { LocalUpscaleEngine } from './local/upscale.ts';
import { LocalVideoEngine } from './local/video.ts';
import { checkContentPolicy } from './policy.ts';
import type {
  AudioEngine,
  EngineCallOptions,
  ImageEngine,
  ImageModelCapabilities,
  TextEngine,
  UpscaleEngine,
  VideoEngine,
  VideoModelCapabilities,
} from './types.ts';

/**
 * A model name resolved to the engine that serves it. `model` is the spec's name as asked for.
 * @public
 */
export interface Resolved<E, C = undefined> {
  model: string;
  engine: E;
  capabilities: C;
}

/**
 * Maps the spec's model and service names (seedream4, nanobana, veo-3.0-generate-001, runway-gen4_aleph,
 * runway-act_two, seedance, suno-v3.5, proteus, realistic-skin, …) to the configured engine. Every
 * engine it returns checks prompts against the content policy first. An unknown name throws a 400
 * AppError naming it.
 */
export interface EngineRegistry {
  image(model: string): Resolved<ImageEngine, ImageModelCapabilities>;
  video(model: string): Resolved<VideoEngine, VideoModelCapabilities>;
  audio(model: string): Resolved<AudioEngine>;
  upscale(service: string): Resolved<UpscaleEngine>;
  text(model?: string): Resolved<TextEngine>;
  /** Throws ContentFilteredError when the text breaks the content policy. */
  checkPrompt(text: string): void;
  /** Every known model name by kind, for catalogues and validation messages. */
  models(): { image: string[]; video: string[]; audio: string[]; upscale: string[]; text: string[] };
}

/** The engines of each kind, for every name at once (the local set) or per name (vendor adapters). */
export interface EngineSet {
  image: ImageEngine;
  video: VideoEngine;
  audio: AudioEngine;
  upscale: UpscaleEngine;
  text: TextEngine;
}

/**
 * How a vendor adapter takes over names: for each kind, a map from the spec's model name to the engine
 * that serves it. A vendor module reads its keys from Config and returns the names it can serve;
 * names it leaves out stay local. Overrides may also add names the catalogue does not list.
 * @public
 */
export interface EngineOverrides {
  image?: Record<string, ImageEngine>;
  video?: Record<string, VideoEngine>;
  audio?: Record<string, AudioEngine>;
  upscale?: Record<string, UpscaleEngine>;
  text?: Record<string, TextEngine>;
}

export interface RegistryOptions {
  /** Replaces the local engines (tests inject fakes here). */
  local?: Partial<EngineSet>;
  /** Vendor engines per model name (see EngineOverrides). */
  overrides?: EngineOverrides;
}

/** The embedded engines; ffmpeg/ffprobe come from FFMPEG_PATH/FFPROBE_PATH or the bundled binaries. */
export function createLocalEngines(config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>): EngineSet {
  const image = new LocalImageEngine();
  return {
    image,
    video: new LocalVideoEngine(config, image),
    audio: new LocalAudioEngine(config),
    upscale: new LocalUpscaleEngine(config),
    text: new LocalTextEngine(),
  };
}

// ---- policy wrappers: every call checks its prompt before the engine sees it ----

const policed = new WeakSet<object>();

/** A method that first checks the texts `pick` returns, then calls through (failures reject). */
function guarded<R, T>(
  call: (request: R, options?: EngineCallOptions) => Promise<T>,
  pick: (request: R) => Array<string | undefined>,
): (request: R, options?: EngineCallOptions) => Promise<T> {
  return async (request, options) => {
    checkContentPolicy(...pick(request));
    return call(request, options);
  };
}

function policeImage(e: ImageEngine): ImageEngine {
  const wrapped: ImageEngine = {
    name: e.name,
    textToImage: guarded(
      (r, o) => e.textToImage(r, o),
      (r) => [r.prompt, r.style],
    ),
    edit: guarded(
      (r, o) => e.edit(r, o),
      (r) => [r.prompt],
    ),
    compose: guarded(
      (r, o) => e.compose(r, o),
      (r) => [r.prompt, ...r.images.map((i) => i.role)],
    ),
    inpaint: guarded(
      (r, o) => e.inpaint(r, o),
      (r) => [r.prompt],
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function policeVideo(e: VideoEngine): VideoEngine {
  const wrapped: VideoEngine = {
    name: e.name,
    textToVideo: guarded(
      (r, o) => e.textToVideo(r, o),
      (r) => [r.prompt, r.style],
    ),
    imageToVideo: guarded(
      (r, o) => e.imageToVideo(r, o),
      (r) => [r.prompt, r.style],
    ),
    videoToVideo: guarded(
      (r, o) => e.videoToVideo(r, o),
      (r) => [r.prompt],
    ),
    // A performance transfer has no prompt; it still goes through the same gate.
    characterPerformance: guarded(
      (r, o) => e.characterPerformance(r, o),
      () => [],
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function policeAudio(e: AudioEngine): AudioEngine {
  const wrapped: AudioEngine = {
    name: e.name,
    music: guarded(
      (r, o) => e.music(r, o),
      (r) => [r.prompt, r.genre, r.mood, ...(r.instruments ?? [])],
    ),
    voice: guarded(
      (r, o) => e.voice(r, o),
      (r) => [r.text],
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function policeUpscale(e: UpscaleEngine): UpscaleEngine {
  const wrapped: UpscaleEngine = {
    name: e.name,
    image: guarded(
      (r, o) => e.image(r, o),
      (r) => [r.mode],
    ),
    video: guarded(
      (r, o) => e.video(r, o),
      () => [],
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function contextText(context: Record<string, unknown> | undefined): string[] {
  if (!context) return [];
  const out: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 4) return;
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) for (const v of value) visit(v, depth + 1);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) visit(v, depth + 1);
  };
  visit(context, 0);
  return out;
}

function policeText(e: TextEngine): TextEngine {
  const wrapped: TextEngine = {
    name: e.name,
    complete: async (r, o) => {
      checkContentPolicy(r.prompt, ...contextText(r.context));
      const result = await e.complete(r, o);
      // Outputs are checked too: a vendor model may write what the prompt did not say.
      checkContentPolicy(result.text);
      return result;
    },
    stream: async function* (r, o) {
      checkContentPolicy(r.prompt, ...contextText(r.context));
      yield* e.stream(r, o);
    },
  };
  policed.add(wrapped);
  return wrapped;
}

/** True for engines handed out by a registry (their calls pass the content policy). */
export function isPoliced(engine: object): boolean {
  return policed.has(engine);
}

function resolver<E>(
  kind: string,
  names: readonly string[],
  localEngine: E,
  overrides: Record<string, E> | undefined,
  police: (engine: E) => E,
): { resolve: (model: string) => { model: string; engine: E }; names: string[] } {
  const all = [...new Set([...names, ...Object.keys(overrides ?? {})])];
  const byLower = new Map(all.map((n) => [n.toLowerCase(), n]));
  const cache = new Map<E, E>();
  const policedFor = (engine: E): E => {
    let w = cache.get(engine);
    if (!w) {
      w = police(engine);
      cache.set(engine, w);
    }
    return w;
  };
  return {
    names: all,
    resolve: (model: string) => {
      const name = byLower.get(
        String(model ?? '')
          .trim()
          .toLowerCase(),
      );
      if (!name) throw badRequest(`Unknown model: ${model}`, { kind });
      return { model: name, engine: policedFor(overrides?.[name] ?? localEngine) };
    },
  };
}

/** With no vendor overrides every spec name maps to the local engines; see EngineOverrides. */
export function createEngineRegistry(config: Config, options: RegistryOptions = {}): EngineRegistry {
  const local: EngineSet = { ...createLocalEngines(config), ...options.local };
  const o = options.overrides ?? {};
  const image = resolver('image', IMAGE_MODEL_NAMES, local.image, o.image, policeImage);
  const video = resolver('video', VIDEO_MODEL_NAMES, local.video, o.video, policeVideo);
  const audio = resolver('audio', AUDIO_MODEL_NAMES, local.audio, o.audio, policeAudio);
  const upscale = resolver('upscale', UPSCALE_SERVICE_NAMES, local.upscale, o.upscale, policeUpscale);
  const text = resolver('text', TEXT_MODEL_NAMES, local.text, o.text, policeText);
  return {
    image: (model) => {
      const r = image.resolve(model);
      return { ...r, capabilities: imageCapabilities(r.model) };
    },
    video: (model) => {
      const r = video.resolve(model);
      return { ...r, capabilities: videoCapabilities(r.model) };
    },
    audio: (model) => ({ ...audio.resolve(model), capabilities: undefined }),
    upscale: (service) => ({ ...upscale.resolve(service), capabilities: undefined }),
    text: (model) => ({ ...text.resolve(model ?? DEFAULT_TEXT_MODEL), capabilities: undefined }),
    checkPrompt: (value) => checkContentPolicy(value),
    models: () => ({
      image: [...image.names],
      video: [...video.names],
      audio: [...audio.names],
      upscale: [...upscale.names],
      text: [...text.names],
    }),
  };
}
