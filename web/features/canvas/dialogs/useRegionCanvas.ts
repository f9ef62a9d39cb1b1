// The region edit modal's drawing surface: loading the source image, drawing the regions, drawing a new one with
// the pointer, and dropping an image onto a region. RegionSelector does the geometry; regionEditStore holds the state.
import { type DragEvent, type PointerEvent, useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useStore } from 'zustand';
import { CANVAS_IMAGES } from '../../../../common/api/canvas-images.constants.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { localizeMessage } from '../../../i18n/localize.ts';
import { blobAsDataUri } from './api.ts';
import type { RegionSelector } from './RegionSelector.ts';
import type { createRegionEditStore, Region } from './regionEditStore.ts';
import { isImageFile } from './rules.ts';

export type RegionEditStore = ReturnType<typeof createRegionEditStore>;

function loadElement(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('Image failed to load'));
    img.src = src;
  });
}

const selectable = (regions: readonly Region[]) => regions.map((r) => ({ ...r, hasImage: Boolean(r.droppedImage) }));

export function useRegionCanvas(store: RegionEditStore, selector: RegionSelector, open: boolean, imageUrl?: string) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const loaded = useStore(store, (s) => s.loaded);
  const regions = useStore(store, (s) => s.regions);
  const activeId = useStore(store, (s) => s.activeId);
  const dropId = useStore(store, (s) => s.dropId);
  const { setActive, setDropTarget, updateRegion } = store.getState();

  // The source is drawn from its own (same-origin) URL and sent to the server by that URL, never as bytes: a 4K
  // PNG is over the 10 MB inline limit.
  useEffect(() => {
    if (!open || !imageUrl) return;
    const controller = new AbortController();
    store.getState().reset();
    selector.forgetAll();
    (async () => {
      try {
        const element = await loadElement(imageUrl);
        if (controller.signal.aborted) return;
        store.getState().setLoaded(element);
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('Region edit: image failed to load', error);
        store.getState().setLoadError();
      }
    })();
    return () => controller.abort();
  }, [open, imageUrl, store, selector]);

  const draw = useCallback(() => {
    const ctx = canvasRef.current?.getContext('2d');
    if (!ctx || !loaded) return;
    selector.draw(ctx, {
      image: loaded.element,
      width: loaded.display.width,
      height: loaded.display.height,
      regions: selectable(regions),
      activeId,
      dropId,
    });
  }, [selector, loaded, regions, activeId, dropId]);

  useEffect(draw, [draw]);

  const pointOf = (event: { clientX: number; clientY: number }) => {
    const canvas = canvasRef.current;
    return canvas ? selector.pointAt(event, canvas, canvas.getBoundingClientRect()) : null;
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!loaded || event.button !== 0) return;
    const point = pointOf(event);
    if (!point) return;
    const press = selector.press(point, selectable(regions), event.shiftKey);
    if (press.kind === 'select') {
      setActive(press.id);
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    draw();
  };

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!selector.dragging) return;
    const point = pointOf(event);
    if (point && selector.move(point)) draw();
  };

  const onPointerUp = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!selector.dragging || !loaded) return;
    const rect = selector.release(pointOf(event), loaded.display);
    if (rect) store.getState().addRegion(rect);
    else draw(); // under 20x20: discarded
  };

  const onDragOver = (event: DragEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    const hit = selector.regionAt(regions, pointOf(event));
    event.dataTransfer.dropEffect = hit ? 'copy' : 'none';
    setDropTarget(hit?.id ?? null);
  };

  const onDrop = async (event: DragEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    setDropTarget(null);
    const hit = selector.regionAt(regions, pointOf(event));
    const file = event.dataTransfer.files[0];
    if (!hit) {
      toast.info(t('canvasDialogs.region.dropOnRegion'));
      return;
    }
    if (!file || !isImageFile(file)) {
      toast.error(t('canvasDialogs.region.imagesOnly'));
      return;
    }
    // A dropped file travels inline, where the 10 MB input limit applies: say so now rather than after Generate.
    if (file.size > CANVAS_IMAGES.inputMaxMb * 1024 * 1024) {
      toast.error(localizeMessage(MESSAGES.upload.tooLarge(CANVAS_IMAGES.inputMaxMb)));
      return;
    }
    try {
      const url = await blobAsDataUri(file);
      const element = await loadElement(url);
      selector.setDroppedImage(hit.id, element, { width: element.naturalWidth, height: element.naturalHeight });
      updateRegion(hit.id, { droppedImage: { url, name: file.name } });
      setActive(hit.id);
    } catch (error) {
      console.error('Region drop failed', error);
      toast.error(t('canvasDialogs.region.imagesOnly'));
    }
  };

  const removeRegion = (id: string) => {
    selector.forget(id);
    store.getState().removeRegion(id);
  };

  return { canvasRef, draw, onPointerDown, onPointerMove, onPointerUp, onDragOver, onDrop, removeRegion };
}
