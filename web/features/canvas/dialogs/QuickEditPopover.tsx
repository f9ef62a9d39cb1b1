// Quick AI edit popover (canvas spec 2, 5, 8, 9). One image selected: Quick AI Edit (prompt → NanoBana edit of
// the image, sent by URL; the result goes to the first free grid cell and into view) plus Enhance/Upscale (opens
// the image enhance dialog). Several: Multi-Composition of up to 10 images. Failures are shown, not only logged.
// It opens inside the selection toolbar's floating card (SelectionToolbar), beside the image, never over it.

import i18next from 'i18next';
import { Layers, Sparkles, Wand2, X } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CANVAS } from '../../../../common/api/canvas-images.constants.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { useModelEngines } from '../../../api/engines.ts';
import { Button } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { labelClass, Segmented } from '../../../ui/controls.tsx';
import { engineOf } from '../../../ui/EngineBadge.tsx';
import { inputClass } from '../../../ui/Field.tsx';
import { previewOf, previewText } from '../../../ui/PreviewNote.tsx';
import { type CanvasImage, selectedImages, useCanvas } from '../store.ts';
import { composeImages, editImage, failureText, imageRef } from './api.ts';
import { finishedUrl } from './enhance.ts';
import {
  CANVAS_DIALOG_MESSAGES,
  canCompose,
  canQuickEdit,
  compositionSelection,
  MULTI_COMPOSITION_MAX,
  quickEditOutput,
} from './rules.ts';

export interface QuickEditPopoverProps {
  onClose(): void;
}

function useSelection(): CanvasImage[] {
  const images = useCanvas((s) => s.images);
  const selectedIds = useCanvas((s) => s.selectedIds);
  return selectedImages({ images, selectedIds });
}

/**
 * seedream4 (16:9, 4K) or nanobana (1:1, 2K) for the quick edit; the toolbar's format sets the default. One
 * choice per row: the engine names ("Seedream 4 (local preview)") are too long to share one.
 */
function ImageModelChoice() {
  const { t } = useTranslation();
  const model = useCanvas((s) => s.imageModel);
  const setImageModel = useCanvas((s) => s.setImageModel);
  const engines = useModelEngines();
  return (
    <div className="mb-2 space-y-1.5">
      <span className={labelClass} aria-hidden>
        {t('canvasDialogs.quickEdit.model')}
      </span>
      <Segmented
        label={t('canvasDialogs.quickEdit.model')}
        value={model}
        onChange={setImageModel}
        options={[
          {
            value: 'seedream4',
            label: engines.model('image', 'seedream4').label,
            description: t('canvasToolbar.formatWide'),
          },
          {
            value: 'nanobana',
            label: engines.model('image', 'nanobana').label,
            description: t('canvasToolbar.formatSquare'),
          },
        ]}
        testIdPrefix="quick-edit-model"
        layout="stack"
      />
    </div>
  );
}

/** Adds a result in the first free grid cell and brings it into view; false at the 1000-image limit. */
function placeResult(image: Parameters<ReturnType<typeof useCanvas.getState>['addImage']>[0]): boolean {
  const added = useCanvas.getState().addImage(image);
  if (!added) {
    toast.error(i18next.t('canvasEditor.limitReached', { max: CANVAS.maxImages }));
    return false;
  }
  useCanvas.getState().reveal(added);
  return true;
}

async function runQuickEdit(image: CanvasImage, prompt: string): Promise<boolean> {
  const model = useCanvas.getState().imageModel;
  const output = quickEditOutput(model);
  try {
    const reply = await editImage({
      prompt,
      imageBuffer: imageRef(image),
      fileNamePrefix: 'canvas-quick-edit',
      quality: output.quality,
    });
    const url = await finishedUrl(reply.data);
    const source = useCanvas.getState().images.find((img) => img.id === image.id) ?? image;
    const placed = placeResult({
      url,
      thumbnailUrl: reply.data.thumbnail_url,
      name: `${image.name} (edit)`,
      prompt,
      assetId: reply.data.id ?? undefined,
      engine: engineOf(reply.data.metadata),
      // The edit keeps the source's shape; its real size, when the reply has it, fits the box to it.
      naturalWidth: reply.data.width ?? source.naturalWidth,
      naturalHeight: reply.data.height ?? source.naturalHeight,
      width: source.width,
      height: source.height,
    });
    // The spec's words in English (CANVAS_DIALOG_MESSAGES.quickEditDone), translated for other languages.
    const preview = previewOf(reply.data.metadata);
    // With the local preview engine, what it did with the prompt (and what it could not) as the message's detail.
    if (placed)
      toast.success(i18next.t('canvasOverlay.quickEditDone'), {
        description: preview ? previewText(i18next.t, preview, true) : undefined,
        duration: preview ? 10_000 : undefined,
      });
    return placed;
  } catch (error) {
    // The spec only logs a quick-edit failure; a silent failure leaves the user waiting, so it is shown too.
    console.error('Quick AI Edit failed', error);
    toast.error(failureText(error, MESSAGES.canvasImages.editFailed));
    return false;
  }
}

async function runComposition(images: CanvasImage[], prompt: string): Promise<boolean> {
  try {
    const reply = await composeImages({
      prompt,
      imageBuffers: images.map(imageRef),
      fileNamePrefix: 'canvas-multi-composition',
    });
    const url = await finishedUrl(reply.data);
    return placeResult({
      url,
      thumbnailUrl: reply.data.thumbnail_url,
      name: `Composition (${images.length})`,
      prompt,
      assetId: reply.data.id ?? undefined,
      engine: engineOf(reply.data.metadata),
      naturalWidth: reply.data.width ?? undefined,
      naturalHeight: reply.data.height ?? undefined,
    });
  } catch (error) {
    console.error('Multi-composition failed', error);
    toast.error(failureText(error, CANVAS_DIALOG_MESSAGES.compositionFailed));
    return false;
  }
}

export function QuickEditPopover({ onClose }: QuickEditPopoverProps) {
  const { t } = useTranslation();
  const selection = useSelection();
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState(false);

  if (selection.length === 0) return null;
  const single = selection.length === 1;
  const composed = compositionSelection(selection);

  const apply = async () => {
    if (busy) return;
    const text = prompt.trim();
    if (single) {
      if (!canQuickEdit(text, selection.length)) return;
      setBusy(true);
      const ok = await runQuickEdit(selection[0], text);
      setBusy(false);
      if (ok) {
        setPrompt('');
        onClose();
      }
    } else {
      if (!canCompose(text, composed.length)) return;
      setBusy(true);
      const ok = await runComposition(composed, text);
      setBusy(false);
      if (ok) {
        toast.success(t('canvasDialogs.quickEdit.compositionDone'));
        setPrompt('');
        onClose();
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void apply();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };

  return (
    <section
      data-testid="quick-edit-popover"
      aria-label={single ? t('canvasDialogs.quickEdit.title') : t('canvasDialogs.quickEdit.compositionTitle')}
      className="w-96 max-w-full rounded-2xl border border-line bg-surface p-4 shadow-2xl"
    >
      <div className="mb-3 flex items-center gap-2">
        {single ? (
          <Wand2 className="size-4 text-accent" aria-hidden />
        ) : (
          <Layers className="size-4 text-accent" aria-hidden />
        )}
        <h2 className="flex-1 text-sm font-semibold">
          {single ? t('canvasDialogs.quickEdit.title') : t('canvasDialogs.quickEdit.compositionTitle')}
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('common.close')}
          className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {!single ? (
        <p className="mb-2 text-xs text-muted">
          {t('canvasDialogs.quickEdit.compositionCount', {
            count: composed.length,
            max: MULTI_COMPOSITION_MAX,
          })}
          {selection.length > MULTI_COMPOSITION_MAX ? ` ${t('canvasDialogs.quickEdit.compositionLimited')}` : ''}
        </p>
      ) : null}
      {single && <ImageModelChoice />}
      <textarea
        data-testid="quick-edit-prompt"
        className={cn(inputClass, 'min-h-16 resize-y py-2')}
        rows={2}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={
          single ? t('canvasDialogs.quickEdit.placeholder') : t('canvasDialogs.quickEdit.compositionPlaceholder')
        }
        aria-label={
          single ? t('canvasDialogs.quickEdit.placeholder') : t('canvasDialogs.quickEdit.compositionPlaceholder')
        }
        disabled={busy}
        // biome-ignore lint/a11y/noAutofocus: the popover opens for typing the edit prompt
        autoFocus
      />
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        {single ? (
          <>
            <Button
              variant="secondary"
              size="sm"
              data-testid="quick-edit-enhance"
              onClick={() => {
                onClose();
                setOpenDialog('image-enhance');
              }}
              disabled={busy}
            >
              <Sparkles className="size-4" aria-hidden />
              {t('canvasDialogs.quickEdit.enhance')}
            </Button>
            <Button
              size="sm"
              data-testid="quick-edit-apply"
              onClick={apply}
              loading={busy}
              disabled={!canQuickEdit(prompt, selection.length)}
            >
              {t('canvasDialogs.quickEdit.apply')}
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            data-testid="multi-composition-apply"
            onClick={apply}
            loading={busy}
            disabled={!canCompose(prompt, composed.length)}
          >
            {t('canvasDialogs.quickEdit.composition')}
          </Button>
        )}
      </div>
    </section>
  );
}
