import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PickerDialog, PickerFooter, PickerTile } from '../../ui/PickerDialog.tsx';
import { type CanvasImage, useCanvas } from '../canvas/store.ts';

/** Picks up to `max` images of the multi-image canvas (read only) to add as layers. */
export function CanvasImagePicker({
  open,
  onOpenChange,
  max,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  max: number;
  onPick: (images: CanvasImage[]) => void;
}) {
  const { t } = useTranslation();
  const images = useCanvas((s) => s.images);
  const [selected, setSelected] = useState<string[]>([]);

  const toggle = (id: string) =>
    setSelected((current) => {
      if (current.includes(id)) return current.filter((x) => x !== id);
      return current.length >= max ? current : [...current, id];
    });

  return (
    <PickerDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setSelected([]);
        onOpenChange(next);
      }}
      title={t('multiComposition.pickCanvasTitle')}
      testId="mc-canvas-picker"
      className="z-[60] h-[min(560px,calc(100dvh-2rem))]"
      overlayClassName="z-[60]"
    >
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
        {images.length === 0 ? (
          <div className="flex flex-col items-center py-10 text-center">
            <ImageOff className="mb-2 size-7 text-subtle" aria-hidden />
            <p className="text-sm text-muted">{t('multiComposition.canvasEmpty')}</p>
          </div>
        ) : (
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
            {images.map((image) => (
              <li key={image.id}>
                <PickerTile
                  selected={selected.includes(image.id)}
                  onToggle={() => toggle(image.id)}
                  testId="mc-canvas-pick"
                  title={image.name}
                  className="bg-surface-2"
                >
                  <img
                    src={image.thumbnailUrl ?? image.url}
                    alt={image.name}
                    className="size-full object-cover"
                    loading="lazy"
                  />
                </PickerTile>
              </li>
            ))}
          </ul>
        )}
      </div>
      <PickerFooter
        count={t('multiComposition.pickedCount', { count: selected.length, max })}
        confirmLabel={t('multiComposition.addPicked', { count: selected.length })}
        disabled={selected.length === 0}
        testId="mc-canvas-confirm"
        onConfirm={() => {
          onPick(images.filter((image) => selected.includes(image.id)));
          setSelected([]);
          onOpenChange(false);
        }}
      />
    </PickerDialog>
  );
}
