// window.__genproCanvas: a read-only view of the canvas store in every build (browser tests read positions
// and the selection), plus `seed(n)` for the benchmark, only in dev builds or with `?bench=1` in the URL.
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { type CanvasState, useCanvas } from './store.ts';

interface CanvasDebugHandle {
  state: () => CanvasState;
  /** Replaces the canvas with `n` placeholder images on the placement grid (bench only). */
  seed?: (n: number) => number;
}

declare global {
  interface Window {
    __genproCanvas?: CanvasDebugHandle;
  }
}

const COLOURS = ['#6366f1', '#f59e0b', '#10b981', '#ef4444', '#0ea5e9', '#a855f7', '#84cc16', '#f43f5e'];

function swatch(colour: string, width: number, height: number, label: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return '';
  const gradient = ctx.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, colour);
  gradient.addColorStop(1, '#18181b');
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#fff';
  ctx.font = `${Math.round(height / 6)}px sans-serif`;
  ctx.fillText(label, width / 12, height / 2);
  return canvas.toDataURL('image/jpeg', 0.8);
}

function seed(n: number): number {
  const count = Math.max(0, Math.min(CANVAS.maxImages, Math.floor(n)));
  const sources = COLOURS.map((colour, i) => ({
    url: swatch(colour, 1920, 1280, `full ${i + 1}`),
    thumbnailUrl: swatch(colour, 480, 320, `thumb ${i + 1}`),
  }));
  const store = useCanvas.getState();
  store.clearAll();
  store.resetView();
  for (let i = 0; i < count; i += 1) {
    const source = sources[i % sources.length];
    store.addImage({ ...source, name: `Bench image ${i + 1}`, id: `bench-${i}` });
  }
  return useCanvas.getState().images.length;
}

/** Installs the handle once; the seeding helper only in dev or with ?bench=1. */
export function installCanvasDebugHandle() {
  if (typeof window === 'undefined') return;
  const bench = import.meta.env.DEV || new URLSearchParams(window.location.search).get('bench') === '1';
  window.__genproCanvas = { state: () => useCanvas.getState(), ...(bench ? { seed } : {}) };
}
