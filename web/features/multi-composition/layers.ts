// Pure rules of the multi-composition workspace (canvas spec 2, 3, 9): up to ten image layers placed on an
// artboard of canvasWidth × canvasHeight, their placement, scaling and stacking order, the layout text sent
// with the prompt, the saved-session shape and the sniffing of uploaded image files. No DOM.
import { MULTI_COMPOSITION_MAX } from '../canvas/dialogs/rules.ts';

export { MULTI_COMPOSITION_MAX };

export interface Layer {
  id: string;
  url: string;
  name: string;
  /** Artboard pixels, from the artboard's top-left corner (never mirrored for right-to-left). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0 is the bottom layer; always 0..n-1 after any change. */
  zIndex: number;
  /** 0..1 */
  opacity: number;
}

export interface ArtboardSize {
  width: number;
  height: number;
}

export const ARTBOARD_PRESETS = [
  { id: 'square', width: 1024, height: 1024 },
  { id: 'landscape', width: 1920, height: 1080 },
  { id: 'portrait', width: 1080, height: 1920 },
] as const;

export const ARTBOARD_LIMITS = { min: 256, max: 4096 } as const;
export const DEFAULT_ARTBOARD: ArtboardSize = { width: 1024, height: 1024 };
const LAYER_MIN_SIZE = 16;
/** A layer may hang over the artboard's edge but keeps at least this much of itself on it. */
const MIN_VISIBLE = 32;
/** A new layer's long side takes 25–60 % of the artboard; each one lands 5 % further down-right. */
const NEW_LAYER_SHARE = 0.6;
const MIN_LAYER_SHARE = 0.25;
const CASCADE_SHARE = 0.05;
const PROMPT_MAX = 4000;

const round = (n: number) => Math.round(n);
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** A custom artboard side: whole pixels within 256..4096 (a non-number gives the minimum). */
export function clampArtboardSide(value: number): number {
  return Number.isFinite(value) ? clamp(round(value), ARTBOARD_LIMITS.min, ARTBOARD_LIMITS.max) : ARTBOARD_LIMITS.min;
}

/** How many more layers fit. */
export function roomLeft(layers: readonly Layer[]): number {
  return Math.max(0, MULTI_COMPOSITION_MAX - layers.length);
}

/** Layers bottom first. */
export function byZ(layers: readonly Layer[]): Layer[] {
  return [...layers].sort((a, b) => a.zIndex - b.zIndex);
}

/** The same layers (same array order) with zIndex renumbered 0..n-1 by their current stacking. */
function renumber(layers: readonly Layer[]): Layer[] {
  const rank = new Map(byZ(layers).map((layer, i) => [layer.id, i]));
  return layers.map((layer) =>
    layer.zIndex === rank.get(layer.id) ? layer : { ...layer, zIndex: rank.get(layer.id) ?? 0 },
  );
}

/** Keeps at least MIN_VISIBLE px (or the whole layer when smaller) of a layer on the artboard. */
export function clampPosition(layer: Pick<Layer, 'width' | 'height'>, x: number, y: number, board: ArtboardSize) {
  const keepX = Math.min(layer.width, MIN_VISIBLE);
  const keepY = Math.min(layer.height, MIN_VISIBLE);
  return {
    x: round(clamp(x, keepX - layer.width, board.width - keepX)),
    y: round(clamp(y, keepY - layer.height, board.height - keepY)),
  };
}

/**
 * Where a new image goes: at its natural size, scaled (aspect kept) into 25–60 % of the artboard, centred,
 * each further layer shifted 5 % down-right so stacked layers stay visible.
 */
export function placeNewLayer(
  natural: { width: number; height: number },
  board: ArtboardSize,
  existing: number,
): Pick<Layer, 'x' | 'y' | 'width' | 'height'> {
  const nw = natural.width > 0 ? natural.width : board.width;
  const nh = natural.height > 0 ? natural.height : board.height;
  const scaleFor = (share: number) => Math.min((board.width * share) / nw, (board.height * share) / nh);
  // Natural size when it is between 25 % and 60 % of the artboard, else scaled to the nearer bound.
  const scale = Math.min(scaleFor(NEW_LAYER_SHARE), Math.max(1, scaleFor(MIN_LAYER_SHARE)));
  const width = Math.max(LAYER_MIN_SIZE, round(nw * scale));
  const height = Math.max(LAYER_MIN_SIZE, round(nh * scale));
  const step = existing % 5;
  const x = (board.width - width) / 2 + (step - 2) * board.width * CASCADE_SHARE;
  const y = (board.height - height) / 2 + (step - 2) * board.height * CASCADE_SHARE;
  return { ...clampPosition({ width, height }, x, y, board), width, height };
}

export interface NewLayer {
  id: string;
  url: string;
  name: string;
  naturalWidth: number;
  naturalHeight: number;
}

/** Adds images on top, as many as there is room for; `dropped` counts those left out by the limit of ten. */
export function addLayers(
  layers: readonly Layer[],
  added: readonly NewLayer[],
  board: ArtboardSize,
): { layers: Layer[]; dropped: number } {
  const taken = added.slice(0, roomLeft(layers));
  const top = layers.reduce((max, layer) => Math.max(max, layer.zIndex), -1);
  const next = taken.map((item, i) => ({
    id: item.id,
    url: item.url,
    name: item.name,
    ...placeNewLayer({ width: item.naturalWidth, height: item.naturalHeight }, board, layers.length + i),
    zIndex: top + 1 + i,
    opacity: 1,
  }));
  return { layers: renumber([...layers, ...next]), dropped: added.length - taken.length };
}

export function removeLayer(layers: readonly Layer[], id: string): Layer[] {
  return renumber(layers.filter((layer) => layer.id !== id));
}

export function moveLayer(layers: readonly Layer[], id: string, x: number, y: number, board: ArtboardSize): Layer[] {
  return layers.map((layer) => (layer.id === id ? { ...layer, ...clampPosition(layer, x, y, board) } : layer));
}

/** New size (whole px, at least 16, at most twice the artboard), position kept on the artboard. */
export function resizeLayer(
  layers: readonly Layer[],
  id: string,
  size: { width: number; height: number },
  board: ArtboardSize,
): Layer[] {
  return layers.map((layer) => {
    if (layer.id !== id) return layer;
    const width = round(clamp(size.width, LAYER_MIN_SIZE, board.width * 2));
    const height = round(clamp(size.height, LAYER_MIN_SIZE, board.height * 2));
    return { ...layer, width, height, ...clampPosition({ width, height }, layer.x, layer.y, board) };
  });
}

/** The size for a corner drag to `width`, keeping the layer's aspect ratio. */
export function keepAspect(layer: Pick<Layer, 'width' | 'height'>, width: number): { width: number; height: number } {
  const ratio = layer.height / layer.width;
  const w = Math.max(LAYER_MIN_SIZE, LAYER_MIN_SIZE / ratio, width);
  return { width: w, height: w * ratio };
}

export function setOpacity(layers: readonly Layer[], id: string, opacity: number): Layer[] {
  const value = Math.round(clamp(Number.isFinite(opacity) ? opacity : 1, 0, 1) * 100) / 100;
  return layers.map((layer) => (layer.id === id ? { ...layer, opacity: value } : layer));
}

/** Swaps a layer with its neighbour above ('up') or below ('down'); unchanged at the top or bottom. */
export function shiftLayer(layers: readonly Layer[], id: string, direction: 'up' | 'down'): Layer[] {
  const stack = byZ(layers);
  const i = stack.findIndex((layer) => layer.id === id);
  const j = direction === 'up' ? i + 1 : i - 1;
  if (i < 0 || j < 0 || j >= stack.length) return renumber(layers);
  const a = stack[i] as Layer;
  const b = stack[j] as Layer;
  const z = new Map(stack.map((layer, k) => [layer.id, k]));
  z.set(a.id, j);
  z.set(b.id, i);
  return layers.map((layer) => ({ ...layer, zIndex: z.get(layer.id) ?? layer.zIndex }));
}

/**
 * A new artboard size: positions follow each axis, sizes scale by the smaller factor (no distortion),
 * and every layer stays on the board.
 */
export function resizeArtboard(layers: readonly Layer[], from: ArtboardSize, to: ArtboardSize): Layer[] {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  const s = Math.min(sx, sy);
  return layers.map((layer) => {
    const width = Math.max(LAYER_MIN_SIZE, round(layer.width * s));
    const height = Math.max(LAYER_MIN_SIZE, round(layer.height * s));
    // Keep each layer's centre at the same relative spot.
    const cx = (layer.x + layer.width / 2) * sx;
    const cy = (layer.y + layer.height / 2) * sy;
    return { ...layer, width, height, ...clampPosition({ width, height }, cx - width / 2, cy - height / 2, to) };
  });
}

/** The largest scale at which the artboard fits the space shown for it (never above 1). */
export function fitScale(board: ArtboardSize, space: { width: number; height: number }): number {
  if (space.width <= 0 || space.height <= 0) return 0;
  return Math.min(1, space.width / board.width, space.height / board.height);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The artboard's shape as the server's aspectRatio ('16:9', '1:1', '40:21'). */
export function aspectRatioOf(board: ArtboardSize): string {
  const w = Math.max(1, round(board.width));
  const h = Math.max(1, round(board.height));
  const d = gcd(w, h);
  return `${w / d}:${h / d}`;
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

/**
 * The prompt sent to the composition call: the user's text, then the layout (the server takes no layout
 * field): images in the order sent, bottom layer first, each with its box as shares of the canvas.
 */
export function compositionPrompt(prompt: string, layers: readonly Layer[], board: ArtboardSize): string {
  const stack = byZ(layers);
  const lines = stack.map((layer, i) => {
    const left = layer.x / board.width;
    const top = layer.y / board.height;
    const box = `left ${pct(left)}, top ${pct(top)}, width ${pct(layer.width / board.width)}, height ${pct(layer.height / board.height)}`;
    const fade = layer.opacity < 1 ? `, opacity ${pct(layer.opacity)}` : '';
    return `Image ${i + 1} (${layer.name.slice(0, 60)}): ${box}${fade}.`;
  });
  const layout = [
    `Layout on a ${board.width}x${board.height} canvas. Images are given bottom layer first; later images are in front of earlier ones.`,
    ...lines,
  ].join('\n');
  const room = PROMPT_MAX - layout.length - 2;
  return `${prompt.trim().slice(0, Math.max(0, room))}\n\n${layout}`;
}

// ---- Saved sessions (spec 3: layers, canvasWidth, canvasHeight) ----

export interface CompositionResult {
  url: string;
  id: string | null;
  width: number | null;
  height: number | null;
}

export interface CompositionSession {
  layers: Layer[];
  canvasWidth: number;
  canvasHeight: number;
  prompt: string;
  result: CompositionResult | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** Reads saved session data; throws on data that is not a multi-composition state. */
export function parseCompositionSession(data: unknown): CompositionSession {
  if (!isRecord(data) || !Array.isArray(data.layers)) throw new Error('layers must be an array');
  if (typeof data.canvasWidth !== 'number' || typeof data.canvasHeight !== 'number')
    throw new Error('canvasWidth and canvasHeight must be numbers');
  const board = { width: clampArtboardSide(data.canvasWidth), height: clampArtboardSide(data.canvasHeight) };
  const layers = data.layers
    .filter(
      (item): item is Record<string, unknown> => isRecord(item) && typeof item.url === 'string' && item.url !== '',
    )
    .slice(0, MULTI_COMPOSITION_MAX)
    .map((item, i) => {
      const width = Math.max(LAYER_MIN_SIZE, num(item.width, board.width / 2));
      const height = Math.max(LAYER_MIN_SIZE, num(item.height, board.height / 2));
      return {
        id: typeof item.id === 'string' && item.id ? item.id : `layer-${i}`,
        url: item.url as string,
        name: typeof item.name === 'string' ? item.name : `Layer ${i + 1}`,
        width,
        height,
        ...clampPosition({ width, height }, num(item.x, 0), num(item.y, 0), board),
        zIndex: num(item.zIndex, i),
        opacity: clamp(num(item.opacity, 1), 0, 1),
      };
    });
  const result = isRecord(data.result) && typeof data.result.url === 'string' ? data.result : null;
  return {
    layers: renumber(layers),
    canvasWidth: board.width,
    canvasHeight: board.height,
    prompt: typeof data.prompt === 'string' ? data.prompt : '',
    result: result
      ? {
          url: result.url as string,
          id: typeof result.id === 'string' ? result.id : null,
          width: typeof result.width === 'number' ? result.width : null,
          height: typeof result.height === 'number' ? result.height : null,
        }
      : null,
  };
}

/** The state to save, or null when there is nothing in the workspace yet. */
export function captureCompositionSession(state: CompositionSession): CompositionSession | null {
  if (state.layers.length === 0 && !state.prompt.trim() && !state.result) return null;
  return {
    layers: byZ(state.layers).map(({ id, url, name, x, y, width, height, zIndex, opacity }) => ({
      id,
      url,
      name,
      x,
      y,
      width,
      height,
      zIndex,
      opacity,
    })),
    canvasWidth: state.canvasWidth,
    canvasHeight: state.canvasHeight,
    prompt: state.prompt,
    result: state.result,
  };
}

// ---- Uploaded files ----

/** The image type of a file from its first bytes (png, jpeg, webp, gif), or null when it is not one. */
export function sniffImageType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | null {
  const at = (i: number) => bytes[i] ?? -1;
  const ascii = (from: number, text: string) => [...text].every((ch, i) => at(from + i) === ch.charCodeAt(0));
  if (at(0) === 0x89 && ascii(1, 'PNG') && at(4) === 0x0d && at(5) === 0x0a) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  return null;
}
