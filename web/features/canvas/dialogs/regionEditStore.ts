// The region edit modal's state and actions, apart from its rendering: the loaded image, the regions and their
// prompts and dropped images, which region is active or a drop target, and Generate and Upscale. One store per
// open modal (createRegionEditStore); the drawing surface is RegionSelector's.
import i18next from 'i18next';
import { toast } from 'sonner';
import { createStore } from 'zustand/vanilla';
import { CANVAS } from '../../../../common/api/canvas-images.constants.ts';
import { type CanvasImage, useCanvas } from '../store.ts';
import { failureText, generateMultiComposition, imageRef } from './api.ts';
import { startImageEnhancement } from './enhance.ts';
import {
  CANVAS_DIALOG_MESSAGES,
  type RegionRect,
  regionCanvasSize,
  regionGenerateCheck,
  regionPrompt,
  regionToImageMask,
} from './rules.ts';

export interface Region extends RegionRect {
  id: string;
  prompt: string;
  droppedImage: { url: string; name: string } | null;
}

interface LoadedImage {
  element: HTMLImageElement;
  natural: { width: number; height: number };
  display: { width: number; height: number; scale: number };
}

let regionCounter = 0;
function newRegionId() {
  regionCounter += 1;
  return `region-${Date.now().toString(36)}-${regionCounter}`;
}

export interface RegionEditState {
  loaded: LoadedImage | null;
  loadError: boolean;
  regions: Region[];
  activeId: string | null;
  dropId: string | null;
  stylePrompt: string;
  busyId: string | null;
  result: CanvasImage | null;
  upscaling: boolean;
  /** The modal opened on an image: everything of the last one goes. */
  reset: () => void;
  setLoaded: (element: HTMLImageElement) => void;
  setLoadError: () => void;
  /** A rectangle was drawn: it becomes a region, and the active one. */
  addRegion: (rect: RegionRect) => void;
  updateRegion: (id: string, patch: Partial<Region>) => void;
  removeRegion: (id: string) => void;
  setActive: (id: string | null) => void;
  setDropTarget: (id: string | null) => void;
  setStylePrompt: (stylePrompt: string) => void;
  /** Generate for a region: its prompt (after the style prompt) and image, masked to it, added to the canvas. */
  generate: (regionId: string | null, image: CanvasImage | undefined) => Promise<void>;
  upscale: () => Promise<void>;
}

export function createRegionEditStore() {
  return createStore<RegionEditState>()((set, get) => ({
    loaded: null,
    loadError: false,
    regions: [],
    activeId: null,
    dropId: null,
    stylePrompt: '',
    busyId: null,
    result: null,
    upscaling: false,
    reset: () => set({ loaded: null, loadError: false, regions: [], activeId: null, result: null }),
    setLoaded: (element) => {
      const natural = { width: element.naturalWidth, height: element.naturalHeight };
      set({ loaded: { element, natural, display: regionCanvasSize(natural) } });
    },
    setLoadError: () => set({ loadError: true }),
    addRegion: (rect) => {
      const region: Region = { ...rect, id: newRegionId(), prompt: '', droppedImage: null };
      set((s) => ({ regions: [...s.regions, region], activeId: region.id }));
    },
    updateRegion: (id, patch) =>
      set((s) => ({ regions: s.regions.map((r) => (r.id === id ? { ...r, ...patch } : r)) })),
    removeRegion: (id) =>
      set((s) => ({ regions: s.regions.filter((r) => r.id !== id), activeId: s.activeId === id ? null : s.activeId })),
    setActive: (activeId) => set({ activeId }),
    setDropTarget: (dropId) => set({ dropId }),
    setStylePrompt: (stylePrompt) => set({ stylePrompt }),
    generate: async (regionId, image) => {
      const { regions, loaded, busyId, stylePrompt } = get();
      const t = i18next.t.bind(i18next);
      const region = regions.find((r) => r.id === regionId) ?? null;
      const check = regionGenerateCheck({
        hasRegion: Boolean(region),
        imageLoaded: Boolean(loaded),
        prompt: region?.prompt ?? '',
        busy: busyId !== null,
      });
      if (check === 'alert') {
        toast.error(t('canvasDialogs.region.selectRegion'));
        return;
      }
      if (check === 'blocked' || !region || !loaded || !image) return;
      set({ busyId: region.id });
      try {
        const reply = await generateMultiComposition({
          baseImage: imageRef(image),
          compositionSteps: [
            {
              id: region.id,
              prompt: regionPrompt(region.prompt, stylePrompt),
              regionMask: regionToImageMask(region, loaded.display.scale, loaded.natural),
              referenceImage: region.droppedImage?.url,
              referenceImageName: region.droppedImage?.name,
            },
          ],
        });
        const steps = reply.data.steps;
        const last = steps[steps.length - 1];
        const url = last?.outputImage ?? reply.data.finalImage;
        if (!url) throw new Error('The composition returned no image');
        const source = useCanvas.getState().images.find((img) => img.id === image.id) ?? image;
        const added = useCanvas.getState().addImage({
          url,
          thumbnailUrl: last?.thumbnail_url ?? null,
          name: `${image.name} (region)`,
          prompt: region.prompt,
          assetId: last?.assetId,
          naturalWidth: loaded.natural.width,
          naturalHeight: loaded.natural.height,
          width: source.width,
          height: source.height,
        });
        if (added) useCanvas.getState().reveal(added);
        else toast.error(t('canvasEditor.limitReached', { max: CANVAS.maxImages }));
        set({
          result: added ?? { ...source, id: `result-${region.id}`, url, thumbnailUrl: null, assetId: last?.assetId },
        });
        toast.success(t('canvasDialogs.region.done'));
      } catch (error) {
        console.error('Region generation failed', error);
        toast.error(failureText(error, CANVAS_DIALOG_MESSAGES.compositionFailed));
      } finally {
        set({ busyId: null });
      }
    },
    upscale: async () => {
      const { result, upscaling } = get();
      if (!result || upscaling) return;
      set({ upscaling: true });
      await startImageEnhancement(
        result,
        'image-upscaler',
        i18next.t('canvasDialogs.enhance.services.image-upscaler.name'),
      );
      set({ upscaling: false });
    },
  }));
}
