// Region edit modal (canvas spec 2, 3, 4, 5, 9): the image drawn on a canvas scaled to fit 800x600, rectangles
// drawn with the mouse (under 20x20 discarded), images dropped onto regions (image files only), per-region
// prompt and Generate (region-masked reference-chain composition), Upscale of the result and Download.
import { Download, ImagePlus, Sparkles, Trash2, Wand2 } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type DragEvent, type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CANVAS, CANVAS_IMAGES } from '../../../../common/constants.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import {
  CANVAS_DIALOG_MESSAGES,
  isImageFile,
  normaliseRegion,
  type Point,
  REGION_COLOURS,
  type RegionRect,
  regionAt,
  regionCanvasSize,
  regionGenerateCheck,
  regionLook,
  regionPrompt,
  regionToImageMask,
} from '../../../../common/rules/canvas-dialogs.ts';
import { localizeMessage } from '../../../i18n/localize.ts';
import { Button, buttonClass } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { DialogCloseButton } from '../../../ui/DialogTitleBar.tsx';
import { inputClass } from '../../../ui/Field.tsx';
import { type CanvasImage, useCanvas } from '../store.ts';
import { blobAsDataUri, failureText, generateMultiComposition, imageRef } from './api.ts';
import { startImageEnhancement } from './enhance.ts';

export interface RegionEditModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  imageId: string;
}

interface Region extends RegionRect {
  id: string;
  prompt: string;
  droppedImage: { url: string; name: string } | null;
}

interface Loaded {
  element: HTMLImageElement;
  natural: { width: number; height: number };
  display: { width: number; height: number; scale: number };
}

let regionCounter = 0;
function newRegionId() {
  regionCounter += 1;
  return `region-${Date.now().toString(36)}-${regionCounter}`;
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

export function RegionEditModal({ open, onOpenChange, imageId }: RegionEditModalProps) {
  const { t } = useTranslation();
  const image = useCanvas((s) => s.images.find((img) => img.id === imageId));
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const droppedElements = useRef(new Map<string, HTMLImageElement>());
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [regions, setRegions] = useState<Region[]>([]);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [dropId, setDropId] = useState<string | null>(null);
  const [drawing, setDrawing] = useState<{ start: Point; current: Point } | null>(null);
  const [stylePrompt, setStylePrompt] = useState('');
  const [busyId, setBusyId] = useState<string | null>(null);
  const [result, setResult] = useState<CanvasImage | null>(null);
  const [upscaling, setUpscaling] = useState(false);

  const imageUrl = image?.url;

  // The source is drawn from its own (same-origin) URL and sent to the server by that URL, never as bytes: a 4K
  // PNG is over the 10 MB inline limit.
  useEffect(() => {
    if (!open || !imageUrl) return;
    const controller = new AbortController();
    setLoaded(null);
    setLoadError(false);
    setRegions([]);
    setActiveId(null);
    setResult(null);
    droppedElements.current.clear();
    (async () => {
      try {
        const element = await loadElement(imageUrl);
        if (controller.signal.aborted) return;
        const natural = { width: element.naturalWidth, height: element.naturalHeight };
        setLoaded({ element, natural, display: regionCanvasSize(natural) });
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('Region edit: image failed to load', error);
        setLoadError(true);
      }
    })();
    return () => controller.abort();
  }, [open, imageUrl]);

  const draw = useCallback(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || !loaded) return;
    const { width, height } = loaded.display;
    ctx.clearRect(0, 0, width, height);
    ctx.drawImage(loaded.element, 0, 0, width, height);
    for (const region of regions) {
      const look = regionLook({ id: region.id, hasImage: Boolean(region.droppedImage) }, activeId, dropId);
      const colour = REGION_COLOURS[look];
      const dropped = droppedElements.current.get(region.id);
      if (dropped) {
        ctx.globalAlpha = 0.55;
        ctx.drawImage(dropped, region.x, region.y, region.width, region.height);
        ctx.globalAlpha = 1;
      }
      ctx.fillStyle = `${colour}33`;
      ctx.fillRect(region.x, region.y, region.width, region.height);
      ctx.strokeStyle = colour;
      ctx.lineWidth = look === 'active' || look === 'dropTarget' ? 3 : 2;
      ctx.setLineDash(look === 'dropTarget' ? [8, 4] : []);
      ctx.strokeRect(region.x, region.y, region.width, region.height);
    }
    if (drawing) {
      ctx.setLineDash([6, 4]);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 2;
      ctx.strokeRect(
        Math.min(drawing.start.x, drawing.current.x),
        Math.min(drawing.start.y, drawing.current.y),
        Math.abs(drawing.current.x - drawing.start.x),
        Math.abs(drawing.current.y - drawing.start.y),
      );
    }
    ctx.setLineDash([]);
  }, [loaded, regions, activeId, dropId, drawing]);

  useEffect(draw, [draw]);

  const pointOf = (event: { clientX: number; clientY: number }): Point | null => {
    const canvas = canvasRef.current;
    if (!canvas) return null;
    const rect = canvas.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return null;
    return {
      x: ((event.clientX - rect.left) * canvas.width) / rect.width,
      y: ((event.clientY - rect.top) * canvas.height) / rect.height,
    };
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!loaded || event.button !== 0) return;
    const point = pointOf(event);
    if (!point) return;
    const hit = regionAt(regions, point);
    if (hit && !event.shiftKey) {
      setActiveId(hit.id);
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrawing({ start: point, current: point });
  };

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing) return;
    const point = pointOf(event);
    if (point) setDrawing({ ...drawing, current: point });
  };

  const onPointerUp = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing || !loaded) return;
    const point = pointOf(event) ?? drawing.current;
    setDrawing(null);
    const rect = normaliseRegion(drawing.start, point, loaded.display);
    if (!rect) return; // under 20x20: discarded
    const region: Region = { ...rect, id: newRegionId(), prompt: '', droppedImage: null };
    setRegions((list) => [...list, region]);
    setActiveId(region.id);
  };

  const onDragOver = (event: DragEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    const point = pointOf(event);
    const hit = point ? regionAt(regions, point) : null;
    event.dataTransfer.dropEffect = hit ? 'copy' : 'none';
    setDropId(hit?.id ?? null);
  };

  const onDrop = async (event: DragEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    setDropId(null);
    const point = pointOf(event);
    const hit = point ? regionAt(regions, point) : null;
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
      droppedElements.current.set(hit.id, await loadElement(url));
      setRegions((list) => list.map((r) => (r.id === hit.id ? { ...r, droppedImage: { url, name: file.name } } : r)));
      setActiveId(hit.id);
    } catch (error) {
      console.error('Region drop failed', error);
      toast.error(t('canvasDialogs.region.imagesOnly'));
    }
  };

  const updateRegion = (id: string, patch: Partial<Region>) =>
    setRegions((list) => list.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const removeRegion = (id: string) => {
    droppedElements.current.delete(id);
    setRegions((list) => list.filter((r) => r.id !== id));
    if (activeId === id) setActiveId(null);
  };

  const generate = async (regionId: string | null) => {
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
    setBusyId(region.id);
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
      setResult(added ?? { ...source, id: `result-${region.id}`, url, thumbnailUrl: null, assetId: last?.assetId });
      toast.success(t('canvasDialogs.region.done'));
    } catch (error) {
      console.error('Region generation failed', error);
      toast.error(failureText(error, CANVAS_DIALOG_MESSAGES.compositionFailed));
    } finally {
      setBusyId(null);
    }
  };

  const upscale = async () => {
    if (!result || upscaling) return;
    setUpscaling(true);
    await startImageEnhancement(result, 'image-upscaler', t('canvasDialogs.enhance.services.image-upscaler.name'));
    setUpscaling(false);
  };

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
                  onPointerCancel={() => setDrawing(null)}
                  onDragOver={onDragOver}
                  onDragLeave={() => setDropId(null)}
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
                          onClick={() => setActiveId(region.id)}
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
                        onFocus={() => setActiveId(region.id)}
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
