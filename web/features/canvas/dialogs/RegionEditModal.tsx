// Region edit modal (canvas spec 2, 3, 4, 5, 9): the image drawn on a canvas scaled to fit 800x600, rectangles
// drawn with the mouse (under 20x20 discarded), images dropped onto regions (image files only), per-region
// prompt and Generate (region-masked reference-chain composition), Upscale of the result and Download.
// The state and actions are regionEditStore's, the drawing surface RegionSelector's; this renders them.
import { Download, ImagePlus, Sparkles, Trash2, Wand2 } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type DragEvent, type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useStore } from 'zustand';
import { CANVAS_IMAGES } from '../../../../common/api/canvas-images.constants.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { localizeMessage } from '../../../i18n/localize.ts';
import { Button, buttonClass } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { DialogCloseButton } from '../../../ui/DialogTitleBar.tsx';
import { inputClass } from '../../../ui/Field.tsx';
import { useCanvas } from '../store.ts';
import { blobAsDataUri } from './api.ts';
import { RegionSelector } from './RegionSelector.ts';
import { createRegionEditStore, type Region } from './regionEditStore.ts';
import { isImageFile, REGION_COLOURS, regionLook } from './rules.ts';

export interface RegionEditModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  imageId: string;
}

function loadElement(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('Image failed to load'));
    img.src = src;
  });
}

/** Same-origin media URLs download through `?download=1` (spec 7 media proxies). */
function downloadHref(url: string): string {
  if (!url.startsWith('/api/')) return url;
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}

const selectable = (regions: readonly Region[]) => regions.map((r) => ({ ...r, hasImage: Boolean(r.droppedImage) }));

export function RegionEditModal({ open, onOpenChange, imageId }: RegionEditModalProps) {
  const { t } = useTranslation();
  const image = useCanvas((s) => s.images.find((img) => img.id === imageId));
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [store] = useState(createRegionEditStore);
  const [selector] = useState(() => new RegionSelector());
  const loaded = useStore(store, (s) => s.loaded);
  const loadError = useStore(store, (s) => s.loadError);
  const regions = useStore(store, (s) => s.regions);
  const activeId = useStore(store, (s) => s.activeId);
  const dropId = useStore(store, (s) => s.dropId);
  const stylePrompt = useStore(store, (s) => s.stylePrompt);
  const busyId = useStore(store, (s) => s.busyId);
  const result = useStore(store, (s) => s.result);
  const upscaling = useStore(store, (s) => s.upscaling);
  const { setActive, setDropTarget, setStylePrompt, updateRegion } = store.getState();

  const imageUrl = image?.url;

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

  const generate = (regionId: string | null) => store.getState().generate(regionId, image);
  const upscale = () => store.getState().upscale();

  const active = regions.find((r) => r.id === activeId) ?? null;

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content
          data-testid="region-modal"
          className="fixed left-1/2 top-1/2 z-50 flex h-[90vh] w-[90vw] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-line bg-surface shadow-2xl"
        >
          <div className="flex items-center gap-3 border-b border-line px-5 py-3">
            <Wand2 className="size-5 text-accent" aria-hidden />
            <Dialog.Title className="flex-1 text-base font-semibold">{t('canvasDialogs.region.title')}</Dialog.Title>
            <DialogCloseButton />
          </div>
          <Dialog.Description className="px-5 pt-2 text-xs text-muted">
            {t('canvasDialogs.region.help')}
          </Dialog.Description>
          <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-5 lg:flex-row">
            <div className="flex min-w-0 flex-1 flex-col items-center gap-3">
              <label className="block w-full space-y-1.5 text-sm">
                <span className="font-medium">{t('canvasDialogs.region.stylePrompt')}</span>
                <input
                  className={cn(inputClass, 'h-10')}
                  value={stylePrompt}
                  onChange={(e) => setStylePrompt(e.target.value)}
                  placeholder={t('canvasDialogs.region.stylePlaceholder')}
                  data-testid="region-style-prompt"
                />
              </label>
              {loaded ? (
                <canvas
                  ref={canvasRef}
                  data-testid="region-canvas"
                  width={loaded.display.width}
                  height={loaded.display.height}
                  className="max-w-full touch-none cursor-crosshair rounded-lg border border-line"
                  style={{
                    width: loaded.display.width,
                    aspectRatio: `${loaded.display.width} / ${loaded.display.height}`,
                  }}
                  onPointerDown={onPointerDown}
                  onPointerMove={onPointerMove}
                  onPointerUp={onPointerUp}
                  onPointerCancel={() => {
                    selector.cancel();
                    draw();
                  }}
                  onDragOver={onDragOver}
                  onDragLeave={() => setDropTarget(null)}
                  onDrop={onDrop}
                />
              ) : (
                <div
                  data-testid="region-canvas"
                  className="grid h-64 w-full max-w-[800px] place-items-center rounded-lg border border-dashed border-line text-sm text-muted"
                >
                  {loadError || !image ? t('canvasDialogs.region.loadFailed') : t('common.loading')}
                </div>
              )}
              <ul className="flex flex-wrap gap-3 text-xs text-muted">
                {(['active', 'dropTarget', 'hasImage', 'idle'] as const).map((look) => (
                  <li key={look} className="flex items-center gap-1.5">
                    <span className="size-3 rounded-sm" style={{ background: REGION_COLOURS[look] }} aria-hidden />
                    {t(`canvasDialogs.region.legend.${look}`)}
                  </li>
                ))}
              </ul>
            </div>

            <aside className="flex w-full shrink-0 flex-col gap-3 lg:w-80">
              <div className="flex items-center justify-between">
                <h3 className="text-sm font-semibold">
                  {t('canvasDialogs.region.regions', { count: regions.length })}
                </h3>
                <Button
                  size="sm"
                  variant="secondary"
                  data-testid="region-generate-active"
                  onClick={() => generate(activeId)}
                  loading={busyId !== null && busyId === activeId}
                  disabled={busyId !== null || (active !== null && !active.prompt.trim())}
                >
                  <Sparkles className="size-4" aria-hidden />
                  {t('canvasDialogs.region.generateActive')}
                </Button>
              </div>
              {regions.length === 0 ? <p className="text-sm text-muted">{t('canvasDialogs.region.empty')}</p> : null}
              <ol className="space-y-2">
                {regions.map((region, index) => {
                  const look = regionLook({ id: region.id, hasImage: Boolean(region.droppedImage) }, activeId, dropId);
                  return (
                    <li
                      key={region.id}
                      data-testid="region-item"
                      data-active={region.id === activeId || undefined}
                      className={cn(
                        'space-y-2 rounded-xl border bg-surface-2 p-3',
                        region.id === activeId ? 'border-accent' : 'border-line',
                      )}
                      style={{ borderInlineStartColor: REGION_COLOURS[look], borderInlineStartWidth: 4 }}
                    >
                      <div className="flex items-center gap-2">
                        <button
                          type="button"
                          className="min-w-0 flex-1 truncate text-start text-sm font-medium"
                          onClick={() => setActive(region.id)}
                          aria-pressed={region.id === activeId}
                        >
                          {t('canvasDialogs.region.item', { n: index + 1 })}
                          <span className="ms-2 text-xs font-normal text-muted tabular-nums" dir="ltr">
                            {Math.round(region.width)}×{Math.round(region.height)}
                          </span>
                        </button>
                        <button
                          type="button"
                          data-testid="region-delete"
                          onClick={() => removeRegion(region.id)}
                          aria-label={t('canvasDialogs.region.delete')}
                          className="grid size-7 place-items-center rounded-lg text-muted hover:bg-surface-3 hover:text-danger"
                        >
                          <Trash2 className="size-4" aria-hidden />
                        </button>
                      </div>
                      {region.droppedImage ? (
                        <p className="flex items-center gap-1.5 truncate text-xs text-muted">
                          <ImagePlus className="size-3.5 shrink-0" aria-hidden />
                          {region.droppedImage.name}
                        </p>
                      ) : (
                        <p className="text-xs text-subtle">{t('canvasDialogs.region.dropHint')}</p>
                      )}
                      <textarea
                        data-testid="region-prompt"
                        className={cn(inputClass, 'min-h-16 resize-y py-2')}
                        value={region.prompt}
                        onFocus={() => setActive(region.id)}
                        onChange={(e) => updateRegion(region.id, { prompt: e.target.value })}
                        placeholder={t('canvasDialogs.region.promptPlaceholder')}
                        aria-label={t('canvasDialogs.region.promptPlaceholder')}
                      />
                      <Button
                        size="sm"
                        className="w-full"
                        data-testid="region-generate"
                        onClick={() => generate(region.id)}
                        loading={busyId === region.id}
                        disabled={busyId !== null || !region.prompt.trim()}
                      >
                        <Sparkles className="size-4" aria-hidden />
                        {t('canvasDialogs.region.generate')}
                      </Button>
                    </li>
                  );
                })}
              </ol>

              {result ? (
                <div className="space-y-2 rounded-xl border border-line bg-surface-2 p-3" data-testid="region-result">
                  <h3 className="text-sm font-semibold">{t('canvasDialogs.region.result')}</h3>
                  <img src={result.url} alt={t('canvasDialogs.region.result')} className="w-full rounded-lg" />
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      className="flex-1"
                      data-testid="region-upscale"
                      onClick={upscale}
                      loading={upscaling}
                    >
                      {t('canvasDialogs.region.upscale')}
                    </Button>
                    <a
                      href={downloadHref(result.url)}
                      download
                      data-testid="region-download"
                      className={buttonClass('secondary', 'sm', 'flex-1')}
                    >
                      <Download className="size-4" aria-hidden />
                      {t('canvasDialogs.region.download')}
                    </a>
                  </div>
                </div>
              ) : null}
            </aside>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
