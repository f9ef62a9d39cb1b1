// The Magic Selector's saved-session state (canvas spec 3: baseImage, prompt, mode, result), plus its
// quality, style strength, reference image and the painted mask, so a reload restores the whole tool. Pure.

import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import type { MagicMode, MagicQuality } from '../../../common/api/inpaint.ts';
import type { PreviewSummary } from '../../ui/PreviewNote.tsx';

export interface MagicResult {
  url: string;
  id: string | null;
  width: number | null;
  height: number | null;
  /** The engine that made it (metadata.engine): 'local' or a vendor. */
  engine?: string | null;
  /** What the local preview did with the prompt (metadata.preview), when it says. */
  preview?: PreviewSummary | null;
}

export interface MagicSelectorSession {
  baseImage: string | null;
  prompt: string;
  mode: MagicMode;
  result: MagicResult | null;
  quality: MagicQuality;
  styleStrength: number;
  referenceImage: string | null;
  /** The mask as a PNG data URL (white where painted), or null for none. */
  maskImage: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const oneOf = <T extends string>(value: unknown, options: readonly T[], fallback: T): T =>
  typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : fallback;

/** Reads saved data; throws (with the spec's messages) when it is not Magic Selector state. */
export function parseMagicSelectorSession(data: unknown): MagicSelectorSession {
  if (!isRecord(data)) throw new Error('Session data must be an object');
  if (typeof data.baseImage !== 'string' && data.baseImage !== null)
    throw new Error('baseImage must be a string or null');
  if (typeof data.prompt !== 'string') throw new Error('prompt must be a string');
  if (typeof data.mode !== 'string') throw new Error('mode must be a string');
  const strength =
    typeof data.styleStrength === 'number' && Number.isFinite(data.styleStrength) ? data.styleStrength : null;
  const result = isRecord(data.result) ? data.result : null;
  const resultUrl = typeof data.result === 'string' ? data.result : text(result?.url);
  return {
    baseImage: text(data.baseImage),
    prompt: data.prompt,
    mode: oneOf(data.mode, MAGIC_SELECTOR.modes, 'inpaint'),
    result: resultUrl
      ? {
          url: resultUrl,
          id: text(result?.id),
          width: typeof result?.width === 'number' ? result.width : null,
          height: typeof result?.height === 'number' ? result.height : null,
        }
      : null,
    quality: oneOf(data.quality, MAGIC_SELECTOR.qualities, MAGIC_SELECTOR.quality),
    styleStrength: strength === null ? MAGIC_SELECTOR.styleStrength : Math.round(Math.min(100, Math.max(0, strength))),
    referenceImage: text(data.referenceImage),
    maskImage: text(data.maskImage)?.startsWith('data:image/') ? (data.maskImage as string) : null,
  };
}

/** The state to save, or null while the tool is untouched. */
export function captureMagicSelectorSession(state: MagicSelectorSession): MagicSelectorSession | null {
  if (!state.baseImage && !state.prompt.trim() && !state.referenceImage && !state.result) return null;
  return { ...state, maskImage: state.baseImage ? state.maskImage : null };
}
