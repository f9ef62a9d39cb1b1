import { WandSparkles, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useStore } from 'zustand';
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { PreviewNote } from '../../ui/PreviewNote.tsx';
import { ToolPanelLayout } from '../../ui/ToolPanelLayout.tsx';
import { placeBesideSource } from '../canvas/actions.ts';
import { BeforeAfter } from './BeforeAfter.tsx';
import { MagicMaskArea } from './MagicMaskArea.tsx';
import { MagicSettings } from './MagicSettings.tsx';
import type { MagicResult } from './session.ts';
import { createMagicStore } from './store.ts';
import { useMagicMask } from './useMagicMask.ts';

// The Magic Selector (canvas spec 2, 5, 9): a base image, a brush painting white on a black mask
// (line width 20 on screen), a mode, quality, prompt, reference for replace and style transfer, and
// Apply Magic calling POST /api/ai/generate/inpaint; the result is shown large against its base (before/after).
// In the editor tab the base can be a canvas image handed over by the selection toolbar (useMagicHandoff); its
// result then goes onto the canvas beside that image.

export function MagicSelectorPanel({ onClose, layout = 'panel' }: { onClose?: () => void; layout?: 'panel' | 'tab' }) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const [store] = useState(createMagicStore);
  const prompt = useStore(store, (s) => s.prompt);
  const busy = useStore(store, (s) => s.busy);
  const result = useStore(store, (s) => s.result);
  const before = useStore(store, (s) => s.before);
  const sourceId = useStore(store, (s) => s.sourceId);
  const { setBase, setError, setResult } = store.getState();
  // Apply Magic opened the result; it is disabled while it works, so the dialog hands focus back to it by hand.
  const applyButton = useRef<HTMLElement | null>(null);

  const tab = layout === 'tab';
  const { painter, maskCanvas, clearMask } = useMagicMask(store, tab);

  const onError = (key: string) => setError(t(key));

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
    <MagicMaskArea
      store={store}
      tab={tab}
      painter={painter}
      maskCanvas={maskCanvas}
      clearMask={clearMask}
      onError={onError}
    />
  );
  const settings = <MagicSettings store={store} painter={painter} applyButton={applyButton} onError={onError} />;
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
