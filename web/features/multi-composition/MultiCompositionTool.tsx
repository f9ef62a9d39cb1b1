// The multi-composition workspace (canvas spec 2, 3, 7, 9; editor overlay tab "multi-composition"): up to
// ten image layers placed on an artboard, a prompt, and Compose calling POST /api/nanobana/multi-image-composition
// with the layers' images bottom first, the artboard's aspect ratio, and the layout written into the prompt
// (the endpoint takes no layout field). Takes part in saved sessions as 'multi-composition'.

import i18next from 'i18next';
import { Download, FolderOpen, ImagePlus, Layers, LayoutGrid, Plus, Upload, WandSparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Asset } from '../../../common/api/assets.ts';
import { CANVAS_DIALOG_MESSAGES, canCompose } from '../../../common/rules/canvas-dialogs.ts';
import { downloadUrl } from '../../../common/rules/studio.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { composeImages, imageAsDataUri } from '../canvas/dialogs/api.ts';
import { finishedUrl } from '../canvas/dialogs/enhance.ts';
import { type CanvasImage, useCanvas } from '../canvas/store.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { Artboard } from './Artboard.tsx';
import { CanvasImagePicker } from './CanvasImagePicker.tsx';
import { drawThumbnail, fileHead, loadImage } from './images.ts';
import { LayerList } from './LayerList.tsx';
import {
  ARTBOARD_LIMITS,
  ARTBOARD_PRESETS,
  type ArtboardSize,
  addLayers,
  aspectRatioOf,
  byZ,
  type CompositionResult,
  captureCompositionSession,
  clampArtboardSide,
  compositionPrompt,
  DEFAULT_ARTBOARD,
  type Layer,
  MULTI_COMPOSITION_MAX,
  moveLayer,
  type NewLayer,
  parseCompositionSession,
  removeLayer,
  resizeArtboard,
  resizeLayer,
  roomLeft,
  setOpacity,
  shiftLayer,
  sniffImageType,
} from './layers.ts';

type PresetId = (typeof ARTBOARD_PRESETS)[number]['id'] | 'custom';
const UPLOAD_MAX_MB = 10;
const MB = 1024 * 1024;

const newId = () => `layer-${globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`}`;

function presetOf(board: ArtboardSize): PresetId {
  return ARTBOARD_PRESETS.find((p) => p.width === board.width && p.height === board.height)?.id ?? 'custom';
}

async function naturalSize(url: string): Promise<{ width: number; height: number }> {
  try {
    const img = await loadImage(url);
    return { width: img.naturalWidth, height: img.naturalHeight };
  } catch {
    return { width: 0, height: 0 };
  }
}

/** Same-origin media URLs and data URIs go to the server as they are; anything else is fetched here first. */
async function composable(url: string): Promise<string> {
  if (url.startsWith('data:') || url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.origin === window.location.origin) return `${parsed.pathname}${parsed.search}`;
  } catch {
    // not a URL: let the server judge it
  }
  return imageAsDataUri(url);
}

function errorText(error: unknown): string {
  const message = error instanceof Error && error.message ? error.message : CANVAS_DIALOG_MESSAGES.compositionFailed;
  return message === CANVAS_DIALOG_MESSAGES.compositionFailed
    ? i18next.t('multiComposition.failed')
    : translateMessage(message);
}

export function MultiCompositionTool() {
  const { t } = useTranslation();
  const [layers, setLayers] = useState<Layer[]>([]);
  const [board, setBoard] = useState<ArtboardSize>(DEFAULT_ARTBOARD);
  const [custom, setCustom] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');
  const [notices, setNotices] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<CompositionResult | null>(null);
  const [canvasPicker, setCanvasPicker] = useState(false);
  const [assetPicker, setAssetPicker] = useState(false);
  const canvasCount = useCanvas((s) => s.images.length);
  const mounted = useRef(true);
  const resultRef = useRef<HTMLElement | null>(null);
  // Layers added after an await land on the newest state, not the one the adding began with.
  const latest = useRef({ layers, board });
  latest.current = { layers, board };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

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
    restore: (data) => {
      const state = parseCompositionSession(data);
      const next = { width: state.canvasWidth, height: state.canvasHeight };
      setBoard(next);
      setCustom(presetOf(next) === 'custom');
      setLayers(state.layers);
      setPrompt(state.prompt);
      setResult(state.result);
      setSelectedId(null);
      setError(null);
      setNotices([]);
    },
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

  const append = async (items: Array<Omit<NewLayer, 'naturalWidth' | 'naturalHeight'>>, problems: string[]) => {
    const sized = await Promise.all(
      items.map(async (item) => {
        const size = await naturalSize(item.url);
        return { ...item, naturalWidth: size.width, naturalHeight: size.height };
      }),
    );
    if (!mounted.current) return;
    const out = addLayers(latest.current.layers, sized, latest.current.board);
    setLayers(out.layers);
    if (out.dropped > 0) problems.push(t('multiComposition.limitReached', { max: MULTI_COMPOSITION_MAX }));
    const last = out.layers.at(-1);
    if (sized.length > out.dropped && last) setSelectedId(last.id);
    setNotices(problems);
  };

  const onFiles = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const problems: string[] = [];
    const room = roomLeft(layers);
    const picked = Array.from(list);
    if (picked.length > room) problems.push(t('multiComposition.limitReached', { max: MULTI_COMPOSITION_MAX }));
    const files: File[] = [];
    for (const file of picked.slice(0, room)) {
      if (!sniffImageType(await fileHead(file))) problems.push(t('multiComposition.notImage', { name: file.name }));
      else if (file.size > UPLOAD_MAX_MB * MB)
        problems.push(t('multiComposition.tooLarge', { name: file.name, max: UPLOAD_MAX_MB }));
      else files.push(file);
    }
    setNotices(problems);
    if (files.length === 0) return;
    setAdding(true);
    try {
      const settled = await uploadFiles(files, { maxMb: UPLOAD_MAX_MB });
      const items: Array<Omit<NewLayer, 'naturalWidth' | 'naturalHeight'>> = [];
      settled.forEach((outcome, i) => {
        const file = files[i] as File;
        if (outcome.status === 'fulfilled') items.push({ id: newId(), url: outcome.value.url, name: file.name });
        else
          problems.push(
            `${file.name}: ${translateMessage(String((outcome.reason as Error)?.message ?? outcome.reason))}`,
          );
      });
      await append(items, problems);
    } finally {
      if (mounted.current) setAdding(false);
    }
  };

  const fromCanvas = (images: CanvasImage[]) => {
    setAdding(true);
    void append(
      images.map((image) => ({ id: newId(), url: image.url, name: image.name })),
      [],
    ).finally(() => mounted.current && setAdding(false));
  };

  const fromAssets = (assets: Asset[]) => {
    setAdding(true);
    void append(
      assets.map((asset) => ({
        id: newId(),
        url: asset.url,
        name: asset.prompt?.trim().slice(0, 40) || t('multiComposition.assetName'),
      })),
      [],
    ).finally(() => mounted.current && setAdding(false));
  };

  const changeBoard = (next: ArtboardSize) => {
    setLayers((current) => resizeArtboard(current, board, next));
    setBoard(next);
  };

  const compose = async () => {
    if (busy || !canCompose(prompt, layers.length)) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const images = await Promise.all(byZ(layers).map((layer) => composable(layer.url)));
      const reply = await composeImages({
        prompt: compositionPrompt(prompt, layers, board),
        imageBuffers: images,
        imageMimeType: 'image/png',
        fileNamePrefix: 'multi-composition',
        aspectRatio: aspectRatioOf(board),
      });
      const url = await finishedUrl(reply.data);
      if (!mounted.current) return;
      setResult({ url, id: reply.data.id, width: reply.data.width, height: reply.data.height });
      // The result appears below the settings: bring it into view.
      requestAnimationFrame(() => resultRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
    } catch (err) {
      console.error('Multi-composition failed', err);
      if (mounted.current) setError(errorText(err));
    } finally {
      if (mounted.current) setBusy(false);
    }
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
  const layerActions = {
    select: (id: string | null) => setSelectedId(id),
    move: (id: string, x: number, y: number) => setLayers((current) => moveLayer(current, id, x, y, board)),
    resize: (id: string, size: { width: number; height: number }) =>
      setLayers((current) => resizeLayer(current, id, size, board)),
    shift: (id: string, direction: 'up' | 'down') => setLayers((current) => shiftLayer(current, id, direction)),
    remove: (id: string) => {
      setLayers((current) => removeLayer(current, id));
      setSelectedId((current) => (current === id ? null : current));
    },
    opacity: (id: string, value: number) => setLayers((current) => setOpacity(current, id, value)),
  };

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
                  void onFiles(e.currentTarget.files);
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
          actions={{ ...layerActions, dropFiles: (files) => void onFiles(files) }}
        />
        <p className="text-[11px] text-subtle">{t('multiComposition.keyboardHint')}</p>
      </div>

      <aside className="w-full min-w-0 shrink-0 space-y-4 rounded-2xl border border-line bg-surface p-4 lg:w-80">
        <div className="space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">
            {t('multiComposition.canvasSize')}
          </h3>
          <Segmented<PresetId>
            label={t('multiComposition.canvasSize')}
            value={preset}
            onChange={(id) => {
              if (id === 'custom') return setCustom(true);
              setCustom(false);
              const p = ARTBOARD_PRESETS.find((x) => x.id === id);
              if (p) changeBoard({ width: p.width, height: p.height });
            }}
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
                  <span className="text-[11px] font-medium text-muted">{t(`multiComposition.${side}`)}</span>
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
              <p className="col-span-2 text-[11px] text-subtle">{t('multiComposition.customHint')}</p>
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
          {!canCompose(prompt, layers.length) && (
            <p className="text-[11px] text-subtle">{t('multiComposition.needs')}</p>
          )}
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
              <p className="text-[11px] text-muted">{t('multiComposition.elapsed', { seconds: elapsed })}</p>
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

      <CanvasImagePicker open={canvasPicker} onOpenChange={setCanvasPicker} max={room} onPick={fromCanvas} />
      <AssetPicker
        open={assetPicker}
        onOpenChange={setAssetPicker}
        kind="image"
        max={Math.max(1, room)}
        onPick={fromAssets}
      />
    </section>
  );
}
