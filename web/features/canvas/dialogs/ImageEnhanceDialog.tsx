// Image enhance dialog (canvas spec 2, 9): the four enhancement services; Start queues the chosen one for the
// source image and follows it in the background (enhance.ts).
import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnhancorKind } from '../../../../common/api/generation.constants.ts';
import { IMAGE_ENHANCE_DEFAULTS } from '../../../../common/api/uploads.constants.ts';
import { Button } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { DialogShell } from '../../../ui/DialogShell.tsx';
import { selectedImages, useCanvas } from '../store.ts';
import { startImageEnhancement } from './enhance.ts';
import { IMAGE_ENHANCE_SERVICES } from './rules.ts';

export interface ImageEnhanceDialogProps {
  /** Defaults to the store's `openDialog === 'image-enhance'`. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The image to enhance; defaults to the first selected image. */
  imageId?: string;
}

export function ImageEnhanceDialog({ open, onOpenChange, imageId }: ImageEnhanceDialogProps) {
  const { t } = useTranslation();
  const storeOpen = useCanvas((s) => s.openDialog === 'image-enhance');
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  const image = useCanvas((s) =>
    imageId ? s.images.find((img) => img.id === imageId) : (selectedImages(s)[0] ?? undefined),
  );
  const [service, setService] = useState<EnhancorKind>('image-upscaler');
  const [starting, setStarting] = useState(false);
  const isOpen = open ?? storeOpen;
  const change = (next: boolean) => {
    if (onOpenChange) onOpenChange(next);
    else if (!next) setOpenDialog(null);
  };

  const start = async () => {
    if (!image) return;
    setStarting(true);
    const ok = await startImageEnhancement(image, service, t(`canvasDialogs.enhance.services.${service}.name`));
    setStarting(false);
    if (ok) change(false);
  };

  return (
    <DialogShell
      open={isOpen}
      onOpenChange={change}
      title={t('canvasDialogs.enhance.title')}
      description={t('canvasDialogs.enhance.description')}
      testId="image-enhance-dialog"
    >
      <div className="space-y-4">
        {image ? (
          <div className="flex items-center gap-3 rounded-xl border border-line bg-surface-2 p-2">
            <img src={image.thumbnailUrl ?? image.url} alt="" className="size-14 rounded-lg object-cover" />
            <span className="min-w-0 truncate text-sm">{image.name}</span>
          </div>
        ) : (
          <p className="text-sm text-muted">{t('canvasDialogs.enhance.noImage')}</p>
        )}
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="sr-only">{t('canvasDialogs.enhance.serviceLabel')}</legend>
          {IMAGE_ENHANCE_SERVICES.map((id) => {
            const params = IMAGE_ENHANCE_DEFAULTS[id];
            const active = id === service;
            return (
              <button
                key={id}
                type="button"
                data-testid={`image-enhance-service-${id}`}
                aria-pressed={active}
                onClick={() => setService(id)}
                className={cn(
                  'rounded-xl border p-3 text-start transition-colors',
                  active ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2 hover:border-line-strong',
                )}
              >
                <span className="block text-sm font-medium">{t(`canvasDialogs.enhance.services.${id}.name`)}</span>
                <span className="mt-1 block text-xs text-muted">
                  {t(`canvasDialogs.enhance.services.${id}.description`)}
                </span>
                {params.mode ? (
                  <span className="mt-1 block text-xs text-subtle">
                    {t('canvasDialogs.enhance.mode', { mode: params.mode })}
                  </span>
                ) : null}
                {params.enhancementLevel !== undefined ? (
                  <span className="mt-1 block text-xs text-subtle">
                    {t('canvasDialogs.enhance.level', { level: params.enhancementLevel })}
                  </span>
                ) : null}
              </button>
            );
          })}
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => change(false)}>
            {t('canvasDialogs.cancel')}
          </Button>
          <Button data-testid="image-enhance-start" onClick={start} loading={starting} disabled={!image}>
            <Sparkles className="size-4" aria-hidden />
            {t('canvasDialogs.enhance.start')}
          </Button>
        </div>
      </div>
    </DialogShell>
  );
}
