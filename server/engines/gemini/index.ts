// The Gemini adapter, on when GEMINI_API_KEY is set: Nano Banana serves the spec's Gemini image names,
// Veo 3 the veo names, and Gemini text the text name `gemini` and the default text model (what
// `ctx.engines.text()` answers; an OpenAI-compatible adapter listed after this one takes it over).
import type { Config } from '../../config.ts';
import { DEFAULT_TEXT_MODEL } from '../catalog.ts';
import type { EngineOverrides } from '../registry.ts';
import { GeminiImageEngine } from './image.ts';
import { GeminiTextEngine } from './text.ts';
import { VEO_MODEL_IDS, VeoVideoEngine } from './video.ts';

export const GEMINI_IMAGE_NAMES = [
  'nanobana',
  'nanobana-gemini-2.5-flash-image-preview',
  'gemini-2.5-flash-image',
  'gemini-2.5-flash-image-preview',
] as const;

/** The text model name the Gemini text engine answers to: `ctx.engines.text('gemini')`. */
export const GEMINI_TEXT_NAME = 'gemini';

/** Veo renders take 11 s to 6 min; the video task itself expires after 15 min. */
const VEO_TIMEOUT_MS = 13 * 60_000;

export function geminiOverrides(config: Config): EngineOverrides {
  if (!config.GEMINI_API_KEY) return {};
  const settings = { apiKey: config.GEMINI_API_KEY, base: config.GEMINI_API_BASE };
  const image = new GeminiImageEngine(settings, config.GEMINI_IMAGE_MODEL);
  const video = new VeoVideoEngine(settings, config, {
    pollIntervalMs: config.GEMINI_POLL_INTERVAL_MS,
    timeoutMs: VEO_TIMEOUT_MS,
  });
  const text = new GeminiTextEngine(settings, config.GEMINI_TEXT_MODEL);
  return {
    image: Object.fromEntries(GEMINI_IMAGE_NAMES.map((name) => [name, image])),
    video: Object.fromEntries(Object.keys(VEO_MODEL_IDS).map((name) => [name, video])),
    text: { [DEFAULT_TEXT_MODEL]: text, [GEMINI_TEXT_NAME]: text },
  };
}
