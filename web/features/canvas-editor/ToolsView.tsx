// The overlay's canvas tab: the left panel, the stage with its toolbar, Cinema Sequences and the canvas dialogs.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { CanvasStage } from '../canvas/CanvasStage.tsx';
import { ImageEnhanceDialog } from '../canvas/dialogs/ImageEnhanceDialog.tsx';
import { RegionEditModal } from '../canvas/dialogs/RegionEditModal.tsx';
import { fitScale } from '../canvas/rules.ts';
import { SelectionToolbar } from '../canvas/SelectionToolbar.tsx';
import { type CanvasImage, useCanvas } from '../canvas/store.ts';
import { useCanvasSessionParticipant } from '../editor-sessions/canvasParticipant.ts';
import { type EditorTab, useEditorOverlay } from '../editor-sessions/overlay.ts';
import { useMagicHandoff } from '../magic-selector/store.ts';
import { CinemaSequencesPanel } from '../sequences/CinemaSequencesPanel.tsx';
import { LeftPanel } from './LeftPanel.tsx';
import { pinAll, useGenerate } from './overlayActions.ts';
import { Toolbar } from './Toolbar.tsx';

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
export function ToolsView({ openTab }: { openTab: (tab: EditorTab) => void }) {
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
