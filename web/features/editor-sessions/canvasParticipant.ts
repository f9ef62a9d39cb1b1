// The canvas's part in saved sessions: reports the canvas and Cinema Sequences stores as multi-image-canvas
// data, restores them (replacing the current canvas) and draws a small JPEG preview of the stage.
import { containRect } from '../canvas/rules.ts';
import { type CanvasImage, snapshotCanvas, useCanvas } from '../canvas/store.ts';
import { snapshotSequences, useSequences } from '../sequences/store.ts';
import { canvasSessionData, readCanvasSession } from './canvasSession.ts';
import { useSessionParticipant } from './registry.ts';

const THUMB_W = 240;
const THUMB_H = 160;
const BACKGROUND = '#18181b';

function thumbCanvas(): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } | null {
  const canvas = document.createElement('canvas');
  canvas.width = THUMB_W;
  canvas.height = THUMB_H;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, THUMB_W, THUMB_H);
  return { canvas, ctx };
}

function toJpeg(canvas: HTMLCanvasElement): string | null {
  try {
    return canvas.toDataURL('image/jpeg', 0.72);
  } catch {
    // A cross-origin image taints the canvas: the session is saved without a preview.
    return null;
  }
}

/** Fallback: the stage's layers (konva draws each into its own <canvas>) scaled down, as the user sees them. */
function stageThumbnail(): string | null {
  const layers = document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas');
  if (layers.length === 0) return null;
  const target = thumbCanvas();
  if (!target) return null;
  for (const layer of layers) {
    if (!(layer.width > 0 && layer.height > 0)) continue;
    // The stage has the window's shape, not the preview's: fitted whole, never stretched.
    const box = containRect({ x: 0, y: 0, width: THUMB_W, height: THUMB_H }, layer);
    target.ctx.drawImage(layer, box.x, box.y, box.width, box.height);
  }
  return toJpeg(target.canvas);
}

function loadThumb(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const img = new Image();
    const timer = setTimeout(() => resolve(null), 3000);
    img.onload = () => {
      clearTimeout(timer);
      resolve(img);
    };
    img.onerror = () => {
      clearTimeout(timer);
      resolve(null);
    };
    img.src = src;
  });
}

/** The images as laid out on the canvas (up to the first 24), fitted into the preview. */
async function layoutThumbnail(images: readonly CanvasImage[]): Promise<string | null> {
  const target = thumbCanvas();
  if (!target) return null;
  const shown = images.slice(0, 24);
  const left = Math.min(...shown.map((img) => img.x));
  const top = Math.min(...shown.map((img) => img.y));
  const right = Math.max(...shown.map((img) => img.x + img.width));
  const bottom = Math.max(...shown.map((img) => img.y + img.height));
  const pad = 8;
  const scale = Math.min((THUMB_W - pad * 2) / (right - left || 1), (THUMB_H - pad * 2) / (bottom - top || 1));
  const offsetX = (THUMB_W - (right - left) * scale) / 2;
  const offsetY = (THUMB_H - (bottom - top) * scale) / 2;
  const loaded = await Promise.all(shown.map((img) => loadThumb(img.thumbnailUrl ?? img.url)));
  let drawn = 0;
  shown.forEach((img, i) => {
    const element = loaded[i];
    if (!element) return;
    // In the picture's own aspect, as the canvas draws it, even in a box not yet corrected (off screen).
    const box = containRect(img, { width: element.naturalWidth, height: element.naturalHeight });
    const x = offsetX + (box.x - left) * scale;
    const y = offsetY + (box.y - top) * scale;
    target.ctx.drawImage(element, x, y, box.width * scale, box.height * scale);
    drawn += 1;
  });
  return drawn > 0 ? toJpeg(target.canvas) : null;
}

/** The canvas and Cinema Sequences as multi-image-canvas session data, or null when there is nothing on them. */
export function captureCanvasSession(): Record<string, unknown> | null {
  const canvas = snapshotCanvas(useCanvas.getState());
  const sequences = snapshotSequences(useSequences.getState());
  // An empty canvas has nothing worth a session ('No session data to save').
  if (canvas.images.length === 0 && sequences.items.length === 0 && !sequences.movieScript.trim()) return null;
  return canvasSessionData(canvas, sequences);
}

/** Replaces the canvas and Cinema Sequences with saved data; throws 'Invalid session data: …' on a wrong shape. */
export function restoreCanvasSession(data: Record<string, unknown>): void {
  const { canvas, sequences } = readCanvasSession(data);
  useCanvas.getState().restore(canvas);
  useSequences.getState().restore(sequences);
}

/** Registers the canvas tools view as the multi-image-canvas session participant while it is mounted. */
export function useCanvasSessionParticipant(): void {
  useSessionParticipant('multi-image-canvas', {
    capture: captureCanvasSession,
    restore: restoreCanvasSession,
    thumbnail: async () => {
      const images = useCanvas.getState().images;
      if (images.length === 0) return null;
      return (await layoutThumbnail(images)) ?? stageThumbnail();
    },
  });
}
