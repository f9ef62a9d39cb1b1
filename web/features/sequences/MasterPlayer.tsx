// A full-screen player for the compiled master video (Play in 'Master Video Ready').

import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';

export function MasterPlayer({ url, onClose }: { url: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/90 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="master-player"
          className="fixed inset-0 z-[60] flex flex-col p-3 text-white outline-none sm:p-6"
        >
          <div className="flex items-center gap-2 pb-3">
            <Dialog.Title className="flex-1 text-sm font-medium">{t('sequences.masterVideo')}</Dialog.Title>
            <Dialog.Close
              className="grid size-9 place-items-center rounded-lg text-white/80 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
              aria-label={t('common.close')}
              data-testid="master-player-close"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="flex min-h-0 flex-1 items-center justify-center">
            {/* biome-ignore lint/a11y/useMediaCaption: generated video without captions */}
            <video src={url} controls autoPlay playsInline className="max-h-full max-w-full rounded-lg" />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
