// The multi-image canvas editor overlay (canvas spec 2): header with the image count and enhancements in
// progress, left panel (Generate, image list, selection actions, Clear All, Reset View), the stage with its
// bottom toolbar. Loaded lazily from the studio: konva only downloads when the canvas opens.
import {
  Hand,
  ImagePlus,
  LogOut,
  Maximize,
  MousePointer2,
  MousePointerSquareDashed,
  Move,
  Pin,
  Sparkles,
  Trash2,
  Upload,
  WandSparkles,
} from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CANVAS, type CanvasFormat } from '../../../common/constants.ts';
import { fitScale } from '../../../common/rules/canvas.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { CinemaSequencesPanel } from '../sequences/CinemaSequencesPanel.tsx';
import { pinToSequence } from '../sequences/store.ts';
import { generateOnCanvas, uploadToCanvas } from './actions.ts';
import { CanvasStage } from './CanvasStage.tsx';
import { installCanvasDebugHandle } from './debug.ts';
import { ImageEnhanceDialog } from './dialogs/ImageEnhanceDialog.tsx';
import { QuickEditPopover } from './dialogs/QuickEditPopover.tsx';
import { RegionEditModal } from './dialogs/RegionEditModal.tsx';
import { type CanvasTool, selectedImages, useCanvas } from './store.ts';

installCanvasDebugHandle();

const TOOLS: { tool: CanvasTool; Icon: typeof Hand }[] = [
  { tool: 'select', Icon: MousePointer2 },
  { tool: 'drag', Icon: Move },
  { tool: 'pan', Icon: Hand },
];
const FORMATS: { format: CanvasFormat; key: '4k' | '2k' }[] = [
  { format: '4K|TV', key: '4k' },
  { format: '2K|Mobile', key: '2k' },
];

function useGenerate() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [prompt, setPrompt] = useState('');
  const run = async () => {
    if (busy) return false;
    if (!prompt.trim()) {
      toast.error(t('canvasEditor.promptRequired'));
      return false;
    }
    setBusy(true);
    try {
      const result = await generateOnCanvas(prompt);
      if (!result.ok) {
        toast.error(t(result.errorKey, { max: CANVAS.maxImages }));
        return false;
      }
      const wide = useCanvas.getState().format === '4K|TV';
      toast.success(t(wide ? 'canvasEditor.saved.wide' : 'canvasEditor.saved.square'));
      setPrompt('');
      return true;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run, prompt, setPrompt };
}

function GeneratePanel({ generate }: { generate: ReturnType<typeof useGenerate> }) {
  const { t } = useTranslation();
  const { prompt, setPrompt } = generate;
  const setInputMode = useCanvas((s) => s.setInputMode);

  const submit = () => generate.run();
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape') {
      // Esc cancels: clears the prompt, returns to upload mode and leaves the field.
      e.preventDefault();
      setPrompt('');
      setInputMode('upload');
      e.currentTarget.blur();
    }
  };

  return (
    <section className="space-y-2">
      <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">{t('canvasEditor.generateSection')}</h2>
      <label className="sr-only" htmlFor="canvas-prompt">
        {t('canvasEditor.promptLabel')}
      </label>
      <textarea
        id="canvas-prompt"
        data-testid="canvas-prompt"
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        onFocus={() => setInputMode('generate')}
        onKeyDown={onKeyDown}
        rows={3}
        maxLength={4000}
        placeholder={t('canvasEditor.promptPlaceholder')}
        className="w-full resize-y rounded-lg border border-line bg-surface-2 px-3 py-2 text-sm text-fg placeholder:text-muted focus:border-accent focus:outline-none"
      />
      <Button className="w-full" onClick={() => void submit()} loading={generate.busy} disabled={generate.busy}>
        <Sparkles className="size-4" aria-hidden />
        {generate.busy ? t('canvasEditor.generating') : t('canvasEditor.generatePro')}
      </Button>
    </section>
  );
}

function ImageList() {
  const { t } = useTranslation();
  const images = useCanvas((s) => s.images);
  const select = useCanvas((s) => s.select);
  const toggleSelect = useCanvas((s) => s.toggleSelect);
  // A long list is capped in the DOM: the first 200 rows are enough to pick from; the canvas shows the rest.
  const shown = images.slice(0, 200);
  return (
    <section className="flex min-h-0 flex-col gap-2">
      <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">{t('canvasEditor.imagesSection')}</h2>
      {images.length === 0 ? (
        <p className="text-sm text-muted">{t('canvasEditor.noImages')}</p>
      ) : (
        <ul data-testid="canvas-image-list" className="grid max-h-64 grid-cols-4 gap-1.5 overflow-y-auto lg:max-h-none">
          {shown.map((image) => (
            <li key={image.id}>
              <button
                type="button"
                data-testid="canvas-image-item"
                data-id={image.id}
                aria-pressed={Boolean(image.isSelected)}
                title={image.name}
                onClick={(e) => (e.shiftKey || e.metaKey || e.ctrlKey ? toggleSelect(image.id) : select([image.id]))}
                className={cn(
                  'block aspect-square w-full overflow-hidden rounded-md border-2 bg-surface-3',
                  image.isSelected ? 'border-accent' : 'border-transparent hover:border-line-strong',
                )}
              >
                <img
                  src={image.thumbnailUrl ?? image.url}
                  alt={image.name}
                  loading="lazy"
                  decoding="async"
                  className="size-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ClearAll() {
  const { t } = useTranslation();
  const count = useCanvas((s) => s.images.length);
  const clearAll = useCanvas((s) => s.clearAll);
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button variant="secondary" size="sm" disabled={count === 0} data-testid="canvas-clear-all">
          <Trash2 className="size-4" aria-hidden />
          {t('canvasEditor.clearAll')}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <AlertDialog.Content
          data-testid="canvas-clear-confirm"
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-5 shadow-2xl"
        >
          <AlertDialog.Title className="text-base font-semibold">
            {t('canvasEditor.clearConfirmTitle')}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-muted">
            {t('canvasEditor.clearConfirmBody', { count })}
          </AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass('secondary', 'sm')}>
              {t('canvasEditor.cancel')}
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClass('danger', 'sm')}
              data-testid="canvas-clear-confirm-ok"
              onClick={() => clearAll()}
            >
              {t('canvasEditor.clearAll')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function LeftPanel({ generate }: { generate: ReturnType<typeof useGenerate> }) {
  const { t } = useTranslation();
  const selectedCount = useCanvas((s) => s.selectedIds.length);
  const removeImages = useCanvas((s) => s.removeImages);
  const resetView = useCanvas((s) => s.resetView);
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  return (
    <aside className="flex shrink-0 flex-col gap-5 overflow-y-auto border-line p-4 lg:w-72 lg:border-e">
      <GeneratePanel generate={generate} />
      <ImageList />
      <section className="space-y-2">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">
          {t('canvasEditor.selectedSection', { count: selectedCount })}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            disabled={selectedCount === 0}
            data-testid="canvas-edit-ai"
            onClick={() => setOpenDialog('quick-edit')}
          >
            <WandSparkles className="size-4" aria-hidden />
            {t('canvasEditor.editWithAi')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={selectedCount === 0}
            data-testid="canvas-pin"
            onClick={() => {
              for (const image of selectedImages(useCanvas.getState())) pinToSequence(image);
            }}
          >
            <Pin className="size-4" aria-hidden />
            {t('canvasEditor.pinToSequence')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={selectedCount !== 1}
            data-testid="canvas-region-edit"
            onClick={() => setOpenDialog('region-edit')}
          >
            <MousePointerSquareDashed className="size-4" aria-hidden />
            {t('canvasEditor.regionEdit')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={selectedCount === 0}
            data-testid="canvas-remove-selected"
            onClick={() => removeImages(useCanvas.getState().selectedIds)}
          >
            <Trash2 className="size-4" aria-hidden />
            {t('canvasEditor.removeSelected')}
          </Button>
        </div>
      </section>
      <div className="flex flex-wrap gap-2">
        <ClearAll />
        <Button size="sm" variant="secondary" data-testid="canvas-reset-view" onClick={() => resetView()}>
          <Maximize className="size-4" aria-hidden />
          {t('canvasEditor.resetView')}
        </Button>
      </div>
    </aside>
  );
}

function Welcome() {
  const { t } = useTranslation();
  const steps = t('canvasEditor.welcomeSteps', { returnObjects: true }) as string[];
  return (
    <div
      data-testid="canvas-welcome"
      className="pointer-events-none absolute inset-0 flex items-center justify-center overflow-y-auto p-4"
    >
      <div className="max-w-md rounded-2xl border border-line bg-surface/90 p-5 text-sm shadow-lg backdrop-blur">
        <h2 className="text-base font-semibold">{t('canvasEditor.welcomeTitle')}</h2>
        <ol className="mt-3 list-decimal space-y-1 ps-5 text-muted">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}

function Toolbar({ generate }: { generate: ReturnType<typeof useGenerate> }) {
  const { t } = useTranslation();
  const tool = useCanvas((s) => s.tool);
  const format = useCanvas((s) => s.format);
  const setTool = useCanvas((s) => s.setTool);
  const setFormat = useCanvas((s) => s.setFormat);
  const setInputMode = useCanvas((s) => s.setInputMode);
  const fileRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setInputMode('upload');
    setUploading(true);
    try {
      const result = await uploadToCanvas([...files]);
      if (result.ok) toast.success(t('canvasEditor.uploaded', { count: result.images.length }));
      else toast.error(t(result.errorKey, { max: CANVAS.maxImages }));
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const onGenerate = () => {
    setInputMode('generate');
    if (generate.prompt.trim()) void generate.run();
    else document.getElementById('canvas-prompt')?.focus();
  };

  const item = 'inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium transition-colors';
  return (
    <div
      role="toolbar"
      aria-label={t('canvasEditor.toolbar')}
      className="flex flex-wrap items-center justify-center gap-1 rounded-xl border border-line bg-surface p-1.5 shadow-sm"
    >
      <input
        ref={fileRef}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        multiple
        hidden
        data-testid="canvas-upload-input"
        onChange={(e) => void onFiles(e.target.files)}
      />
      <button
        type="button"
        data-testid="canvas-upload"
        disabled={uploading}
        onClick={() => fileRef.current?.click()}
        className={cn(item, 'text-fg hover:bg-surface-2 disabled:opacity-50')}
      >
        <Upload className="size-4" aria-hidden />
        {uploading ? t('canvasEditor.uploading') : t('canvasEditor.upload')}
      </button>
      <button
        type="button"
        data-testid="canvas-generate"
        disabled={generate.busy}
        onClick={onGenerate}
        className={cn(item, 'text-fg hover:bg-surface-2 disabled:opacity-50')}
      >
        <ImagePlus className="size-4" aria-hidden />
        {generate.busy ? t('canvasEditor.generating') : t('canvasEditor.generate')}
      </button>
      <span className="mx-1 h-6 w-px bg-line" aria-hidden />
      {TOOLS.map(({ tool: id, Icon }) => (
        <button
          key={id}
          type="button"
          data-testid={`canvas-tool-${id}`}
          aria-pressed={tool === id}
          onClick={() => setTool(id)}
          className={cn(item, tool === id ? 'bg-accent text-accent-fg' : 'text-muted hover:bg-surface-2 hover:text-fg')}
        >
          <Icon className="size-4" aria-hidden />
          {t(`canvasEditor.tools.${id}`)}
        </button>
      ))}
      <span className="mx-1 h-6 w-px bg-line" aria-hidden />
      <fieldset className="flex gap-1" aria-label={t('canvasEditor.formatLabel')}>
        {FORMATS.map(({ format: id, key }) => (
          <button
            key={id}
            type="button"
            data-testid={`canvas-format-${key}`}
            aria-pressed={format === id}
            title={t(`canvasEditor.formatHint.${key}`)}
            onClick={() => setFormat(id)}
            className={cn(
              item,
              format === id
                ? 'bg-accent-soft text-accent ring-1 ring-accent'
                : 'text-muted hover:bg-surface-2 hover:text-fg',
            )}
          >
            {t(`canvasEditor.formats.${key}`)}
          </button>
        ))}
      </fieldset>
    </div>
  );
}

function StageArea() {
  const { t } = useTranslation();
  const boxRef = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(1);
  const empty = useCanvas((s) => s.images.length === 0);
  const zoom = useCanvas((s) => s.zoom);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () => setFit(fitScale(box.clientWidth, Math.max(240, window.innerHeight - 200)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={boxRef} className="flex w-full min-w-0 flex-col items-center">
      <div
        data-testid="canvas-stage"
        data-fit={fit.toFixed(3)}
        dir="ltr"
        className="relative overflow-hidden rounded-xl border border-line bg-surface-2 [background-image:radial-gradient(var(--color-line)_1px,transparent_1px)] [background-size:20px_20px]"
        style={{ width: Math.round(CANVAS.element.width * fit), height: Math.round(CANVAS.element.height * fit) }}
      >
        <CanvasStage fit={fit} />
        {empty && <Welcome />}
        <span className="pointer-events-none absolute bottom-2 end-2 rounded bg-surface/80 px-1.5 py-0.5 text-xs text-muted">
          {t('canvasEditor.zoom', { percent: Math.round(zoom * 100) })}
        </span>
      </div>
    </div>
  );
}

/** Full-screen canvas editor; Exit returns to /dashboard. */
export default function CanvasOverlay() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const count = useCanvas((s) => s.images.length);
  const enhancing = useCanvas((s) => s.enhancementsInProgress);
  const openDialog = useCanvas((s) => s.openDialog);
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  const selectedIds = useCanvas((s) => s.selectedIds);
  const generate = useGenerate();

  return (
    <div
      data-testid="canvas-overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="canvas-title"
      className="fixed inset-0 z-40 flex flex-col bg-bg text-fg"
    >
      <header className="flex items-center gap-3 border-b border-line px-4 py-2.5">
        <h1 id="canvas-title" className="truncate text-base font-semibold">
          {t('canvasEditor.title')}
        </h1>
        <span
          data-testid="canvas-count"
          role="status"
          aria-label={t('canvasEditor.countLabel')}
          className="shrink-0 whitespace-nowrap rounded-full bg-surface-2 px-2.5 py-0.5 text-xs font-medium tabular-nums"
        >
          {t('canvasEditor.count', { count, max: CANVAS.maxImages })}
        </span>
        {enhancing > 0 && (
          <span
            data-testid="canvas-enhancing"
            className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent"
          >
            {t('canvasEditor.enhancing', { count: enhancing })}
          </span>
        )}
        <div className="flex-1" />
        <Button variant="secondary" size="sm" data-testid="canvas-exit" onClick={() => navigate('/dashboard')}>
          <LogOut className="size-4 rtl:-scale-x-100" aria-hidden />
          {t('canvasEditor.exit')}
        </Button>
      </header>
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">
        <LeftPanel generate={generate} />
        <main className="flex min-w-0 flex-1 flex-col items-center gap-3 p-3 lg:overflow-auto">
          <StageArea />
          <Toolbar generate={generate} />
        </main>
        <aside className="flex shrink-0 border-line lg:w-80 lg:overflow-hidden lg:border-s">
          <CinemaSequencesPanel />
        </aside>
      </div>
      {openDialog === 'quick-edit' && <QuickEditPopover onClose={() => setOpenDialog(null)} />}
      <ImageEnhanceDialog />
      {openDialog === 'region-edit' && selectedIds[0] && (
        <RegionEditModal open onOpenChange={(open) => !open && setOpenDialog(null)} imageId={selectedIds[0]} />
      )}
    </div>
  );
}
