// The canvas tools view's left panel: Generate, the image list, the selection's actions, Clear All and Reset View.
import { Maximize, MousePointerSquareDashed, Pin, Sparkles, Trash2, WandSparkles } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { boundingRect } from '../canvas/rules.ts';
import { selectedImages, useCanvas } from '../canvas/store.ts';
import { pinAll, type useGenerate } from './overlayActions.ts';

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

export function LeftPanel({ generate }: { generate: ReturnType<typeof useGenerate> }) {
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
