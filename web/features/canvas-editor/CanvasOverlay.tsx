// The multi-image canvas editor overlay (canvas spec 2): header with the image count and enhancements in
// progress, left panel (Generate, image list, selection actions, Clear All, Reset View), the stage with its
// bottom toolbar. Loaded lazily from the studio: konva only downloads when the canvas opens.
import {
  FolderOpen,
  Hand,
  ImagePlus,
  Images,
  Layers,
  LayoutGrid,
  LogOut,
  Maximize,
  Moon,
  MousePointer2,
  MousePointerSquareDashed,
  Move,
  PanelLeftClose,
  PanelLeftOpen,
  Pin,
  Save,
  Sparkles,
  Sun,
  Trash2,
  Upload,
  WandSparkles,
} from 'lucide-react';
import { Tabs } from 'radix-ui';
import {
  type ButtonHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { CANVAS, type CanvasFormat } from '../../../common/api/canvas-images.constants.ts';
import type { EditorSessionSummary } from '../../../common/api/editor-sessions.ts';
import type { EditorSessionType } from '../../../common/rules/editor-sessions.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { resolveTheme, usePreferences } from '../../ui/preferences.ts';
import { generateOnCanvas, uploadToCanvas } from '../canvas/actions.ts';
import { CanvasStage } from '../canvas/CanvasStage.tsx';
import { installCanvasDebugHandle } from '../canvas/debug.ts';
import { ImageEnhanceDialog } from '../canvas/dialogs/ImageEnhanceDialog.tsx';
import { RegionEditModal } from '../canvas/dialogs/RegionEditModal.tsx';
import { boundingRect, fitScale } from '../canvas/rules.ts';
import { SelectionToolbar } from '../canvas/SelectionToolbar.tsx';
import { type CanvasImage, type CanvasTool, selectedImages, useCanvas } from '../canvas/store.ts';
import { AutosaveIndicator } from '../editor-sessions/AutosaveIndicator.tsx';
import { getSession } from '../editor-sessions/api.ts';
import { useCanvasAutosave } from '../editor-sessions/canvasAutosave.ts';
import { useCanvasSessionParticipant } from '../editor-sessions/canvasParticipant.ts';
import { LeaveGuard } from '../editor-sessions/LeaveGuard.tsx';
import { loadSession } from '../editor-sessions/load.ts';
import {
  EDITOR_TABS,
  type EditorTab,
  parseEditorTab,
  sessionMessage,
  tabOfType,
  typeOfTab,
  useEditorOverlay,
} from '../editor-sessions/overlay.ts';
import { SaveSessionDialog } from '../editor-sessions/SaveSessionDialog.tsx';
import { SessionsDialog } from '../editor-sessions/SessionsDialog.tsx';
import { MagicSelectorPanel } from '../magic-selector/MagicSelectorPanel.tsx';
import { useMagicHandoff } from '../magic-selector/store.ts';
import { MultiCompositionTool } from '../multi-composition/MultiCompositionTool.tsx';
import { MultiReferencePanel } from '../multi-reference/MultiReferencePanel.tsx';
import { CinemaSequencesPanel } from '../sequences/CinemaSequencesPanel.tsx';
import { pinToSequence } from '../sequences/store.ts';

/** Pins images to the cinema sequence, in order (one already pinned is skipped with its own message). */
function pinAll(images: readonly CanvasImage[]): void {
  for (const image of images) pinToSequence(image);
}

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
    <ConfirmPopup
      trigger={
        <Button variant="secondary" size="sm" disabled={count === 0} data-testid="canvas-clear-all">
          <Trash2 className="size-4" aria-hidden />
          {t('canvasEditor.clearAll')}
        </Button>
      }
      title={t('canvasEditor.clearConfirmTitle')}
      body={t('canvasEditor.clearConfirmBody', { count })}
      cancelLabel={t('canvasEditor.cancel')}
      confirmLabel={t('canvasEditor.clearAll')}
      onConfirm={() => clearAll()}
      testId="canvas-clear-confirm"
      confirmTestId="canvas-clear-confirm-ok"
      layerClassName="z-50"
    />
  );
}

/** Which engine made the one selected image, when the studio made it. */
function SelectedEngine() {
  const engine = useCanvas((s) =>
    s.selectedIds.length === 1 ? (s.images.find((image) => image.id === s.selectedIds[0])?.engine ?? null) : null,
  );
  return <EngineBadge engine={engine} className="text-muted" />;
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
        <SelectedEngine />
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            disabled={selectedCount === 0}
            data-testid="canvas-edit-ai"
            onClick={() => {
              // The quick edit opens in the selection's floating toolbar: bring the selection into view first.
              const box = boundingRect(selectedImages(useCanvas.getState()));
              if (box) useCanvas.getState().reveal(box);
              setOpenDialog('quick-edit');
            }}
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
              pinAll(selectedImages(useCanvas.getState()));
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
      if (result.ok && result.failed > 0) toast.error(t('canvasOverlay.someUploadsFailed', { count: result.failed }));
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

/**
 * The stage fills the room between the header and the toolbar (on narrow screens a fixed share of the height)
 * and follows the window: the 1200×800 element is scaled to fit it, and the canvas area it shows at zoom 1 goes
 * to the store so new images can be brought into view.
 */
function StageArea({ onMagicSelector }: { onMagicSelector: (image: CanvasImage) => void }) {
  const { t } = useTranslation();
  const boxRef = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<{ width: number; height: number }>(CANVAS.element);
  const empty = useCanvas((s) => s.images.length === 0);
  const zoom = useCanvas((s) => s.zoom);
  const setViewport = useCanvas((s) => s.setViewport);
  const fit = fitScale(box.width, box.height);

  useEffect(() => {
    const element = boxRef.current;
    if (!element) return;
    const measure = () => {
      const width = Math.max(1, element.clientWidth);
      const height = Math.max(1, element.clientHeight);
      setBox((current) => (current.width === width && current.height === height ? current : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => setViewport({ width: box.width / fit, height: box.height / fit }), [box, fit, setViewport]);

  return (
    <div
      ref={boxRef}
      data-testid="canvas-stage"
      data-fit={fit.toFixed(3)}
      dir="ltr"
      className="relative h-[62svh] min-h-72 w-full shrink-0 overflow-hidden rounded-xl border border-line bg-surface-2 [background-image:radial-gradient(var(--color-line)_1px,transparent_1px)] [background-size:20px_20px] lg:h-auto lg:min-h-0 lg:flex-1"
    >
      <CanvasStage fit={fit} width={box.width} height={box.height} />
      {empty && <Welcome />}
      <SelectionToolbar fit={fit} bounds={box} onMagicSelector={onMagicSelector} onPin={pinAll} />
      <span className="pointer-events-none absolute bottom-2 end-2 rounded bg-surface/80 px-1.5 py-0.5 text-xs text-muted">
        {t('canvasEditor.zoom', { percent: Math.round(zoom * 100) })}
      </span>
    </div>
  );
}

/** The spec's tools view: left panel, stage and toolbar, Cinema Sequences, and the canvas dialogs. */
function ToolsView({ openTab }: { openTab: (tab: EditorTab) => void }) {
  const openDialog = useCanvas((s) => s.openDialog);
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  const selectedIds = useCanvas((s) => s.selectedIds);
  const collapsed = useEditorOverlay((s) => s.sidebarCollapsed);
  const generate = useGenerate();
  useCanvasSessionParticipant();

  return (
    <>
      {!collapsed && <LeftPanel generate={generate} />}
      {/* Not a <main>: the overlay sits above the dashboard, whose <main> stays the page's one. */}
      <div className="flex min-w-0 flex-1 flex-col items-center gap-3 p-3 lg:min-h-0">
        <StageArea
          onMagicSelector={(image) => {
            useMagicHandoff.setState({ source: { imageId: image.id, url: image.url } });
            openTab('magic-selector');
          }}
        />
        <Toolbar generate={generate} />
      </div>
      <aside className="flex shrink-0 border-line lg:w-80 lg:overflow-hidden lg:border-s">
        <CinemaSequencesPanel />
      </aside>
      <ImageEnhanceDialog />
      {openDialog === 'region-edit' && selectedIds[0] && (
        <RegionEditModal open onOpenChange={(open) => !open && setOpenDialog(null)} imageId={selectedIds[0]} />
      )}
    </>
  );
}

const TAB_ICONS: Record<EditorTab, typeof Hand> = {
  canvas: LayoutGrid,
  'multi-composition': Layers,
  'magic-selector': WandSparkles,
  'multi-reference': Images,
};

/** The overlay's tab in the URL (?editor=), so a reload keeps it; the tools view leaves it out. */
function useEditorTab(): [EditorTab, (tab: EditorTab) => void] {
  const [params, setParams] = useSearchParams();
  const tab = parseEditorTab(params.get('editor'));
  const setTab = useCallback(
    (next: EditorTab) =>
      setParams(
        (current) => {
          const url = new URLSearchParams(current);
          if (next === 'canvas') url.delete('editor');
          else url.set('editor', next);
          return url;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [tab, setTab];
}

/** Loads a saved session into its tool (switching tabs when needed) with a progress toast. */
function useSessionLoader(tab: EditorTab, setTab: (tab: EditorTab) => void) {
  const { t } = useTranslation();
  const setCurrent = useEditorOverlay((s) => s.setCurrent);
  const tabRef = useRef(tab);
  tabRef.current = tab;
  const [loading, setLoading] = useState(false);

  const load = async (summary: EditorSessionSummary) => {
    if (loading) return;
    setLoading(true);
    const toastId = toast.loading(t('editorSessions.loading'));
    try {
      const outcome = await loadSession(summary.id, {
        fetchSession: getSession,
        activeType: () => typeOfTab(tabRef.current),
        switchTo: (type) => setTab(tabOfType(type)),
      });
      if (outcome.ok) {
        const { session } = outcome;
        // The autosave is the editor's own: saving by hand makes a new session rather than updating it.
        setCurrent(
          session.autosave
            ? null
            : { id: session.id, name: session.name, type: session.component_type as EditorSessionType },
        );
        toast.success(t('editorSessions.loaded', { name: session.name }), { id: toastId });
      } else {
        toast.error(sessionMessage(t, outcome.message), { id: toastId });
      }
    } finally {
      setLoading(false);
    }
  };
  return { load, loading };
}

/** A header button: icon only on narrow screens, its label from `labelFrom` up (never without one). */
function HeaderButton({
  label,
  icon,
  labelFrom,
  ...props
}: { label: string; icon: ReactNode; labelFrom?: 'sm' | '2xl' } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-label={label}
      title={label}
      className={cn('px-2', labelFrom === 'sm' && 'sm:px-3', labelFrom === '2xl' && '2xl:px-3')}
      {...props}
    >
      {icon}
      {labelFrom && (
        <span className={labelFrom === 'sm' ? 'hidden sm:inline' : 'hidden 2xl:inline'} aria-hidden>
          {label}
        </span>
      )}
    </Button>
  );
}

/** Full-screen editor overlay: the canvas tools view and the other editors as tabs; Exit returns to /dashboard. */
export default function CanvasOverlay() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dir = useDir();
  const count = useCanvas((s) => s.images.length);
  const enhancing = useCanvas((s) => s.enhancementsInProgress);
  const [tab, setTab] = useEditorTab();
  const sessions = useSessionLoader(tab, setTab);
  const autosave = useCanvasAutosave();
  const [saveOpen, setSaveOpen] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const collapsed = useEditorOverlay((s) => s.sidebarCollapsed);
  const toggleSidebar = useEditorOverlay((s) => s.toggleSidebar);
  const theme = usePreferences((s) => s.theme);
  const setTheme = usePreferences((s) => s.setTheme);
  const dark = resolveTheme(theme) === 'dark';

  const tabTrigger = cn(
    'relative -mb-px inline-flex h-10 shrink-0 items-center gap-1.5 border-b-2 border-transparent px-3 text-sm font-medium text-muted transition-colors',
    'hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg',
    'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
  );

  return (
    <div
      data-testid="canvas-overlay"
      data-editor-tab={tab}
      role="dialog"
      aria-modal="true"
      aria-labelledby="canvas-title"
      className="fixed inset-0 z-40 flex flex-col bg-bg text-fg"
    >
      <Tabs.Root
        dir={dir}
        value={tab}
        onValueChange={(value) => setTab(parseEditorTab(value))}
        activationMode="manual"
        className="flex min-h-0 flex-1 flex-col"
      >
        <header className="flex flex-wrap items-center gap-x-3 gap-y-0 border-b border-line px-3 pt-2 sm:px-4 xl:flex-nowrap xl:pt-0">
          <div className="flex min-w-0 items-center gap-2 xl:py-2">
            {tab === 'canvas' && (
              <HeaderButton
                label={collapsed ? t('editorSessions.expandSidebar') : t('editorSessions.collapseSidebar')}
                aria-pressed={collapsed}
                data-testid="editor-sidebar-toggle"
                onClick={toggleSidebar}
                icon={
                  collapsed ? (
                    <PanelLeftOpen className="size-4 rtl:-scale-x-100" aria-hidden />
                  ) : (
                    <PanelLeftClose className="size-4 rtl:-scale-x-100" aria-hidden />
                  )
                }
              />
            )}
            <h1 id="canvas-title" className="sr-only truncate text-base font-semibold sm:not-sr-only">
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
            <AutosaveIndicator autosave={autosave} />
            {enhancing > 0 && (
              <span
                data-testid="canvas-enhancing"
                className="shrink-0 whitespace-nowrap rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent"
              >
                {t('canvasEditor.enhancing', { count: enhancing })}
              </span>
            )}
          </div>
          <Tabs.List
            aria-label={t('editorSessions.tabsLabel')}
            data-testid="editor-tabs"
            className="order-last -mx-3 flex w-[calc(100%+1.5rem)] gap-1 overflow-x-auto px-3 sm:-mx-4 sm:w-[calc(100%+2rem)] sm:px-4 xl:order-none xl:mx-0 xl:w-auto xl:min-w-0 xl:flex-1 xl:self-end xl:px-0"
          >
            {EDITOR_TABS.map(({ id, type }) => {
              const Icon = TAB_ICONS[id];
              return (
                <Tabs.Trigger key={id} value={id} data-testid={`editor-tab-${id}`} className={tabTrigger}>
                  <Icon className="size-4" aria-hidden />
                  {t(`editorSessions.types.${type}`)}
                </Tabs.Trigger>
              );
            })}
          </Tabs.List>
          <div className="ms-auto flex shrink-0 items-center gap-1.5 py-2">
            <HeaderButton
              label={dark ? t('editorSessions.toLight') : t('editorSessions.toDark')}
              data-testid="editor-theme-toggle"
              data-theme={dark ? 'dark' : 'light'}
              onClick={() => setTheme(dark ? 'light' : 'dark')}
              icon={dark ? <Sun className="size-4" aria-hidden /> : <Moon className="size-4" aria-hidden />}
            />
            <HeaderButton
              label={t('editorSessions.sessions')}
              labelFrom="sm"
              data-testid="editor-sessions-open"
              disabled={sessions.loading}
              onClick={() => setListOpen(true)}
              icon={<FolderOpen className="size-4" aria-hidden />}
            />
            <HeaderButton
              label={t('editorSessions.save')}
              labelFrom="sm"
              data-testid="editor-session-save"
              onClick={() => setSaveOpen(true)}
              icon={<Save className="size-4" aria-hidden />}
            />
            <HeaderButton
              label={t('canvasEditor.exit')}
              labelFrom="2xl"
              data-testid="canvas-exit"
              onClick={() => navigate('/dashboard')}
              icon={<LogOut className="size-4 rtl:-scale-x-100" aria-hidden />}
            />
          </div>
        </header>
        <Tabs.Content
          value="canvas"
          className="flex min-h-0 flex-1 flex-col overflow-y-auto focus-visible:outline-none lg:flex-row lg:overflow-hidden"
        >
          <ToolsView openTab={setTab} />
        </Tabs.Content>
        <Tabs.Content value="multi-composition" className={TOOL_TAB}>
          <MultiCompositionTool />
        </Tabs.Content>
        <Tabs.Content value="magic-selector" className={TOOL_TAB}>
          <MagicSelectorPanel layout="tab" />
        </Tabs.Content>
        <Tabs.Content value="multi-reference" className={TOOL_TAB}>
          <MultiReferencePanel layout="tab" />
        </Tabs.Content>
      </Tabs.Root>
      <LeaveGuard autosave={autosave} />
      <SaveSessionDialog
        open={saveOpen}
        onOpenChange={(open) => {
          setSaveOpen(open);
          if (!open) refocus('editor-session-save');
        }}
        type={typeOfTab(tab)}
      />
      <SessionsDialog
        open={listOpen}
        onOpenChange={(open) => {
          setListOpen(open);
          if (!open) refocus('editor-sessions-open');
        }}
        onLoad={(session) => {
          setListOpen(false);
          refocus('editor-sessions-open');
          void sessions.load(session);
        }}
      />
    </div>
  );
}

/** The dialogs open from state, not from a radix Trigger: hand focus back to their button once they close. */
function refocus(testId: string) {
  setTimeout(() => document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus(), 0);
}

const TOOL_TAB = 'min-h-0 flex-1 overflow-y-auto p-3 focus-visible:outline-none sm:p-4 [&>*]:mx-auto';
