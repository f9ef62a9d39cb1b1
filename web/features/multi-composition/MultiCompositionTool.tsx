// The multi-composition workspace (canvas spec 2, 3, 7, 9; editor overlay tab "multi-composition"): up to
// ten image layers placed on an artboard, a prompt, and Compose calling POST /api/nanobana/multi-image-composition
// with the layers' images bottom first, the artboard's aspect ratio, and the layout written into the prompt
// (the endpoint takes no layout field). Takes part in saved sessions as 'multi-composition'.

import { Download, FolderOpen, ImagePlus, Layers, LayoutGrid, Plus, Upload, WandSparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useStore } from 'zustand';
import { downloadUrl } from '../../../common/rules/studio.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { canCompose } from '../canvas/dialogs/rules.ts';
import { useCanvas } from '../canvas/store.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { Artboard } from './Artboard.tsx';
import { CanvasImagePicker } from './CanvasImagePicker.tsx';
import { drawThumbnail, loadImage } from './images.ts';
import { LayerList } from './LayerList.tsx';
import {
  ARTBOARD_LIMITS,
  ARTBOARD_PRESETS,
  byZ,
  captureCompositionSession,
  clampArtboardSide,
  MULTI_COMPOSITION_MAX,
  parseCompositionSession,
  roomLeft,
} from './layers.ts';
import { createCompositionStore, type PresetId, presetOf } from './store.ts';

export function MultiCompositionTool() {
  const { t } = useTranslation();
  const [store] = useState(createCompositionStore);
  const layers = useStore(store, (s) => s.layers);
  const board = useStore(store, (s) => s.board);
  const custom = useStore(store, (s) => s.custom);
  const selectedId = useStore(store, (s) => s.selectedId);
  const prompt = useStore(store, (s) => s.prompt);
  const notices = useStore(store, (s) => s.notices);
  const adding = useStore(store, (s) => s.adding);
  const busy = useStore(store, (s) => s.busy);
  const error = useStore(store, (s) => s.error);
  const result = useStore(store, (s) => s.result);
  const { setPrompt, choosePreset, changeBoard, layerActions, addFiles, addFromCanvas, addFromAssets } =
    store.getState();
  const [elapsed, setElapsed] = useState(0);
  const [canvasPicker, setCanvasPicker] = useState(false);
  const [assetPicker, setAssetPicker] = useState(false);
  const canvasCount = useCanvas((s) => s.images.length);
  const resultRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!busy) return;
    const started = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [busy]);

  useSessionParticipant('multi-composition', {
    capture: () =>
      captureCompositionSession({
        layers,
        canvasWidth: board.width,
        canvasHeight: board.height,
        prompt,
        result,
      }) as Record<string, unknown> | null,
    restore: (data) => store.getState().restore(parseCompositionSession(data)),
    thumbnail: () =>
      layers.length === 0 && result
        ? drawThumbnail(board, async (g) => {
            g.drawImage(await loadImage(result.url), 0, 0, board.width, board.height);
          })
        : layers.length === 0
          ? null
          : drawThumbnail(board, async (g) => {
              const images = await Promise.all(byZ(layers).map((layer) => loadImage(layer.url).catch(() => null)));
              byZ(layers).forEach((layer, i) => {
                const img = images[i];
                if (!img) return;
                g.globalAlpha = layer.opacity;
                g.drawImage(img, layer.x, layer.y, layer.width, layer.height);
              });
            }),
  });

  const compose = async () => {
    // The result appears below the settings: bring it into view.
    if (await store.getState().compose())
      requestAnimationFrame(() => resultRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };

  const addResultToCanvas = () => {
    if (!result) return;
    const added = useCanvas.getState().addImage({
      url: result.url,
      thumbnailUrl: null,
      name: t('multiComposition.resultName', { count: layers.length }),
      prompt: prompt.trim() || undefined,
      assetId: result.id ?? undefined,
      naturalWidth: result.width ?? undefined,
      naturalHeight: result.height ?? undefined,
    });
    if (added) toast.success(t('multiComposition.addedToCanvas'));
    else toast.error(t('multiComposition.canvasFull'));
  };

  const room = roomLeft(layers);
  const preset: PresetId = custom ? 'custom' : presetOf(board);

  return (
    <section
      data-testid="multi-composition-tool"
      data-busy={busy ? 'true' : 'false'}
      aria-labelledby="multi-composition-title"
      className="flex min-w-0 flex-col gap-4 lg:flex-row lg:items-start"
    >
      <div className="min-w-0 flex-1 space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
            <Layers className="size-[18px]" aria-hidden />
          </span>
          <div className="me-auto min-w-0">
            <h2 id="multi-composition-title" className="text-sm font-semibold">
              {t('multiComposition.title')}
            </h2>
            <p className="text-xs text-muted">{t('multiComposition.description', { max: MULTI_COMPOSITION_MAX })}</p>
          </div>
          <div
            className="flex flex-wrap items-center gap-1.5"
            role="toolbar"
            aria-label={t('multiComposition.addLayers')}
          >
            <label
              className={cn(
                buttonClass('secondary', 'sm'),
                'cursor-pointer focus-within:outline-2 focus-within:outline-accent',
                (room === 0 || adding) && 'pointer-events-none opacity-50',
              )}
            >
              <Upload className="size-4" aria-hidden />
              {t('multiComposition.upload')}
              <input
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                multiple
                className="sr-only"
                data-testid="mc-upload-input"
                disabled={room === 0 || adding}
                onChange={(e) => {
                  void addFiles(e.currentTarget.files);
                  e.currentTarget.value = '';
                }}
              />
            </label>
            <Button
              size="sm"
              variant="secondary"
              disabled={room === 0 || adding}
              onClick={() => setCanvasPicker(true)}
              data-testid="mc-from-canvas"
            >
              <LayoutGrid className="size-4" aria-hidden />
              {t('multiComposition.fromCanvas', { count: canvasCount })}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={room === 0 || adding}
              onClick={() => setAssetPicker(true)}
              data-testid="mc-from-assets"
            >
              <FolderOpen className="size-4" aria-hidden />
              {t('multiComposition.fromAssets')}
            </Button>
          </div>
        </div>

        <Artboard
          board={board}
          layers={layers}
          selectedId={selectedId}
          actions={{ ...layerActions, dropFiles: (files) => void addFiles(files) }}
        />
        <p className="text-xs text-subtle">{t('multiComposition.keyboardHint')}</p>
      </div>

      <aside className="w-full min-w-0 shrink-0 space-y-4 rounded-2xl border border-line bg-surface p-4 lg:w-80">
        <div className="space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">
            {t('multiComposition.canvasSize')}
          </h3>
          <Segmented<PresetId>
            label={t('multiComposition.canvasSize')}
            value={preset}
            onChange={choosePreset}
            options={[
              ...ARTBOARD_PRESETS.map((p) => ({
                value: p.id as PresetId,
                label: `${p.width}×${p.height}`,
                title: t(`multiComposition.presets.${p.id}`),
              })),
              { value: 'custom' as PresetId, label: t('multiComposition.presets.custom') },
            ]}
            testIdPrefix="mc-size"
            layout="grid"
            size="sm"
          />
          {preset === 'custom' && (
            <div className="grid grid-cols-2 gap-2" dir="ltr">
              {(['width', 'height'] as const).map((side) => (
                <label key={side} className="block space-y-1">
                  <span className="text-xs font-medium text-muted">{t(`multiComposition.${side}`)}</span>
                  <input
                    key={board[side]}
                    type="number"
                    min={ARTBOARD_LIMITS.min}
                    max={ARTBOARD_LIMITS.max}
                    defaultValue={board[side]}
                    data-testid={`mc-custom-${side}`}
                    className={cn(inputClass, 'h-8 px-2 text-xs tabular-nums')}
                    onBlur={(e) => {
                      const value = clampArtboardSide(Number(e.currentTarget.value));
                      e.currentTarget.value = String(value);
                      if (value !== board[side]) changeBoard({ ...board, [side]: value });
                    }}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') e.currentTarget.blur();
                    }}
                  />
                </label>
              ))}
              <p className="col-span-2 text-xs text-subtle">{t('multiComposition.customHint')}</p>
            </div>
          )}
        </div>

        <div className="space-y-2">
          <div className="flex items-center justify-between">
            <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">{t('multiComposition.layers')}</h3>
            <span className="text-xs tabular-nums text-muted" data-testid="mc-layer-count">
              {layers.length}/{MULTI_COMPOSITION_MAX}
            </span>
          </div>
          {adding && (
            <p className="flex items-center gap-2 text-xs text-muted" role="status">
              <Plus className="size-3.5 animate-pulse" aria-hidden />
              {t('multiComposition.adding')}
            </p>
          )}
          <LayerList layers={layers} selectedId={selectedId} actions={layerActions} />
          {notices.length > 0 && (
            <ul
              role="alert"
              className="space-y-1 rounded-lg bg-danger/10 p-2 text-xs text-danger"
              data-testid="mc-notices"
            >
              {notices.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </div>

        <div className="space-y-2">
          <label className="block space-y-1.5">
            <span className="text-xs font-semibold uppercase tracking-wide text-muted">
              {t('multiComposition.prompt')}
            </span>
            <textarea
              value={prompt}
              onChange={(e) => setPrompt(e.target.value)}
              rows={4}
              maxLength={3000}
              dir="auto"
              placeholder={t('multiComposition.promptPlaceholder')}
              className={cn(inputClass, 'min-h-24 resize-y py-2 text-sm')}
              data-testid="mc-prompt"
            />
          </label>
          {!canCompose(prompt, layers.length) && <p className="text-xs text-subtle">{t('multiComposition.needs')}</p>}
          <Button
            className="w-full"
            disabled={!canCompose(prompt, layers.length) || adding}
            loading={busy}
            onClick={() => void compose()}
            data-testid="mc-compose"
          >
            {!busy && <WandSparkles className="size-4" aria-hidden />}
            {busy ? t('multiComposition.composing') : t('multiComposition.compose')}
          </Button>
          {busy && (
            <div role="status" className="space-y-1.5" data-testid="mc-progress">
              <div className="h-1.5 overflow-hidden rounded-full bg-surface-3">
                <div className="h-full w-1/3 animate-pulse rounded-full bg-accent" />
              </div>
              <p className="text-xs text-muted">{t('multiComposition.elapsed', { seconds: elapsed })}</p>
            </div>
          )}
          {error && (
            <p role="alert" className="rounded-lg bg-danger/10 p-2 text-xs text-danger" data-testid="mc-error">
              {error}
            </p>
          )}
        </div>

        {result && (
          <figure ref={resultRef} className="space-y-2 rounded-xl border border-line p-2" data-testid="mc-result">
            <img
              src={result.url}
              alt={t('multiComposition.result')}
              className="w-full rounded-lg bg-surface-3 object-contain"
              data-testid="mc-result-image"
            />
            <figcaption className="flex flex-wrap gap-2">
              <Button size="sm" variant="secondary" onClick={addResultToCanvas} data-testid="mc-result-canvas">
                <ImagePlus className="size-4" aria-hidden />
                {t('multiComposition.addToCanvas')}
              </Button>
              <a
                href={downloadUrl(result.url)}
                download
                className={buttonClass('secondary', 'sm')}
                data-testid="mc-result-download"
              >
                <Download className="size-4" aria-hidden />
                {t('multiComposition.download')}
              </a>
            </figcaption>
          </figure>
        )}
      </aside>

      <CanvasImagePicker
        open={canvasPicker}
        onOpenChange={setCanvasPicker}
        max={room}
        onPick={(images) => void addFromCanvas(images)}
      />
      <AssetPicker
        open={assetPicker}
        onOpenChange={setAssetPicker}
        kind="image"
        max={Math.max(1, room)}
        onPick={(assets) => void addFromAssets(assets)}
      />
    </section>
  );
}
