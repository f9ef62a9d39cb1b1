import { Check } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button } from './Button.tsx';
import { cn } from './cn.ts';
import { DialogTitleBar } from './DialogTitleBar.tsx';

/**
 * A centred dialog to pick media from a grid: title and close on top, the body (usually a scrolling grid of
 * PickerTile and a PickerFooter). `className` sets its height and layer (with `overlayClassName`).
 */
export function PickerDialog({
  open,
  onOpenChange,
  title,
  testId,
  className,
  overlayClassName,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  testId: string;
  className: string;
  overlayClassName: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={cn('fixed inset-0 bg-black/60 backdrop-blur-[2px]', overlayClassName)} />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          className={cn(
            'fixed left-1/2 top-1/2 flex w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl',
            className,
          )}
        >
          <DialogTitleBar title={title} />
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** One square of a picker grid: toggles its selection and shows a check while selected. */
export function PickerTile({
  selected,
  onToggle,
  testId,
  title,
  className,
  children,
}: {
  selected: boolean;
  onToggle: () => void;
  testId: string;
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onToggle}
      data-testid={testId}
      title={title}
      className={cn(
        'relative block aspect-square w-full overflow-hidden rounded-lg border-2 transition-colors',
        className,
        selected ? 'border-accent' : 'border-transparent hover:border-line-strong',
      )}
    >
      {children}
      {selected && (
        <span className="absolute end-1.5 top-1.5 grid size-6 place-items-center rounded-full bg-accent text-accent-fg">
          <Check className="size-4" aria-hidden />
        </span>
      )}
    </button>
  );
}

/** The picker's bottom bar: how many are picked and the button that adds them. */
export function PickerFooter({
  count,
  confirmLabel,
  disabled,
  testId,
  onConfirm,
}: {
  count: ReactNode;
  confirmLabel: string;
  disabled: boolean;
  testId: string;
  onConfirm: () => void;
}) {
  return (
    <div className="flex items-center justify-between gap-3 border-t border-line px-5 py-3">
      <span className="text-xs text-muted">{count}</span>
      <Button size="sm" disabled={disabled} data-testid={testId} onClick={onConfirm}>
        {confirmLabel}
      </Button>
    </div>
  );
}
