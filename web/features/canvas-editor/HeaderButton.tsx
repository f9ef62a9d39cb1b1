// The overlay header's buttons: icon only on narrow screens, labelled from a breakpoint up.
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';

/** A header button: icon only on narrow screens, its label from `labelFrom` up (never without one). */
export function HeaderButton({
  label,
  icon,
  labelFrom,
  ...props
}: { label: string; icon: ReactNode; labelFrom?: 'sm' | '2xl' } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-label={label}
      title={label}
      className={cn('px-2', labelFrom === 'sm' && 'sm:px-3', labelFrom === '2xl' && '2xl:px-3')}
      {...props}
    >
      {icon}
      {labelFrom && (
        <span className={labelFrom === 'sm' ? 'hidden sm:inline' : 'hidden 2xl:inline'} aria-hidden>
          {label}
        </span>
      )}
    </Button>
  );
}
