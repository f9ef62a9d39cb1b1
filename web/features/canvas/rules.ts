// Pure multi-image canvas geometry (canvas spec 2, 3, 5 and 9): an image's box in its own aspect, grid placement
// of new images, zoom clamped around a point, viewport culling and the thumbnail-versus-full-resolution choice.
// No DOM imports.
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { THUMBNAIL_WIDTH } from '../../../common/api/media.constants.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Stage transform: a canvas point p is drawn at p * zoom + pan. */
export interface View {
  zoom: number;
  panX: number;
  panY: number;
}

export const DEFAULT_VIEW: View = { zoom: 1, panX: 0, panY: 0 };

interface Size {
  width: number;
  height: number;
}

/** Aspect ratios closer than this (relative) count as equal: a 480 px thumbnail rounds its height. */
const ASPECT_TOLERANCE = 0.01;

function validSize(size: Partial<Size> | undefined): size is Size {
  const width = size?.width ?? 0;
  const height = size?.height ?? 0;
  return width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height);
}

/** Whether `box` shows an image of `natural` size undistorted (same aspect within 1 %); true when unknown. */
export function keepsAspect(box: Size, natural: Partial<Size> | undefined): boolean {
  if (!validSize(natural) || !validSize(box)) return true;
  const want = natural.width / natural.height;
  return Math.abs(box.width / box.height - want) <= want * ASPECT_TOLERANCE;
}

/** The largest size of `natural`'s aspect that fits in `box` (CSS object-fit: contain); `box` when unknown. */
export function containSize(box: Size, natural: Partial<Size> | undefined): Size {
  if (!validSize(natural) || keepsAspect(box, natural)) return { width: box.width, height: box.height };
  const scale = Math.min(box.width / natural.width, box.height / natural.height);
  return { width: natural.width * scale, height: natural.height * scale };
}

/** `box` shrunk to `natural`'s aspect around its own centre (a saved box of another aspect); `box` if it keeps it. */
export function containRect<T extends Rect>(box: T, natural: Partial<Size> | undefined): T {
  const { width, height } = containSize(box, natural);
  if (width === box.width && height === box.height) return box;
  return { ...box, x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}

/** Where the n-th image (0-based) goes on the placement grid: 350 wide, 300 high, from offset 50. */
export function gridPosition(index: number): { x: number; y: number } {
  const { stepX, stepY, offset, columns } = CANVAS.grid;
  const i = Math.max(0, Math.floor(index));
  return { x: offset + (i % columns) * stepX, y: offset + Math.floor(i / columns) * stepY };
}

/** Grid rows searched for a free cell before falling back to the row below every image (far beyond 1000 images). */
const MAX_GRID_ROWS = 10_000;

/**
 * Where a new `size` image goes: the first cell of the placement grid (row by row, three columns of 350×300
 * from offset 50) where it overlaps no existing image. Images may have been moved anywhere or be larger than
 * a cell, so occupancy is decided by overlap, not by count. Linear in the images and the cells they cover.
 */
export function firstFreeGridPosition(
  images: readonly Rect[],
  size: { width: number; height: number },
): { x: number; y: number } {
  const { stepX, stepY, offset, columns } = CANVAS.grid;
  const blocked = new Set<number>();
  let lowest: number = offset;
  for (const image of images) {
    if (!(image.width > 0 && image.height > 0)) continue;
    lowest = Math.max(lowest, image.y + image.height);
    // Cells whose candidate rectangle [cell, cell + size) overlaps the image (strictly, touching is free).
    const firstCol = Math.max(0, Math.floor((image.x - size.width - offset) / stepX) + 1);
    const lastCol = Math.min(columns - 1, Math.ceil((image.x + image.width - offset) / stepX) - 1);
    const firstRow = Math.max(0, Math.floor((image.y - size.height - offset) / stepY) + 1);
    const lastRow = Math.min(MAX_GRID_ROWS - 1, Math.ceil((image.y + image.height - offset) / stepY) - 1);
    for (let row = firstRow; row <= lastRow; row += 1) {
      for (let col = firstCol; col <= lastCol; col += 1) blocked.add(row * columns + col);
    }
  }
  for (let index = 0; index < MAX_GRID_ROWS * columns; index += 1) {
    if (!blocked.has(index)) return gridPosition(index);
  }
  return { x: offset, y: lowest + offset };
}

/**
 * `preferred` if it overlaps no image, otherwise the same spot moved down one grid row (300) at a time until
 * it is free: e.g. an enhanced image 2150 px right of its source lands below an earlier one, never on it.
 */
export function freeSpotNear(images: readonly Rect[], preferred: Rect): Rect {
  const { stepY } = CANVAS.grid;
  let lowest = preferred.y;
  for (const image of images) lowest = Math.max(lowest, image.y + image.height);
  let spot = preferred;
  while (spot.y <= lowest && images.some((image) => intersects(image, spot))) {
    spot = { ...spot, y: spot.y + stepY };
  }
  return spot;
}

/**
 * The view that shows `rect` on a viewport of `viewport` canvas units at zoom 1: unchanged when it is already
 * fully visible; otherwise centred on it, zoomed out (never in) when it does not fit with the margin.
 */
export function revealRect(view: View, rect: Rect, viewport: { width: number; height: number }, margin = 40): View {
  const seen = visibleRect(view, viewport.width, viewport.height);
  const inside =
    rect.x >= seen.x &&
    rect.y >= seen.y &&
    rect.x + rect.width <= seen.x + seen.width &&
    rect.y + rect.height <= seen.y + seen.height;
  if (inside) return view;
  const fits = Math.min(
    (viewport.width - 2 * margin) / Math.max(1, rect.width),
    (viewport.height - 2 * margin) / Math.max(1, rect.height),
  );
  const zoom = clampZoom(Math.min(view.zoom, fits > 0 ? fits : view.zoom));
  return {
    zoom,
    panX: viewport.width / 2 - (rect.x + rect.width / 2) * zoom,
    panY: viewport.height / 2 - (rect.y + rect.height / 2) * zoom,
  };
}

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(CANVAS.zoom.max, Math.max(CANVAS.zoom.min, zoom));
}

/**
 * Zoom to `nextZoom` (clamped 0.1–5) keeping the canvas point under the screen point `pointer` fixed.
 */
export function zoomAround(view: View, nextZoom: number, pointer: { x: number; y: number }): View {
  const zoom = clampZoom(nextZoom);
  const cx = (pointer.x - view.panX) / view.zoom;
  const cy = (pointer.y - view.panY) / view.zoom;
  return { zoom, panX: pointer.x - cx * zoom, panY: pointer.y - cy * zoom };
}

/** One wheel notch: deltaY > 0 zooms out by 0.9, otherwise in by 1.1, around the pointer. */
export function wheelZoom(view: View, deltaY: number, pointer: { x: number; y: number }): View {
  const factor = deltaY > 0 ? CANVAS.zoom.wheelOut : CANVAS.zoom.wheelIn;
  return zoomAround(view, view.zoom * factor, pointer);
}

/** The canvas-space rectangle that a `width`×`height` screen viewport shows under `view`. */
export function visibleRect(view: View, width: number, height: number, margin = 0): Rect {
  return {
    x: (-view.panX - margin) / view.zoom,
    y: (-view.panY - margin) / view.zoom,
    width: (width + 2 * margin) / view.zoom,
    height: (height + 2 * margin) / view.zoom,
  };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
}

/** Spatial culling: the items that intersect the viewport (order kept). */
export function cullToViewport<T extends Rect>(items: readonly T[], viewport: Rect): T[] {
  return items.filter((item) => intersects(item, viewport));
}

/**
 * Draw the full-resolution url only when the image's on-screen width (device pixels) exceeds the
 * thumbnail's (THUMBNAIL_WIDTH, 480 px). Without a thumbnail the url is the only source.
 */
export function chooseSource(
  image: { thumbnailUrl: string | null; width: number },
  scale: number,
  thumbnailWidth: number = THUMBNAIL_WIDTH,
): 'thumbnail' | 'full' {
  if (!image.thumbnailUrl) return 'full';
  return image.width * scale > thumbnailWidth ? 'full' : 'thumbnail';
}

/** Scale that fits the 1200×800 element into an available box (never above 1). */
export function fitScale(availableWidth: number, availableHeight = Number.POSITIVE_INFINITY): number {
  const { width, height } = CANVAS.element;
  const s = Math.min(availableWidth / width, availableHeight / height, 1);
  return s > 0 && Number.isFinite(s) ? s : 1;
}

/** Where a canvas rectangle is drawn on the stage (CSS px from the stage's corner): p → (p·zoom + pan)·fit. */
export function screenRect(rect: Rect, view: View, fit: number): Rect {
  return {
    x: (rect.x * view.zoom + view.panX) * fit,
    y: (rect.y * view.zoom + view.panY) * fit,
    width: rect.width * view.zoom * fit,
    height: rect.height * view.zoom * fit,
  };
}

/** The smallest rectangle around all of `rects`, or null for none. */
export function boundingRect(rects: readonly Rect[]): Rect | null {
  if (rects.length === 0) return null;
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

export type FloatingSide = 'above' | 'below' | 'left' | 'right' | 'over';

/**
 * Where a floating panel of `size` goes beside `anchor` (both in the same px space) inside `bounds` (0,0 to
 * width×height), never covering the anchor while there is room: above it, else below, else beside it on the
 * side with more room; centred on the anchor along that edge and kept `margin` inside the bounds. A panel too
 * tall for any side but at least `minHeight` high goes above or below, where there is more room, cut to that room
 * (`maxHeight`: it scrolls). Only when nothing fits ('over': the anchor fills the view) it lies at the top of the
 * bounds, over the anchor.
 */
export function floatingPlacement(
  anchor: Rect,
  size: Size,
  bounds: Size,
  gap = 8,
  margin = 8,
  minHeight = size.height,
): { x: number; y: number; side: FloatingSide; maxHeight?: number } {
  const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(value, Math.max(low, high)));
  const alongX = clamp(anchor.x + (anchor.width - size.width) / 2, margin, bounds.width - size.width - margin);
  const alongY = clamp(anchor.y + (anchor.height - size.height) / 2, margin, bounds.height - size.height - margin);
  const fitsAcross = size.width + 2 * margin <= bounds.width;
  const fitsDown = size.height + 2 * margin <= bounds.height;
  // An anchor scrolled out of sight still gets its panel inside the bounds, on the side it lies.
  const maxX = bounds.width - size.width - margin;
  const maxY = bounds.height - size.height - margin;
  const above = anchor.y - gap - size.height;
  if (fitsAcross && above >= margin) return { x: alongX, y: Math.min(above, maxY), side: 'above' };
  const below = anchor.y + anchor.height + gap;
  if (fitsAcross && below <= maxY) return { x: alongX, y: Math.max(below, margin), side: 'below' };
  const left = anchor.x - gap - size.width;
  const right = anchor.x + anchor.width + gap;
  const roomLeft = left >= margin;
  const roomRight = right <= maxX;
  if (fitsDown && (roomLeft || roomRight)) {
    const useRight = roomRight && (!roomLeft || bounds.width - anchor.x - anchor.width >= anchor.x);
    return useRight
      ? { x: Math.max(right, margin), y: alongY, side: 'right' }
      : { x: Math.min(left, maxX), y: alongY, side: 'left' };
  }
  const roomAbove = anchor.y - gap - margin;
  const roomBelow = bounds.height - margin - below;
  const room = Math.max(roomAbove, roomBelow);
  if (fitsAcross && room >= minHeight) {
    return roomAbove >= roomBelow
      ? { x: alongX, y: margin, side: 'above', maxHeight: roomAbove }
      : { x: alongX, y: below, side: 'below', maxHeight: roomBelow };
  }
  return { x: alongX, y: margin, side: 'over' };
}

/**
 * A spot for a result of `size` beside its `source`: to its right with a `gap`, moved down a grid row at a time
 * until it overlaps no image (freeSpotNear).
 */
export function besideSpot(images: readonly Rect[], source: Rect, size: Size, gap: number = CANVAS.grid.offset): Rect {
  return freeSpotNear(images, {
    x: source.x + source.width + gap,
    y: source.y,
    width: size.width,
    height: size.height,
  });
}
