import type { EngineLastCall, EngineModel, EngineModelKind } from '../../common/api/engines.ts';
import { LOCAL_PREVIEW_PRICES, type PriceTable } from '../../common/api/generation.constants.ts';
import { MESSAGES } from '../../common/messages.ts';
import { modelName, vendorName } from '../../common/rules/engines.ts';
import { type EngineKind, priceTableFor } from '../../common/rules/pricing.ts';
import type { Config } from '../config.ts';
import { AppError, badRequest } from '../platform/errors.ts';
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
  /**
   * Which kind of engine serves a name ('vendor' when a vendor adapter takes it over, else 'local').
   * Unknown names throw the same 400 as resolving them; unavailable ones do not throw.
   */
  engineKind(kind: EngineModelKind, model: string): EngineKind;
  /**
   * The price list of the engine serving a name: PRICES for a vendor, the configured local preview
   * prices (LOCAL_PREVIEW_PRICES) for the local engines. Every paid route reserves from this list.
   */
  prices(kind: EngineModelKind, model: string): PriceTable;
  /** The local preview price list in force (defaults overridden by LOCAL_PREVIEW_PRICES). */
  localPrices(): PriceTable;
  /** Whether names without a vendor run on the local engines (LOCAL_ENGINES, on outside production). */
  localEnginesOn(): boolean;
  /**
   * Every model of every kind with the engine serving it, its availability and its engine's last call made by this
   * process (calls of every process: server/engines/calls.ts).
   */
  catalogue(): Array<EngineModel & { lastCall: EngineLastCall | null }>;
  /** Calls `listener` after every engine call ends (as the last call records it); returns the function that stops. */
  onCall(listener: (call: EngineCall) => void): () => void;
}

/** One ended engine call: the model kind, the engine's name ('local' for the local engines) and how it ended. */
export type EngineCall = EngineLastCall & { kind: EngineModelKind; engine: string };

/**
 * For each kind, the environment variables that give a name a vendor engine (from
 * vendor/index.ts `vendorEnablers`); used to say what to set when a name is unavailable.
 */
export type EngineEnablers = Partial<Record<EngineModelKind, Record<string, string[]>>>;

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
  /** Which variables enable a vendor for each name (see EngineEnablers). */
  enablers?: EngineEnablers;
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

/**
 * Records how an engine call ended: null for an answer, the error for a failure. Calls the caller
 * aborted are not recorded (the engine did nothing wrong); the content policy runs before and is not
 * an engine call either.
 */
type Track = (error: unknown, options?: EngineCallOptions) => void;

/** A method that first checks the texts `pick` returns, then calls through (failures reject). */
function guarded<R, T>(
  call: (request: R, options?: EngineCallOptions) => Promise<T>,
  pick: (request: R) => Array<string | undefined>,
  track: Track,
): (request: R, options?: EngineCallOptions) => Promise<T> {
  return async (request, options) => {
    checkContentPolicy(...pick(request));
    try {
      const result = await call(request, options);
      track(null, options);
      return result;
    } catch (error) {
      track(error ?? new Error('failed'), options);
      throw error;
    }
  };
}

function policeImage(e: ImageEngine, track: Track): ImageEngine {
  const wrapped: ImageEngine = {
    name: e.name,
    textToImage: guarded(
      (r, o) => e.textToImage(r, o),
      (r) => [r.prompt, r.style],
      track,
    ),
    edit: guarded(
      (r, o) => e.edit(r, o),
      (r) => [r.prompt],
      track,
    ),
    compose: guarded(
      (r, o) => e.compose(r, o),
      (r) => [r.prompt, ...r.images.map((i) => i.role)],
      track,
    ),
    inpaint: guarded(
      (r, o) => e.inpaint(r, o),
      (r) => [r.prompt],
      track,
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function policeVideo(e: VideoEngine, track: Track): VideoEngine {
  const wrapped: VideoEngine = {
    name: e.name,
    textToVideo: guarded(
      (r, o) => e.textToVideo(r, o),
      (r) => [r.prompt, r.style],
      track,
    ),
    imageToVideo: guarded(
      (r, o) => e.imageToVideo(r, o),
      (r) => [r.prompt, r.style],
      track,
    ),
    videoToVideo: guarded(
      (r, o) => e.videoToVideo(r, o),
      (r) => [r.prompt],
      track,
    ),
    // A performance transfer has no prompt; it still goes through the same gate.
    characterPerformance: guarded(
      (r, o) => e.characterPerformance(r, o),
      () => [],
      track,
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function policeAudio(e: AudioEngine, track: Track): AudioEngine {
  const wrapped: AudioEngine = {
    name: e.name,
    music: guarded(
      (r, o) => e.music(r, o),
      (r) => [r.prompt, r.genre, r.mood, ...(r.instruments ?? [])],
      track,
    ),
    voice: guarded(
      (r, o) => e.voice(r, o),
      (r) => [r.text],
      track,
    ),
  };
  policed.add(wrapped);
  return wrapped;
}

function policeUpscale(e: UpscaleEngine, track: Track): UpscaleEngine {
  const wrapped: UpscaleEngine = {
    name: e.name,
    image: guarded(
      (r, o) => e.image(r, o),
      (r) => [r.mode],
      track,
    ),
    video: guarded(
      (r, o) => e.video(r, o),
      () => [],
      track,
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

function policeText(e: TextEngine, track: Track): TextEngine {
  const wrapped: TextEngine = {
    name: e.name,
    complete: async (r, o) => {
      checkContentPolicy(r.prompt, ...contextText(r.context));
      let result: Awaited<ReturnType<TextEngine['complete']>>;
      try {
        result = await e.complete(r, o);
        track(null, o);
      } catch (error) {
        track(error ?? new Error('failed'), o);
        throw error;
      }
      // Outputs are checked too: a vendor model may write what the prompt did not say.
      checkContentPolicy(result.text);
      return result;
    },
    stream: async function* (r, o) {
      checkContentPolicy(r.prompt, ...contextText(r.context));
      try {
        yield* e.stream(r, o);
        track(null, o);
      } catch (error) {
        track(error ?? new Error('failed'), o);
        throw error;
      }
    },
  };
  policed.add(wrapped);
  return wrapped;
}

/** True for engines handed out by a registry (their calls pass the content policy). */
export function isPoliced(engine: object): boolean {
  return policed.has(engine);
}

interface Resolver<E> {
  resolve: (model: string) => { model: string; engine: E };
  /** The canonical spelling of a name and whether a vendor serves it; unknown names throw 400. */
  lookup: (model: string) => { model: string; engine: E; vendor: boolean };
  names: string[];
}

function resolver<E extends { name: string }>(
  kind: EngineModelKind,
  names: readonly string[],
  localEngine: E,
  overrides: Record<string, E> | undefined,
  police: (engine: E, track: Track) => E,
  gate: (kind: EngineModelKind, model: string) => void,
  track: (kind: EngineModelKind, engine: string) => Track,
): Resolver<E> {
  const all = [...new Set([...names, ...Object.keys(overrides ?? {})])];
  const byLower = new Map(all.map((n) => [n.toLowerCase(), n]));
  const cache = new Map<E, E>();
  const policedFor = (engine: E): E => {
    let w = cache.get(engine);
    if (!w) {
      w = police(engine, track(kind, engine.name));
      cache.set(engine, w);
    }
    return w;
  };
  const lookup = (model: string) => {
    const name = byLower.get(
      String(model ?? '')
        .trim()
        .toLowerCase(),
    );
    if (!name) throw badRequest(`Unknown model: ${model}`, { kind });
    const vendor = overrides?.[name];
    return { model: name, engine: vendor ?? localEngine, vendor: vendor !== undefined };
  };
  return {
    names: all,
    lookup,
    resolve: (model: string) => {
      const found = lookup(model);
      if (!found.vendor) gate(kind, found.model);
      return { model: found.model, engine: policedFor(found.engine) };
    },
  };
}

/** How the last call of each engine ended, per process (key: `kind:engine name`); listeners hear every call. */
class LastCalls {
  private readonly calls = new Map<string, EngineLastCall>();
  readonly listeners = new Set<(call: EngineCall) => void>();
  tracker(kind: EngineModelKind, engine: string): Track {
    return (error, options) => {
      if (error && options?.signal?.aborted) return;
      const at = new Date().toISOString();
      const call: EngineLastCall = error
        ? { outcome: 'failed', at, message: (error instanceof Error ? error.message : String(error)).slice(0, 500) }
        : { outcome: 'ok', at };
      this.calls.set(`${kind}:${engine}`, call);
      for (const listener of this.listeners) {
        try {
          listener({ kind, engine, ...call });
        } catch {
          // A listener (metrics, the engine_calls table) never fails the engine call.
        }
      }
    };
  }
  get(kind: EngineModelKind, engine: string): EngineLastCall | null {
    return this.calls.get(`${kind}:${engine}`) ?? null;
  }
}

/**
 * With no vendor overrides every spec name maps to the local engines; see EngineOverrides. When
 * LOCAL_ENGINES is off (the production default) a name no vendor serves answers 503
 * `engine_unavailable` naming the variables that enable it.
 */
export function createEngineRegistry(config: Config, options: RegistryOptions = {}): EngineRegistry {
  const local: EngineSet = { ...createLocalEngines(config), ...options.local };
  const o = options.overrides ?? {};
  const enablers = options.enablers ?? {};
  const localOn = config.LOCAL_ENGINES ?? true;
  const localPrices = config.LOCAL_PREVIEW_PRICES ?? LOCAL_PREVIEW_PRICES;
  const lastCalls = new LastCalls();
  const enabledBy = (kind: EngineModelKind, model: string): string[] => enablers[kind]?.[model] ?? [];
  const unavailableReason = (kind: EngineModelKind, model: string) =>
    MESSAGES.generation.engineUnavailable(`${modelName(model)} (${model})`, enabledBy(kind, model));
  const gate = (kind: EngineModelKind, model: string) => {
    if (localOn) return;
    throw new AppError(503, 'engine_unavailable', unavailableReason(kind, model), {
      kind,
      model,
      enabledBy: [...enabledBy(kind, model), 'LOCAL_ENGINES'],
    });
  };
  const track = (kind: EngineModelKind, engine: string) => lastCalls.tracker(kind, engine);
  const image = resolver('image', IMAGE_MODEL_NAMES, local.image, o.image, policeImage, gate, track);
  const video = resolver('video', VIDEO_MODEL_NAMES, local.video, o.video, policeVideo, gate, track);
  const audio = resolver('audio', AUDIO_MODEL_NAMES, local.audio, o.audio, policeAudio, gate, track);
  const upscale = resolver('upscale', UPSCALE_SERVICE_NAMES, local.upscale, o.upscale, policeUpscale, gate, track);
  const text = resolver('text', TEXT_MODEL_NAMES, local.text, o.text, policeText, gate, track);
  const byKind: Record<EngineModelKind, Resolver<{ name: string }>> = { image, video, audio, upscale, text };
  const engineKind = (kind: EngineModelKind, model: string): EngineKind =>
    byKind[kind].lookup(model).vendor ? 'vendor' : 'local';
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
    engineKind,
    prices: (kind, model) => priceTableFor(engineKind(kind, model), localPrices),
    localPrices: () => localPrices,
    localEnginesOn: () => localOn,
    onCall: (listener) => {
      lastCalls.listeners.add(listener);
      return () => lastCalls.listeners.delete(listener);
    },
    catalogue: () =>
      (Object.keys(byKind) as EngineModelKind[]).flatMap((kind) =>
        byKind[kind].names.map((model) => {
          const found = byKind[kind].lookup(model);
          const engine = found.vendor ? found.engine.name : 'local';
          const available = found.vendor || localOn;
          return {
            kind,
            model,
            name: modelName(model),
            engine,
            engineKind: found.vendor ? ('vendor' as const) : ('local' as const),
            vendor: found.vendor ? vendorName(engine) : null,
            available,
            unavailableReason: available ? null : unavailableReason(kind, model),
            enabledBy: enabledBy(kind, model),
            lastCall: lastCalls.get(kind, engine),
          };
        }),
      ),
  };
}
