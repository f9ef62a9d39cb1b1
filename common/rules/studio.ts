// Pure Creation Studio rules (spec 2.2, 3, 5 and 9): tabs and modes, the main action, video sub-modes and
// which image inputs a model takes, the dual-frame merge, sizes and aspect ratios, and list helpers.
// No Node and no DOM imports: shared by web and tests.
import {
  ACT_STUDIO_MODEL,
  DUAL_FRAME_MODEL,
  MAGIC_MODIFY_MODEL,
  QUALITY_SUFFIX,
  QUALITY_SUFFIX_MIN_WORDS,
  VIDEO_DEFAULTS,
} from '../api/generation.constants.ts';
import { MESSAGES } from '../messages.ts';

export const STUDIO_TABS = ['creator', 'personas', 'campaigns', 'publish'] as const;
export type StudioTab = (typeof STUDIO_TABS)[number];
export const STUDIO_MODES = ['image', 'video', 'audio'] as const;
export type StudioMode = (typeof STUDIO_MODES)[number];
const DEFAULT_STUDIO_TAB: StudioTab = 'creator';
const DEFAULT_STUDIO_MODE: StudioMode = 'image';

/** Side tools toggled from the rail (spec 2.2). */
export const STUDIO_SIDE_TOOLS = ['magicSelector', 'ugcVideo', 'characters', 'multiReference'] as const;
export type StudioSideTool = (typeof STUDIO_SIDE_TOOLS)[number];

export type StudioTabResult = { ok: true; tab: StudioTab } | { ok: false; error: string };

/** `?tab=`: missing means Creator; anything that is not a tab gives 'Invalid action tab'. */
export function parseStudioTab(value: string | null | undefined): StudioTabResult {
  if (value === null || value === undefined || value === '') return { ok: true, tab: DEFAULT_STUDIO_TAB };
  if ((STUDIO_TABS as readonly string[]).includes(value)) return { ok: true, tab: value as StudioTab };
  return { ok: false, error: MESSAGES.generation.invalidTab };
}

/** `?mode=`: image, video or audio; anything else falls back to image. */
export function parseStudioMode(value: string | null | undefined): StudioMode {
  return (STUDIO_MODES as readonly string[]).includes(value ?? '') ? (value as StudioMode) : DEFAULT_STUDIO_MODE;
}

export type StudioAction =
  | 'generateImage'
  | 'generateVideo'
  | 'generateAudio'
  | 'createPersona'
  | 'buildCampaignPlan'
  | 'publish';

/** The main action of a tab: Generate + the mode on Creator, else the tab's own action. */
export function studioAction(tab: StudioTab, mode: StudioMode): StudioAction {
  switch (tab) {
    case 'creator':
      return mode === 'video' ? 'generateVideo' : mode === 'audio' ? 'generateAudio' : 'generateImage';
    case 'personas':
      return 'createPersona';
    case 'campaigns':
      return 'buildCampaignPlan';
    case 'publish':
      return 'publish';
  }
}

/** The spec's English button labels (spec 2.2); 'Working...' replaces them while loading. */
export const STUDIO_ACTION_LABELS: Record<StudioAction, string> = {
  generateImage: 'Generate Image',
  generateVideo: 'Generate Video',
  generateAudio: 'Generate Audio',
  createPersona: 'Create Persona',
  buildCampaignPlan: 'Build Campaign Plan',
  publish: 'Publish to Connected Platforms',
};

// ---- video sub-modes and model inputs ----

export const VIDEO_SUB_MODES = ['normal', 'magicModify', 'actStudio', 'filmmakerPro'] as const;
export type VideoSubMode = (typeof VIDEO_SUB_MODES)[number];

/** The model each special sub-mode runs on. */
const VIDEO_SUB_MODE_MODEL: Record<Exclude<VideoSubMode, 'normal'>, string> = {
  magicModify: MAGIC_MODIFY_MODEL,
  actStudio: ACT_STUDIO_MODEL,
  filmmakerPro: DUAL_FRAME_MODEL,
};

/** The sub-mode follows the model: picking runway-gen4_aleph, runway-act_two or the dual-frame model switches the form. */
export function videoSubModeOf(model: string): VideoSubMode {
  if (model === MAGIC_MODIFY_MODEL) return 'magicModify';
  if (model === ACT_STUDIO_MODEL) return 'actStudio';
  if (model === DUAL_FRAME_MODEL) return 'filmmakerPro';
  return 'normal';
}

/** The model to use when the user picks a sub-mode; back to normal keeps a normal model or takes the default. */
export function modelForSubMode(subMode: VideoSubMode, currentModel: string): string {
  if (subMode !== 'normal') return VIDEO_SUB_MODE_MODEL[subMode];
  return videoSubModeOf(currentModel) === 'normal' ? currentModel : VIDEO_DEFAULTS.model;
}

export interface VideoModelInputs {
  /** Reference images (style, scene, first frame). */
  references: boolean;
  /** Character images (people or products kept consistent). */
  characters: boolean;
  /** Whether the model can add a soundtrack (generateAudio). */
  audio: boolean;
}

/** Which image inputs the normal video form shows for a model ("shown according to model capability"). */
export function videoModelInputs(model: string): VideoModelInputs {
  const m = model.toLowerCase();
  if (m.startsWith('veo')) return { references: true, characters: false, audio: true };
  if (m.startsWith('seedance') || m.startsWith('seedream')) return { references: true, characters: true, audio: false };
  if (m === MAGIC_MODIFY_MODEL) return { references: true, characters: false, audio: false };
  if (m === ACT_STUDIO_MODEL) return { references: false, characters: true, audio: false };
  if (m.startsWith('runway')) return { references: true, characters: true, audio: false };
  return { references: true, characters: true, audio: false };
}

/** Dual-frame mode: first-frame references and last-frame characters, merged with duplicates removed (order kept). */
export function mergeDualFrameImages(firstFrame: readonly string[], lastFrame: readonly string[]): string[] {
  return [...new Set([...firstFrame, ...lastFrame])];
}

// ---- prompts ----

export function promptWordCount(prompt: string): number {
  return prompt.trim().split(/\s+/).filter(Boolean).length;
}

/** True when generating will append the quality suffix (prompts under 20 words; see withQualitySuffix). */
export function needsQualitySuffix(prompt: string): boolean {
  const trimmed = prompt.trim();
  return trimmed.length > 0 && promptWordCount(trimmed) < QUALITY_SUFFIX_MIN_WORDS && !trimmed.endsWith(QUALITY_SUFFIX);
}

// ---- image sizes ----

export const IMAGE_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'] as const;
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;

/** Size presets offered by the image form, grouped by aspect ratio; 1024x1024 is the default. */
export const IMAGE_SIZES = [
  '512x512',
  '1024x1024',
  '2048x2048',
  '1344x768',
  '1920x1080',
  '3840x2160',
  '768x1344',
  '1080x1920',
  '2160x3840',
  '1152x864',
  '2048x1536',
  '864x1152',
  '1536x2048',
] as const;

function parseSize(size: string): { width: number; height: number } | null {
  const match = /^(\d+)x(\d+)$/.exec(size);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null;
}

function ratioOf(width: number, height: number): number {
  return width / height;
}

/** '16:9' → 1.777…; null for anything else. */
export function parseRatio(aspect: string): number | null {
  const match = /^(\d+):(\d+)$/.exec(aspect);
  return match ? Number(match[1]) / Number(match[2]) : null;
}

/** The listed aspect ratio closest to a size (within 3%), or null. */
export function aspectRatioOfSize(size: string): string | null {
  const parsed = parseSize(size);
  if (!parsed) return null;
  const r = ratioOf(parsed.width, parsed.height);
  let best: { aspect: string; diff: number } | null = null;
  for (const aspect of IMAGE_ASPECT_RATIOS) {
    const diff = Math.abs((parseRatio(aspect) ?? 0) - r) / r;
    if (diff <= 0.03 && (!best || diff < best.diff)) best = { aspect, diff };
  }
  return best?.aspect ?? null;
}

/** The video form's aspect ratio nearest an image's shape (a video made from it keeps its framing). */
export function nearestVideoAspect(width: number, height: number): (typeof VIDEO_ASPECT_RATIOS)[number] {
  const r = Math.log(width / height);
  return VIDEO_ASPECT_RATIOS.reduce((best, aspect) =>
    Math.abs(Math.log(parseRatio(aspect) ?? 1) - r) < Math.abs(Math.log(parseRatio(best) ?? 1) - r) ? aspect : best,
  );
}

/** The preset of an aspect ratio whose long side is nearest the current size's (switching ratio keeps the scale). */
export function sizeForAspectRatio(aspect: string, currentSize: string): string {
  const current = parseSize(currentSize);
  const longSide = current ? Math.max(current.width, current.height) : 1024;
  const candidates = IMAGE_SIZES.filter((size) => aspectRatioOfSize(size) === aspect);
  if (candidates.length === 0) return currentSize;
  return candidates.reduce((best, size) => {
    const s = parseSize(size)!;
    const b = parseSize(best)!;
    return Math.abs(Math.max(s.width, s.height) - longSide) < Math.abs(Math.max(b.width, b.height) - longSide)
      ? size
      : best;
  });
}

// ---- lists and links ----

/** Appends items whose id is not already listed (spec 4, Assets list: duplicates by id are skipped). */
export function appendUniqueById<T extends { id: string }>(existing: readonly T[], incoming: readonly T[]): T[] {
  const seen = new Set(existing.map((item) => item.id));
  const result = [...existing];
  for (const item of incoming) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    result.push(item);
  }
  return result;
}

/** The download link of a media URL (`?download=1`, or `&download=1` when it already has a query). */
export function downloadUrl(url: string): string {
  if (/[?&]download=1(&|$)/.test(url)) return url;
  const [base, hash] = url.split('#', 2);
  const joined = `${base}${base.includes('?') ? '&' : '?'}download=1`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

/** Index of the next item for arrow-key navigation in a viewer, wrapping around. */
export function stepIndex(index: number, step: 1 | -1, length: number): number {
  if (length <= 0) return 0;
  return (((index + step) % length) + length) % length;
}
