import { Brush, Eraser, ImagePlus, MousePointer2, WandSparkles, X } from 'lucide-react';
import { type DragEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useStore } from 'zustand';
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import type { MagicQuality } from '../../../common/api/inpaint.ts';
import { useRefreshAssets } from '../../api/assets.ts';
import { usePrice } from '../../api/engines.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, RangeField, SelectField } from '../../ui/controls.tsx';
import { EngineBadge, EngineNote } from '../../ui/EngineBadge.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { PreviewNote } from '../../ui/PreviewNote.tsx';
import { ToolPanelLayout } from '../../ui/ToolPanelLayout.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { placeBesideSource } from '../canvas/actions.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { imageThumbnail, loadImage, shrinkDataUrl } from '../multi-composition/images.ts';
import { readAsDataUrl } from './api.ts';
import { BeforeAfter } from './BeforeAfter.tsx';
import { MaskPainter } from './MaskPainter.ts';
import { captureMagicSelectorSession, type MagicResult, parseMagicSelectorSession } from './session.ts';
import { createMagicStore, needsReference, useMagicHandoff } from './store.ts';

// The Magic Selector (canvas spec 2, 5, 9): a base image, a brush painting white on a black mask
// (line width 20 on screen), a mode, quality, prompt, reference for replace and style transfer, and
// Apply Magic calling POST /api/ai/generate/inpaint; the result is shown large against its base (before/after).
// In the editor tab the base can be a canvas image handed over by the selection toolbar (useMagicHandoff); its
// result then goes onto the canvas beside that image.

const MODES = MAGIC_SELECTOR.modes;
const ACCEPT = MAGIC_SELECTOR.extensions.map((ext) => `.${ext}`).join(',');
function acceptedFile(files: FileList | null): { file: File } | { error: string } | null {
  if (!files || files.length === 0) return null;
  if (files.length > 1) return { error: 'magicSelector.errors.oneFile' };
  const file = files[0] as File;
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(MAGIC_SELECTOR.extensions as readonly string[]).includes(ext))
    return { error: 'magicSelector.errors.fileType' };
  return { file };
}

function DropZone({
  label,
  image,
  testId,
  onFile,
  onError,
}: {
  label: string;
  image: string | null;
  testId: string;
  onFile: (dataUrl: string) => void;
  onError: (key: string) => void;
}) {
  const { t } = useTranslation();
  const take = async (files: FileList | null) => {
    const picked = acceptedFile(files);
    if (!picked) return;
    if ('error' in picked) return onError(picked.error);
    onFile(await readAsDataUrl(picked.file));
  };
  return (
    <label
      className="flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-xl border border-dashed border-line bg-surface-2 p-3 text-center text-xs text-muted hover:border-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent"
      onDragOver={(e: DragEvent) => e.preventDefault()}
      onDrop={(e: DragEvent) => {
        e.preventDefault();
        void take(e.dataTransfer.files);
      }}
    >
      {image ? (
        <img src={image} alt="" className="max-h-20 rounded-md object-contain" />
      ) : (
        <ImagePlus className="size-5" aria-hidden />
      )}
      <span>{label}</span>
      <span className="text-xs text-subtle">{t('magicSelector.formats')}</span>
      <input
        type="file"
        accept={ACCEPT}
        className="sr-only"
        data-testid={testId}
        onChange={(e) => {
          void take(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
    </label>
  );
}

/** Embedded images kept in a saved session are shrunk to these sizes (characters of data URL). */
const SESSION_BASE_CHARS = 3_000_000;
const SESSION_REFERENCE_CHARS = 1_000_000;

/** A data URL small enough for a saved session (server URLs pass as they are); null until ready. */
function useSessionCopy(src: string | null, maxChars: number): string | null {
  const [copy, setCopy] = useState<{ src: string; out: string } | null>(null);
  useEffect(() => {
    if (!src) return;
    let live = true;
    shrinkDataUrl(src, maxChars)
      .then((out) => live && setCopy({ src, out }))
      .catch(() => live && setCopy({ src, out: src }));
    return () => {
      live = false;
    };
  }, [src, maxChars]);
  if (!src) return null;
  return copy?.src === src ? copy.out : src.startsWith('data:') && src.length > maxChars ? null : src;
}

export function MagicSelectorPanel({ onClose, layout = 'panel' }: { onClose?: () => void; layout?: 'panel' | 'tab' }) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const [store] = useState(createMagicStore);
  const base = useStore(store, (s) => s.base);
  const size = useStore(store, (s) => s.size);
  const reference = useStore(store, (s) => s.reference);
  const mode = useStore(store, (s) => s.mode);
  const quality = useStore(store, (s) => s.quality);
  const styleStrength = useStore(store, (s) => s.styleStrength);
  const prompt = useStore(store, (s) => s.prompt);
  const error = useStore(store, (s) => s.error);
  const busy = useStore(store, (s) => s.busy);
  const result = useStore(store, (s) => s.result);
  const before = useStore(store, (s) => s.before);
  const sourceId = useStore(store, (s) => s.sourceId);
  const { setBase, setSize, setReference, setMode, setQuality, setStyleStrength, setPrompt, setError, setResult } =
    store.getState();
  const price = usePrice('image', MAGIC_SELECTOR.model, 'inpaint');
  const { balance, shortfall } = useCreditGuard(price);
  const painter = useRef<MaskPainter | null>(null);
  const maskCanvas = useCallback((canvas: HTMLCanvasElement | null) => {
    painter.current = canvas ? new MaskPainter(canvas, MAGIC_SELECTOR.brushWidth) : null;
  }, []);
  // Apply Magic opened the result; it is disabled while it works, so the dialog hands focus back to it by hand.
  const applyButton = useRef<HTMLElement | null>(null);

  const clearMask = useCallback(() => painter.current?.clear(), []);
  const tab = layout === 'tab';

  // A canvas image handed over by the selection toolbar becomes the base (the editor tab only).
  const handed = useMagicHandoff((s) => s.source);
  useEffect(() => {
    if (!tab || !handed) return;
    useMagicHandoff.setState({ source: null });
    setResult(null);
    setBase(handed.url, handed.imageId);
  }, [tab, handed, setBase, setResult]);

  // A new base image: the mask takes its natural size and starts all black.
  useEffect(() => {
    if (!base) return setSize(null);
    const img = new Image();
    img.onload = () => setSize({ width: img.naturalWidth, height: img.naturalHeight });
    img.src = base;
  }, [base, setSize]);
  // A restored mask waits here until the base image it belongs to has its canvas.
  const pendingMask = useRef<string | null>(null);
  const paintMask = useCallback(async (mask: string) => {
    const img = await loadImage(mask);
    painter.current?.paint(img);
  }, []);
  useEffect(() => {
    if (!size) return;
    clearMask();
    const mask = pendingMask.current;
    pendingMask.current = null;
    if (mask) paintMask(mask).catch((err: unknown) => console.error('Mask restore failed', err));
  }, [size, clearMask, paintMask]);

  const sessionBase = useSessionCopy(base, SESSION_BASE_CHARS);
  const sessionReference = useSessionCopy(reference, SESSION_REFERENCE_CHARS);
  useSessionParticipant('magic-selector', {
    capture: () =>
      captureMagicSelectorSession({
        baseImage: sessionBase ?? base,
        prompt,
        mode,
        result,
        quality,
        styleStrength,
        referenceImage: sessionReference ?? reference,
        maskImage: base && size ? (painter.current?.toDataUrl() ?? null) : null,
      }) as Record<string, unknown> | null,
    restore: (data) => {
      const state = parseMagicSelectorSession(data);
      store.getState().restore(state);
      if (state.baseImage === base && size) {
        if (state.maskImage) void paintMask(state.maskImage);
        else clearMask();
      } else {
        pendingMask.current = state.maskImage;
        setBase(state.baseImage);
      }
    },
    thumbnail: () => imageThumbnail(base ?? result?.url),
  });

  const onError = (key: string) => setError(t(key));

  const refreshAssets = useRefreshAssets();
  const apply = () => store.getState().apply(() => painter.current?.toDataUrl() ?? null, t);

  const toCanvas = () => {
    if (!result) return;
    const placed = placeBesideSource(sourceId, {
      url: result.url,
      thumbnailUrl: null,
      name: prompt.trim().slice(0, 40) || t('magicSelector.title'),
      prompt: prompt.trim() || undefined,
      assetId: result.id ?? undefined,
      naturalWidth: result.width ?? undefined,
      naturalHeight: result.height ?? undefined,
      engine: result.engine ?? null,
    });
    if (!placed) {
      toast.error(t('canvasEditor.limitReached', { max: CANVAS.maxImages }));
      return;
    }
    toast.success(t(placed.beside ? 'magicCompare.placedBeside' : 'magicCompare.placed'));
    setResult(null);
    // Back to the canvas, where the result is selected and in view.
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('canvas', '1');
      next.delete('editor');
      return next;
    });
  };

  const maskArea = (
    <>
      {sourceId ? (
        <p className="text-xs text-muted" data-testid="magic-from-canvas">
          {t('magicCompare.fromCanvas')}
        </p>
      ) : null}
      <DropZone
        label={sourceId ? t('magicCompare.otherBase') : t('magicSelector.baseImage')}
        image={null}
        testId="magic-base-input"
        onFile={(file) => setBase(file)}
        onError={onError}
      />

      {base && (
        <div className="space-y-2">
          <div className="flex gap-1.5" role="toolbar" aria-label={t('magicSelector.tools')}>
            <Button size="sm" variant="ghost" disabled title={t('magicSelector.selectTool')}>
              <MousePointer2 className="size-4" aria-hidden />
            </Button>
            <Button size="sm" variant="secondary" aria-pressed title={t('magicSelector.brush')}>
              <Brush className="size-4" aria-hidden />
            </Button>
            <Button size="sm" variant="ghost" className="ms-auto" onClick={clearMask} data-testid="magic-clear-mask">
              <Eraser className="size-4" aria-hidden />
              {t('magicSelector.clearMask')}
            </Button>
          </div>
          <div className={cn('relative overflow-hidden rounded-xl bg-surface-3', tab && 'mx-auto w-fit max-w-full')}>
            <img
              src={base}
              alt={t('magicSelector.baseImage')}
              data-testid="magic-base-image"
              className={cn('block select-none', tab ? 'h-auto max-h-[62vh] w-auto max-w-full' : 'h-auto w-full')}
              draggable={false}
            />
            {size && (
              <canvas
                ref={maskCanvas}
                width={size.width}
                height={size.height}
                data-testid="magic-mask-canvas"
                aria-label={t('magicSelector.maskHint')}
                className="absolute inset-0 size-full cursor-crosshair touch-none opacity-50 mix-blend-screen"
                onPointerDown={(e) => {
                  e.currentTarget.setPointerCapture(e.pointerId);
                  painter.current?.begin(painter.current.pointAt(e, e.currentTarget.getBoundingClientRect()));
                }}
                onPointerMove={(e) =>
                  painter.current?.extend(painter.current.pointAt(e, e.currentTarget.getBoundingClientRect()))
                }
                onPointerUp={() => painter.current?.end()}
                onPointerLeave={() => painter.current?.end()}
              />
            )}
          </div>
          <p className="text-xs text-muted">{t('magicSelector.maskHint')}</p>
        </div>
      )}
    </>
  );
  const settings = (
    <>
      <fieldset className="space-y-1.5">
        <legend className={labelClass}>{t('magicSelector.mode')}</legend>
        <div className="grid grid-cols-2 gap-1.5">
          {MODES.map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              data-testid={`magic-mode-${m}`}
              className={cn(
                'rounded-lg border px-2 py-1.5 text-xs',
                mode === m ? 'border-accent bg-accent-soft text-accent' : 'border-line text-muted hover:text-fg',
              )}
            >
              {t(`magicSelector.modes.${m}`)}
            </button>
          ))}
        </div>
      </fieldset>

      {/* The studio's own controls (web/ui), so this tool reads like every other screen. */}
      <SelectField<MagicQuality>
        label={t('magicSelector.quality')}
        value={quality}
        onChange={setQuality}
        options={MAGIC_SELECTOR.qualities.map((q) => ({ value: q, label: t(`magicSelector.qualities.${q}`) }))}
        testId="magic-quality"
      />

      {mode === 'style-transfer' && (
        <RangeField
          label={t('magicSelector.styleStrength')}
          value={styleStrength}
          onChange={setStyleStrength}
          min={0}
          max={100}
          step={1}
          format={(value) => `${value}%`}
          testId="magic-style-strength"
        />
      )}

      <label className="block space-y-1.5">
        <span className={labelClass}>{t('magicSelector.prompt')}</span>
        <textarea
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          rows={3}
          placeholder={t('magicSelector.promptPlaceholder')}
          className={cn(inputClass, 'min-h-20 resize-y py-2 leading-relaxed')}
          data-testid="magic-prompt"
        />
      </label>

      {needsReference(mode) && (
        <DropZone
          label={t('magicSelector.reference')}
          image={reference}
          testId="magic-reference-input"
          onFile={setReference}
          onError={onError}
        />
      )}

      {error && (
        <p role="alert" className="text-xs text-danger" data-testid="magic-error">
          {error}
        </p>
      )}

      {!busy && shortfall > 0 && (
        <CreditShortfall shortfall={shortfall} balance={balance} compact testId="magic-shortfall" />
      )}
      <EngineNote kind="image" model={MAGIC_SELECTOR.model} credits={price} />
      <Button
        className="w-full"
        disabled={!base || busy || shortfall > 0}
        loading={busy}
        onClick={(event) => {
          applyButton.current = event.currentTarget;
          void apply().then(refreshAssets);
        }}
        data-testid="magic-apply"
      >
        {!busy && <WandSparkles className="size-4" aria-hidden />}
        {busy ? t('magicSelector.applying') : t('magicSelector.apply')}
      </Button>
    </>
  );
  const resultView = result && (
    <ResultView
      result={result}
      before={before}
      inline={tab}
      returnFocusTo={applyButton}
      onClose={() => setResult(null)}
      onCanvas={toCanvas}
      onEditMore={() => {
        // The result is edited further; it stays tied to the canvas image it will be placed beside.
        setBase(result.url, sourceId);
        setResult(null);
      }}
    />
  );

  return (
    <ToolPanelLayout
      testId="magic-selector"
      icon={WandSparkles}
      title={t('magicSelector.title')}
      description={t('magicSelector.description')}
      onClose={onClose}
      busy={busy}
      tab={tab}
      main={
        <div className="min-w-0 flex-1 space-y-3 rounded-2xl border border-line bg-surface p-4">
          {/* The comparison takes the mask's place; the mask stays mounted (hidden) so it is kept. */}
          {result && <BeforeAfter key={result.url} before={before ?? result.url} after={result.url} />}
          <div className={cn('space-y-3', result && 'hidden')}>{maskArea}</div>
        </div>
      }
      side={
        <>
          {settings}
          {resultView}
        </>
      }
      panel={
        <>
          {maskArea}
          {settings}
          {resultView}
        </>
      }
    />
  );
}

/** The result: a modal dialog above the studio page (with the comparison), or its actions beside the comparison
 * in the editor tab. */
function ResultView({
  result,
  before,
  inline,
  returnFocusTo,
  onClose,
  onCanvas,
  onEditMore,
}: {
  result: MagicResult;
  before: string | null;
  inline: boolean;
  returnFocusTo: { current: HTMLElement | null };
  onClose: () => void;
  onCanvas: () => void;
  onEditMore: () => void;
}) {
  const { t } = useTranslation();
  const actions = (
    <div className="flex flex-wrap gap-2">
      <Button onClick={onCanvas} data-testid="magic-result-canvas">
        {t('magicCompare.placeOnCanvas')}
      </Button>
      <Button variant="secondary" onClick={onEditMore} data-testid="magic-result-edit">
        {t('magicSelector.editMore')}
      </Button>
      <Button
        variant="secondary"
        onClick={() => window.open(result.url, '_blank', 'noopener')}
        data-testid="magic-result-save"
      >
        {t('magicSelector.save')}
      </Button>
    </div>
  );
  if (!inline)
    return (
      <ModalDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={t('magicSelector.result')}
        testId="magic-result"
        returnFocusTo={returnFocusTo}
        className="max-w-4xl"
      >
        <div className="space-y-3">
          <BeforeAfter key={result.url} before={before ?? result.url} after={result.url} />
          <EngineBadge engine={result.engine} className="text-muted" />
          <PreviewNote preview={result.preview} />
          {actions}
        </div>
      </ModalDialog>
    );
  return (
    <section
      aria-label={t('magicSelector.result')}
      data-testid="magic-result"
      className="w-full space-y-3 rounded-2xl border border-line bg-surface p-3"
    >
      <div className="flex items-center">
        <h3 className="text-sm font-semibold">{t('magicSelector.result')}</h3>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('common.close')}
          className="ms-auto grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <p className="text-xs text-muted">{t('magicCompare.hint')}</p>
      <EngineBadge engine={result.engine} className="text-muted" />
      <PreviewNote preview={result.preview} />
      {actions}
    </section>
  );
}
