import { Loader2 } from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn.ts';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md' | 'lg';

/**
 * The one disabled look: a flat muted surface with a legible muted label (about 5:1 in both themes), no
 * shadow, no hover change, and the not-allowed cursor. Hand-rolled filled buttons use it too.
 */
export const disabledButtonClass =
  'disabled:cursor-not-allowed disabled:border-line disabled:bg-surface-3 disabled:text-muted disabled:shadow-none disabled:hover:border-line disabled:hover:bg-surface-3 disabled:hover:text-muted disabled:hover:opacity-100';
/** Ghost buttons have no surface to mute: their label dims instead, and hovering changes nothing. */
const disabledGhostClass =
  'disabled:cursor-not-allowed disabled:text-subtle disabled:hover:bg-transparent disabled:hover:text-subtle';

const variants: Record<Variant, string> = {
  primary: 'bg-accent text-accent-fg shadow-sm shadow-accent/20 hover:bg-accent-strong',
  secondary: 'border border-line bg-surface-2 text-fg hover:border-line-strong hover:bg-surface-3',
  ghost: 'text-muted hover:bg-surface-2 hover:text-fg',
  danger: 'bg-danger text-danger-fg hover:opacity-90',
};

const disabledLooks: Record<Variant, string> = {
  primary: disabledButtonClass,
  secondary: disabledButtonClass,
  ghost: disabledGhostClass,
  danger: disabledButtonClass,
};

const sizes: Record<Size, string> = {
  sm: 'h-8 gap-1.5 rounded-lg px-3 text-sm',
  md: 'h-10 gap-2 rounded-lg px-4 text-sm',
  lg: 'h-12 gap-2 rounded-xl px-6 text-base',
};

/**
 * Shared look for buttons and button-like links. A busy button (`loading`) is disabled too but keeps its
 * colours, so the running action reads as running rather than unavailable.
 */
export function buttonClass(variant: Variant = 'primary', size: Size = 'md', className?: string, busy = false) {
  return cn(
    'inline-flex select-none items-center justify-center whitespace-nowrap font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
    variants[variant],
    busy ? 'cursor-progress' : disabledLooks[variant],
    sizes[size],
    className,
  );
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  loading?: boolean;
}

export function Button({
  variant,
  size,
  loading,
  className,
  children,
  disabled,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass(variant, size, className, loading)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && <Loader2 className="size-4 animate-spin" aria-hidden />}
      {children}
    </button>
  );
}
