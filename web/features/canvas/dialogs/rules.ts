// Pure rules of the canvas dialogs (canvas spec 2, 3, 5, 8 and 9): quick edit and multi-composition requests,
// image and video enhancement (services, polling, placement, quality presets) and the region edit modal
// (drawing, minimum size, display-to-image scaling, drop targets). No DOM imports: shared by web and tests.
import { CANVAS } from '../../../../common/api/canvas-images.constants.ts';
import { ENHANCOR_KINDS, type EnhancorKind } from '../../../../common/api/generation.constants.ts';
import {
  IMAGE_ENHANCE_DEFAULTS,
  VIDEO_ENHANCE,
  type VideoEnhanceQuality,
} from '../../../../common/api/uploads.constants.ts';
import { freeSpotNear } from '../rules.ts';

/** Spec 8 texts shown by the dialogs (English; the web translates them by key). */
export const CANVAS_DIALOG_MESSAGES = {
  quickEditDone: 'Quick AI Edit completed and added to canvas!',
  enhancementStarted: (name: string) => `${name} enhancement started`,
  enhancementFailed: 'Enhancement failed',
  enhancementTimedOut: 'Enhancement timed out. Please try again.',
  topazModelsFailed: 'Failed to load Topaz models',
  topazStarted: (model: string) => `Topaz ${model} enhancement started!`,
  videoEnhancementTimedOut: 'Video enhancement timed out. Please try again.',
  videoEnhancementFailed: 'Video enhancement request failed',
  selectModelAndOption: 'Please select a model and option',
  selectRegion: 'Please select a region and ensure image is loaded',
  compositionFailed: 'Composition generation failed',
} as const;

/** Image enhancement: poll every 10 s, at most 180 times (30 min). Video: every 10 s, at most 360 (60 min). */
export const IMAGE_ENHANCE_POLL = { intervalMs: 10_000, maxAttempts: 180 } as const;
export const VIDEO_ENHANCE_POLL = { intervalMs: 10_000, maxAttempts: 360 } as const;

const REGION = {
  minSize: 20,
  canvasMax: { width: 800, height: 600 },
} as const;

export const MULTI_COMPOSITION_MAX = 10;

// ---- Quick edit and multi-composition ----

export type CanvasImageModel = 'seedream4' | 'nanobana';

/** seedream4 edits at 16:9 and 4K (3840x2160); nanobana at 1:1 and 2K (2048x2048). */
export function quickEditOutput(model: CanvasImageModel): {
  aspectRatio: '16:9' | '1:1';
  quality: '4k' | '2k';
  width: number;
  height: number;
} {
  return model === 'seedream4'
    ? { aspectRatio: '16:9', quality: '4k', width: 3840, height: 2160 }
    : { aspectRatio: '1:1', quality: '2k', width: 2048, height: 2048 };
}

/** Quick edit needs a non-empty prompt and a selection. */
export function canQuickEdit(prompt: string, selectedCount: number): boolean {
  return prompt.trim().length > 0 && selectedCount > 0;
}

/** Multi-composition uses the first ten selected images; it needs at least two and a prompt. */
export function compositionSelection<T>(selected: readonly T[]): T[] {
  return selected.slice(0, MULTI_COMPOSITION_MAX);
}

export function canCompose(prompt: string, selectedCount: number): boolean {
  return prompt.trim().length > 0 && selectedCount >= 2;
}

interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The enhanced image: 2150 px right of its source at 1920x1080, moved down a grid row at a time while it would
 * cover another image. (Quick edit, composition and region results go to the first free grid cell instead.)
 */
export function enhancedPlacement(source: { x: number; y: number }, images: readonly Placed[] = []): Placed {
  const { offsetX, width, height } = CANVAS.enhanced;
  return freeSpotNear(images, { x: source.x + offsetX, y: source.y, width, height });
}

// ---- Image enhancement ----

export const IMAGE_ENHANCE_SERVICES: readonly EnhancorKind[] = ENHANCOR_KINDS;

export interface EnhancorRequest {
  path: string;
  body: { img_url: string; original_asset_id?: string; mode?: string; enhancementLevel?: number };
}

/** POST /api/proxy/enhancor/{kind}/queue with the service's defaults and the source asset when known. */
export function imageEnhanceRequest(kind: EnhancorKind, imgUrl: string, assetId?: string | null): EnhancorRequest {
  return {
    path: `/api/proxy/enhancor/${kind}/queue`,
    body: { img_url: imgUrl, ...IMAGE_ENHANCE_DEFAULTS[kind], ...(assetId ? { original_asset_id: assetId } : {}) },
  };
}

// ---- Polling ----

export type PollStep =
  | { kind: 'done'; url: string }
  | { kind: 'failed'; message: string | null }
  | { kind: 'wait'; delayMs: number }
  | { kind: 'timeout' };

interface PolledTask {
  status?: string;
  result?: Record<string, unknown> | null;
  error?: { message?: string } | null;
}

/** The finished media URL of a task result (url, then videoUrl, outputUrl, image_url). */
export function taskResultUrl(result: Record<string, unknown> | null | undefined): string | null {
  if (!result) return null;
  for (const key of ['url', 'videoUrl', 'outputUrl', 'image_url', 'video_url']) {
    const value = result[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}

/**
 * What to do after poll `attempt` (1-based) answered `task` (null: the check itself failed and counts as an
 * attempt). completed/succeeded with a URL is done; failed/error fails; anything else waits until the limit.
 */
export function decideEnhancePoll(
  attempt: number,
  task: PolledTask | null,
  limits: { intervalMs: number; maxAttempts: number },
): PollStep {
  const status = task?.status?.toLowerCase();
  if (status === 'completed' || status === 'succeeded') {
    const url = taskResultUrl(task?.result);
    if (url) return { kind: 'done', url };
  }
  if (status === 'failed' || status === 'error') return { kind: 'failed', message: task?.error?.message ?? null };
  if (attempt >= limits.maxAttempts) return { kind: 'timeout' };
  return { kind: 'wait', delayMs: limits.intervalMs };
}

// ---- Video enhancement ----

/** Quality → denoise/sharpen/enhance: high 0.8/0.7/0.9, otherwise 0.5/0.4/0.6. */
export function qualityPreset(quality: VideoEnhanceQuality): { denoise: number; sharpen: number; enhance: number } {
  return quality === 'high' ? VIDEO_ENHANCE.presets.high : VIDEO_ENHANCE.presets.other;
}

/** The mapping as shown in the dialog, e.g. 'Denoise 0.8 · Sharpen 0.7 · Enhance 0.9' with translated labels. */
export function qualityPresetText(
  quality: VideoEnhanceQuality,
  labels: { denoise: string; sharpen: string; enhance: string } = {
    denoise: 'Denoise',
    sharpen: 'Sharpen',
    enhance: 'Enhance',
  },
): string {
  const p = qualityPreset(quality);
  return `${labels.denoise} ${p.denoise} · ${labels.sharpen} ${p.sharpen} · ${labels.enhance} ${p.enhance}`;
}

/** A model and one of its options must be chosen. */
export function videoEnhanceError(model: string | null | undefined, option: string | null | undefined): string | null {
  return model && option ? null : CANVAS_DIALOG_MESSAGES.selectModelAndOption;
}

// ---- Region edit ----

export interface Point {
  x: number;
  y: number;
}

export interface RegionRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The rectangle dragged from `start` to `end` (either direction), clamped to the canvas box when given, or
 * null when it is under the 20x20 minimum (discarded).
 */
export function normaliseRegion(
  start: Point,
  end: Point,
  bounds?: { width: number; height: number },
): RegionRect | null {
  const clampX = (v: number) => (bounds ? Math.min(Math.max(v, 0), bounds.width) : v);
  const clampY = (v: number) => (bounds ? Math.min(Math.max(v, 0), bounds.height) : v);
  const x1 = clampX(Math.min(start.x, end.x));
  const x2 = clampX(Math.max(start.x, end.x));
  const y1 = clampY(Math.min(start.y, end.y));
  const y2 = clampY(Math.max(start.y, end.y));
  const width = x2 - x1;
  const height = y2 - y1;
  if (width < REGION.minSize || height < REGION.minSize) return null;
  return { x: x1, y: y1, width, height };
}

/** The display size of an image drawn on the region canvas: scaled down to fit 800x600, never up. */
export function regionCanvasSize(natural: { width: number; height: number }): {
  width: number;
  height: number;
  scale: number;
} {
  const { width: maxW, height: maxH } = REGION.canvasMax;
  if (natural.width <= 0 || natural.height <= 0) return { width: 0, height: 0, scale: 1 };
  const scale = Math.min(1, maxW / natural.width, maxH / natural.height);
  return { width: Math.round(natural.width * scale), height: Math.round(natural.height * scale), scale };
}

/** A region in display pixels as a mask in image pixels (divided by the display scale, rounded, clamped). */
export function regionToImageMask(
  region: RegionRect,
  scale: number,
  natural: { width: number; height: number },
): RegionRect {
  const s = scale > 0 ? scale : 1;
  const x = Math.max(0, Math.min(natural.width, Math.round(region.x / s)));
  const y = Math.max(0, Math.min(natural.height, Math.round(region.y / s)));
  const width = Math.max(0, Math.min(natural.width - x, Math.round(region.width / s)));
  const height = Math.max(0, Math.min(natural.height - y, Math.round(region.height / s)));
  return { x, y, width, height };
}

/** The topmost (last drawn) region containing the point, or null. */
export function regionAt<T extends RegionRect>(regions: readonly T[], point: Point): T | null {
  for (let i = regions.length - 1; i >= 0; i--) {
    const r = regions[i];
    if (point.x >= r.x && point.x <= r.x + r.width && point.y >= r.y && point.y <= r.y + r.height) return r;
  }
  return null;
}

/** Only image files can be dropped on a region. */
export function isImageFile(file: { type: string }): boolean {
  return file.type.startsWith('image/');
}

type RegionLook = 'active' | 'dropTarget' | 'hasImage' | 'idle';

/** Drop target wins over active, active over has-image: each state has its own colour. */
export function regionLook(region: { id: string; hasImage: boolean }, activeId: string | null, dropId: string | null) {
  if (region.id === dropId) return 'dropTarget' as const;
  if (region.id === activeId) return 'active' as const;
  if (region.hasImage) return 'hasImage' as const;
  return 'idle' as const;
}

export const REGION_COLOURS: Readonly<Record<RegionLook, string>> = {
  active: '#3b82f6',
  dropTarget: '#f59e0b',
  hasImage: '#22c55e',
  idle: '#a855f7',
};

/** The per-region prompt, prefixed with the overall style prompt when there is one. */
export function regionPrompt(regionPromptText: string, stylePrompt: string): string {
  const own = regionPromptText.trim();
  const style = stylePrompt.trim();
  return style ? `${own}. Style: ${style}` : own;
}

/**
 * Region generate needs a region and a loaded image (else the spec's alert), then a region prompt and no
 * generation in progress (else the button simply does nothing).
 */
export function regionGenerateCheck(input: {
  hasRegion: boolean;
  imageLoaded: boolean;
  prompt: string;
  busy: boolean;
}): 'ok' | 'alert' | 'blocked' {
  if (!input.hasRegion || !input.imageLoaded) return 'alert';
  if (!input.prompt.trim() || input.busy) return 'blocked';
  return 'ok';
}
