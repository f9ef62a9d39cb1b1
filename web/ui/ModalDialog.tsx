import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';
import { DialogTitleBar } from './DialogTitleBar.tsx';

/**
 * A centred modal (Radix Dialog): rendered in a portal above the whole page, focus trapped inside, Esc and the
 * close button close it, and focus goes back to the opener (or to `returnFocusTo` when the opener was disabled
 * while it worked, as a busy button is).
 */
export function ModalDialog({
  open,
  onOpenChange,
  title,
  testId,
  className,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  testId: string;
  className?: string;
  returnFocusTo?: { current: HTMLElement | null };
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.current;
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className={cn(
            'fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl outline-none',
            className,
          )}
        >
          <DialogTitleBar title={title} />
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
