// Region edit modal (canvas spec 2, 3, 4, 5, 9): the image drawn on a canvas scaled to fit 800x600, rectangles
// drawn with the mouse (under 20x20 discarded), images dropped onto regions (image files only), per-region
// prompt and Generate (region-masked reference-chain composition), Upscale of the result and Download.
// The state and actions are regionEditStore's, the drawing surface RegionSelector's; this renders them.
import { Wand2 } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogCloseButton } from '../../../ui/DialogTitleBar.tsx';
import { useCanvas } from '../store.ts';
import { RegionCanvasPane } from './RegionCanvasPane.tsx';
import { RegionSelector } from './RegionSelector.ts';
import { RegionSidebar } from './RegionSidebar.tsx';
import { createRegionEditStore } from './regionEditStore.ts';
import { useRegionCanvas } from './useRegionCanvas.ts';

export interface RegionEditModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  imageId: string;
}

export function RegionEditModal({ open, onOpenChange, imageId }: RegionEditModalProps) {
  const { t } = useTranslation();
  const image = useCanvas((s) => s.images.find((img) => img.id === imageId));
  const [store] = useState(createRegionEditStore);
  const [selector] = useState(() => new RegionSelector());
  const canvas = useRegionCanvas(store, selector, open, image?.url);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content
          data-testid="region-modal"
          className="fixed left-1/2 top-1/2 z-50 flex h-[90vh] w-[90vw] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-line bg-surface shadow-2xl"
        >
          <div className="flex items-center gap-3 border-b border-line px-5 py-3">
            <Wand2 className="size-5 text-accent" aria-hidden />
            <Dialog.Title className="flex-1 text-base font-semibold">{t('canvasDialogs.region.title')}</Dialog.Title>
            <DialogCloseButton />
          </div>
          <Dialog.Description className="px-5 pt-2 text-xs text-muted">
            {t('canvasDialogs.region.help')}
          </Dialog.Description>
          <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-5 lg:flex-row">
            <RegionCanvasPane store={store} selector={selector} canvas={canvas} image={image} />

            <RegionSidebar store={store} image={image} removeRegion={canvas.removeRegion} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
