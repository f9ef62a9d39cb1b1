import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button, buttonClass } from './Button.tsx';
import { cn } from './cn.ts';

/**
 * A small yes/no question opened by `trigger` (or only through `open` when there is none), before something that
 * cannot be undone. Without `pending` the confirm button closes it at once; with `pending` (an async confirm) it
 * stays open and shows the call running, and the caller closes it through `open`/`onOpenChange`.
 * `layerClassName` lifts it over other dialogs.
 */
export function ConfirmPopup({
  trigger,
  title,
  body,
  cancelLabel,
  confirmLabel,
  onConfirm,
  testId,
  confirmTestId,
  layerClassName,
  open,
  onOpenChange,
  pending,
}: {
  trigger?: ReactNode;
  title: string;
  body: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
  testId: string;
  confirmTestId: string;
  layerClassName: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  pending?: boolean;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={cn('fixed inset-0 bg-black/60', layerClassName)} />
        <AlertDialog.Content
          data-testid={testId}
          className={cn(
            'fixed left-1/2 top-1/2 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-5 shadow-2xl',
            layerClassName,
          )}
        >
          <AlertDialog.Title className="text-base font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 break-words text-sm text-muted">{body}</AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass('secondary', 'sm')} disabled={pending}>
              {cancelLabel}
            </AlertDialog.Cancel>
            {pending === undefined ? (
              <AlertDialog.Action
                className={buttonClass('danger', 'sm')}
                data-testid={confirmTestId}
                onClick={onConfirm}
              >
                {confirmLabel}
              </AlertDialog.Action>
            ) : (
              <Button variant="danger" size="sm" loading={pending} data-testid={confirmTestId} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            )}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
