import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button, buttonClass } from './Button.tsx';
import { cn } from './cn.ts';

/**
 * A small yes/no question opened by `trigger` (or only through `open` when there is none), before something that
 * cannot be undone. Without `pending` the confirm button closes it at once; with `pending` (an async confirm) it
 * stays open and shows the call running, and the caller closes it through `open`/`onOpenChange`.
 * `layerClassName` lifts it over other dialogs. `size` md is the roomier form of the account pages, its buttons
 * stacked on phones.
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
  size = 'sm',
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
  size?: 'sm' | 'md';
}) {
  const buttonSize = size === 'sm' ? 'sm' : 'md';
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={cn('fixed inset-0 bg-black/60', layerClassName)} />
        <AlertDialog.Content
          data-testid={testId}
          className={cn(
            'fixed left-1/2 top-1/2 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-5 shadow-2xl',
            size === 'sm' ? 'max-w-sm' : 'max-w-md',
            layerClassName,
          )}
        >
          <AlertDialog.Title className="text-base font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description
            className={cn('mt-2 break-words text-sm text-muted', size === 'md' && 'leading-relaxed')}
          >
            {body}
          </AlertDialog.Description>
          <div
            className={cn(
              'mt-5 flex gap-2',
              size === 'sm' ? 'justify-end' : 'flex-col-reverse sm:flex-row sm:justify-end',
            )}
          >
            <AlertDialog.Cancel className={buttonClass('secondary', buttonSize)} disabled={pending}>
              {cancelLabel}
            </AlertDialog.Cancel>
            {pending === undefined ? (
              <AlertDialog.Action
                className={buttonClass('danger', buttonSize)}
                data-testid={confirmTestId}
                onClick={onConfirm}
              >
                {confirmLabel}
              </AlertDialog.Action>
            ) : (
              <Button
                variant="danger"
                size={buttonSize}
                loading={pending}
                data-testid={confirmTestId}
                onClick={onConfirm}
              >
                {confirmLabel}
              </Button>
            )}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
