import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';
import { DialogTitleBar } from './DialogTitleBar.tsx';

/** The dialogs' frame: overlay, title bar with a close button, scrolling body. */
export function DialogShell({
  open,
  onOpenChange,
  title,
  description,
  testId,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid={testId}
          className={cn(
            'fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl',
            className,
          )}
        >
          <DialogTitleBar title={title} />
          <Dialog.Description className={description ? 'px-5 pt-3 text-sm text-muted' : 'sr-only'}>
            {description ?? title}
          </Dialog.Description>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
