import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';

/** The close button of a dialog's top bar. */
export function DialogCloseButton() {
  const { t } = useTranslation();
  return (
    <Dialog.Close
      className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
      aria-label={t('common.close')}
    >
      <X className="size-4" aria-hidden />
    </Dialog.Close>
  );
}

/** A dialog's top bar: its title and the close button. */
export function DialogTitleBar({ title }: { title: string }) {
  return (
    <div className="flex items-center gap-3 border-b border-line px-5 py-4">
      <Dialog.Title className="flex-1 text-base font-semibold">{title}</Dialog.Title>
      <DialogCloseButton />
    </div>
  );
}
