// The multi-image canvas store (canvas spec 2, 3 and 4). The canvas editor, its dialogs
// (web/features/canvas/dialogs/**) and the Cinema Sequences panel all read and write this one store.
import { create } from 'zustand';
import { CANVAS, type CanvasFormat } from '../../../common/api/canvas-images.constants.ts';
import {
  clampZoom,
  containRect,
  containSize,
  DEFAULT_VIEW,
  firstFreeGridPosition,
  keepsAspect,
  type Rect,
  revealRect,
  type View,
} from './rules.ts';

export interface CanvasImage {
  id: string;
  url: string;
  thumbnailUrl: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  name: string;
  prompt?: string;
  assetId?: string;
  naturalWidth?: number;
  naturalHeight?: number;
  isSelected?: boolean;
  /** The engine that made it ('local' preview or a vendor), when the studio made it. */
  engine?: string | null;
}

export type CanvasTool = 'select' | 'drag' | 'pan';
type CanvasImageModel = 'seedream4' | 'nanobana';
export type CanvasInputMode = 'generate' | 'upload';
/** Which canvas dialog is open; the dialogs render themselves from this. */
type CanvasDialog = 'quick-edit' | 'image-enhance' | 'video-enhance' | 'region-edit' | null;

/** A new image: everything but its position (placed on the grid) and the id (generated when absent). */
export type NewCanvasImage = Omit<CanvasImage, 'x' | 'y' | 'id' | 'width' | 'height'> &
  Partial<Pick<CanvasImage, 'id' | 'x' | 'y' | 'width' | 'height'>>;

export interface CanvasState {
  images: CanvasImage[];
  selectedIds: string[];
  tool: CanvasTool;
  format: CanvasFormat;
  imageModel: CanvasImageModel;
  zoom: number;
  panX: number;
  panY: number;
  inputMode: CanvasInputMode;
  enhancementsInProgress: number;
  /** Video enhancements among them: the video enhance buttons wait while any runs (spec 4). */
  videoEnhancementsInProgress: number;
  openDialog: CanvasDialog;
  /** The canvas area the stage shows at zoom 1 (canvas units); the stage reports it as the window resizes. */
  viewport: { width: number; height: number };

  /**
   * Adds an image in its natural aspect, as large as fits in its box (300×200 unless given; the box itself when
   * the natural size is unknown, until `fitToImage`), where it is put or else in the first grid cell where it
   * overlaps no other image; returns it, or null at the 1000 limit.
   */
  addImage: (image: NewCanvasImage) => CanvasImage | null;
  /**
   * The image's pixels loaded at `loaded` size (`full`: its own url, not the thumbnail): a box of another aspect
   * (a saved canvas from before boxes kept the aspect, an unknown natural size) shrinks to it around its centre.
   */
  fitToImage: (id: string, loaded: { width: number; height: number }, full: boolean) => void;
  updateImage: (id: string, patch: Partial<Omit<CanvasImage, 'id'>>) => void;
  removeImages: (ids: readonly string[]) => void;
  clearAll: () => void;
  select: (ids: readonly string[]) => void;
  toggleSelect: (id: string) => void;
  setTool: (tool: CanvasTool) => void;
  /** '4K|TV' uses seedream4 (16:9, 3840×2160); '2K|Mobile' uses nanobana (1:1, 2048×2048). */
  setFormat: (format: CanvasFormat) => void;
  setImageModel: (model: CanvasImageModel) => void;
  setInputMode: (mode: CanvasInputMode) => void;
  setView: (view: { zoom: number; panX: number; panY: number }) => void;
  resetView: () => void;
  setViewport: (viewport: { width: number; height: number }) => void;
  /** Pans (zooming out if needed) so that the rectangle is in sight; nothing when it already is. */
  reveal: (rect: Rect) => void;
  startEnhancement: (kind?: 'image' | 'video') => void;
  finishEnhancement: (kind?: 'image' | 'video') => void;
  setOpenDialog: (dialog: CanvasDialog) => void;
  /** Replaces the whole canvas with a saved one (editor sessions); dialogs close, enhancement counters stay. */
  restore: (snapshot: CanvasSnapshot) => void;
}

/** What a saved session keeps of the canvas: its images, view, selection, tool, input mode and format. */
export interface CanvasSnapshot {
  images: CanvasImage[];
  selectedIds: string[];
  zoom: number;
  panX: number;
  panY: number;
  tool: CanvasTool;
  inputMode: CanvasInputMode;
  format: CanvasFormat;
}

let counter = 0;
function newId(): string {
  counter += 1;
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${counter}`;
  return `img-${random}`;
}

const initial = {
  images: [] as CanvasImage[],
  selectedIds: [] as string[],
  tool: 'select' as CanvasTool,
  format: '4K|TV' as CanvasFormat,
  imageModel: CANVAS.formats['4K|TV'].model as CanvasImageModel,
  ...DEFAULT_VIEW,
  inputMode: 'generate' as CanvasInputMode,
  enhancementsInProgress: 0,
  videoEnhancementsInProgress: 0,
  openDialog: null as CanvasDialog,
  viewport: { width: CANVAS.element.width, height: CANVAS.element.height },
};

function withSelection(images: CanvasImage[], ids: readonly string[]): CanvasImage[] {
  const set = new Set(ids);
  return images.map((img) =>
    Boolean(img.isSelected) === set.has(img.id) ? img : { ...img, isSelected: set.has(img.id) },
  );
}

export const useCanvas = create<CanvasState>((set, get) => ({
  ...initial,

  addImage: (image) => {
    const { images } = get();
    if (images.length >= CANVAS.maxImages) return null;
    const box = { width: image.width ?? CANVAS.newImage.width, height: image.height ?? CANVAS.newImage.height };
    const { width, height } = containSize(box, { width: image.naturalWidth, height: image.naturalHeight });
    const slot =
      image.x !== undefined && image.y !== undefined
        ? { x: image.x, y: image.y }
        : firstFreeGridPosition(images, { width, height });
    const placed: CanvasImage = { ...image, id: image.id ?? newId(), ...slot, width, height, isSelected: false };
    set({ images: [...images, placed] });
    return placed;
  },
  fitToImage: (id, loaded, full) =>
    set((s) => {
      const image = s.images.find((img) => img.id === id);
      if (!image || keepsAspect(image, loaded)) return s;
      const recorded = { width: image.naturalWidth, height: image.naturalHeight };
      const natural = full
        ? { naturalWidth: loaded.width, naturalHeight: loaded.height }
        : keepsAspect(loaded, recorded)
          ? {}
          : { naturalWidth: undefined, naturalHeight: undefined };
      const fixed = { ...containRect(image, loaded), ...natural };
      return { images: s.images.map((img) => (img.id === id ? fixed : img)) };
    }),
  updateImage: (id, patch) =>
    set((s) => ({ images: s.images.map((img) => (img.id === id ? { ...img, ...patch, id } : img)) })),
  removeImages: (ids) => {
    const gone = new Set(ids);
    set((s) => ({
      images: s.images.filter((img) => !gone.has(img.id)),
      selectedIds: s.selectedIds.filter((id) => !gone.has(id)),
    }));
  },
  clearAll: () => set({ images: [], selectedIds: [], openDialog: null }),
  select: (ids) =>
    set((s) => {
      const known = new Set(s.images.map((img) => img.id));
      const selectedIds = [...new Set(ids)].filter((id) => known.has(id));
      return { selectedIds, images: withSelection(s.images, selectedIds) };
    }),
  toggleSelect: (id) => {
    const { selectedIds } = get();
    get().select(selectedIds.includes(id) ? selectedIds.filter((x) => x !== id) : [...selectedIds, id]);
  },
  setTool: (tool) => set({ tool }),
  setFormat: (format) => set({ format, imageModel: CANVAS.formats[format].model }),
  setImageModel: (imageModel) => set({ imageModel }),
  setInputMode: (inputMode) => set({ inputMode }),
  setView: ({ zoom, panX, panY }) => set({ zoom: clampZoom(zoom), panX, panY }),
  resetView: () => set({ ...DEFAULT_VIEW }),
  setViewport: (viewport) => {
    const current = get().viewport;
    if (current.width !== viewport.width || current.height !== viewport.height) set({ viewport });
  },
  reveal: (rect) => {
    const { zoom, panX, panY, viewport } = get();
    const view = revealRect({ zoom, panX, panY }, rect, viewport);
    if (view.zoom !== zoom || view.panX !== panX || view.panY !== panY) set(view);
  },
  startEnhancement: (kind = 'image') =>
    set((s) => ({
      enhancementsInProgress: s.enhancementsInProgress + 1,
      videoEnhancementsInProgress: s.videoEnhancementsInProgress + (kind === 'video' ? 1 : 0),
    })),
  finishEnhancement: (kind = 'image') =>
    set((s) => ({
      enhancementsInProgress: Math.max(0, s.enhancementsInProgress - 1),
      videoEnhancementsInProgress: Math.max(0, s.videoEnhancementsInProgress - (kind === 'video' ? 1 : 0)),
    })),
  setOpenDialog: (openDialog) => set({ openDialog }),
  restore: (snapshot) => {
    const images = snapshot.images.slice(0, CANVAS.maxImages).map((img) => ({ ...img }));
    const known = new Set(images.map((img) => img.id));
    const selectedIds = [...new Set(snapshot.selectedIds)].filter((id) => known.has(id));
    set({
      images: withSelection(images, selectedIds),
      selectedIds,
      zoom: clampZoom(snapshot.zoom),
      panX: snapshot.panX,
      panY: snapshot.panY,
      tool: snapshot.tool,
      inputMode: snapshot.inputMode,
      format: snapshot.format,
      imageModel: CANVAS.formats[snapshot.format].model,
      openDialog: null,
    });
  },
}));

/** The canvas as a session keeps it (a copy; the store's arrays are never shared). */
export function snapshotCanvas(state: CanvasState): CanvasSnapshot {
  return {
    images: state.images.map((img) => ({ ...img })),
    selectedIds: [...state.selectedIds],
    zoom: state.zoom,
    panX: state.panX,
    panY: state.panY,
    tool: state.tool,
    inputMode: state.inputMode,
    format: state.format,
  };
}

/** The selected images, in canvas order. */
export function selectedImages(state: Pick<CanvasState, 'images' | 'selectedIds'>): CanvasImage[] {
  const ids = new Set(state.selectedIds);
  return state.images.filter((img) => ids.has(img.id));
}

/**
 * The view the stage shows right now, also mid-gesture (the store's view is committed only when a pan or zoom
 * settles): what floats over the stage, such as the selection toolbar, follows this one.
 */
export const useStageView = create<View>(() => ({ ...DEFAULT_VIEW }));
