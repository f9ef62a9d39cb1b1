import { Link } from 'react-router';
import { cn } from './cn.ts';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8 shrink-0', className)} aria-hidden>
      <defs>
        <linearGradient id="gp-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8b5cf6" />
          <stop offset="1" stopColor="#22d3ee" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#gp-logo)" />
      <path
        d="M21.5 11.5a7 7 0 1 0 1.2 7H16"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo({
  to = '/',
  compact,
  compactOnMobile,
  className,
}: {
  to?: string;
  compact?: boolean;
  /** Show only the mark below the `sm` breakpoint (narrow headers). */
  compactOnMobile?: boolean;
  className?: string;
}) {
  return (
    <Link
      to={to}
      className={cn('inline-flex items-center gap-2.5 rounded-lg font-semibold tracking-tight text-fg', className)}
      aria-label="GenPro Studio"
    >
      <LogoMark />
      {!compact && (
        <span className={cn('text-[15px] leading-none', compactOnMobile && 'hidden sm:inline')} dir="ltr">
          GenPro <span className="text-muted font-medium">Studio</span>
        </span>
      )}
    </Link>
  );
}
