import { BadgeCheck, Building2, CircleAlert, type LucideIcon, Search, X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { cn } from './cn.ts';
import { inputClass } from './Field.tsx';
import { Spinner } from './Spinner.tsx';

/** The value, settled 300 ms after the last change (search boxes query the server with it). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function SearchBox({
  value,
  onChange,
  label,
  placeholder,
  clearLabel,
  busy,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder: string;
  clearLabel?: string;
  busy: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="relative min-w-0 flex-1">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search
        className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-subtle"
        aria-hidden
      />
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={cn(inputClass, 'h-10 ps-9 pe-9 [&::-webkit-search-cancel-button]:hidden')}
        data-testid={testId}
      />
      {busy ? (
        <span className="absolute end-3 top-1/2 -translate-y-1/2">
          <Spinner className="size-4" />
        </span>
      ) : (
        value && (
          <button
            type="button"
            onClick={() => onChange('')}
            aria-label={clearLabel ?? t('directory.clearSearch')}
            className="absolute end-2 top-1/2 grid size-6 -translate-y-1/2 place-items-center rounded-md text-muted hover:bg-surface-3 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
          >
            <X className="size-3.5" aria-hidden />
          </button>
        )
      )}
    </div>
  );
}

/** A single-choice row of chips that scrolls sideways on narrow screens. */
export function FilterChips<T extends string>({
  value,
  onChange,
  options,
  label,
  testIdPrefix,
}: {
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: string }>;
  label: string;
  testIdPrefix: string;
}) {
  return (
    <fieldset className="-mx-4 flex min-w-0 gap-2 overflow-x-auto px-4 py-1 [scrollbar-width:none] md:mx-0 md:flex-wrap md:px-0">
      <legend className="sr-only">{label}</legend>
      {options.map((option) => {
        const active = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(option.value)}
            data-testid={`${testIdPrefix}-${option.value}`}
            className={cn(
              'h-8 shrink-0 rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
              active
                ? 'border-accent bg-accent-soft text-fg'
                : 'border-line bg-surface text-muted hover:border-line-strong hover:text-fg',
            )}
          >
            {option.label}
          </button>
        );
      })}
    </fieldset>
  );
}

export function EmptyState({ icon: Icon, message, testId }: { icon: LucideIcon; message: string; testId: string }) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center"
    >
      <span className="mb-3 grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
        <Icon className="size-6" aria-hidden />
      </span>
      <p className="text-sm font-medium text-fg">{message}</p>
    </div>
  );
}

export function ErrorState({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      data-testid="directory-error"
      className="flex flex-col items-center rounded-2xl border border-danger/30 bg-danger-soft px-6 py-10 text-center"
    >
      <CircleAlert className="mb-2 size-7 text-danger" aria-hidden />
      <p className="text-sm font-medium text-fg">{message}</p>
      <Button className="mt-4" variant="secondary" onClick={onRetry} loading={retrying}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

export function LoadingState({ testId }: { testId: string }) {
  return (
    <div className="flex justify-center py-16" data-testid={testId}>
      <Spinner className="size-7" />
    </div>
  );
}

/** A round picture with the initials underneath when there is none or it fails to load. */
export function Avatar({
  url,
  name,
  className,
  square,
}: {
  url: string | null | undefined;
  name: string;
  className?: string;
  square?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part.charAt(0))
      .join('')
      .toUpperCase() || '?';
  return (
    <span
      className={cn(
        'grid shrink-0 place-items-center overflow-hidden bg-brand-gradient font-semibold text-white',
        square ? 'rounded-xl' : 'rounded-full',
        className,
      )}
      aria-hidden
    >
      {url && !failed ? (
        <img src={url} alt="" loading="lazy" className="size-full object-cover" onError={() => setFailed(true)} />
      ) : initials === '?' && square ? (
        <Building2 className="size-1/2" aria-hidden />
      ) : (
        initials
      )}
    </span>
  );
}

/** A brand's logo (else its owner's avatar) as a rounded square, with its initials when there is none. */
export function BrandLogo({
  brand,
  className,
}: {
  brand: { logo_url: string | null; avatar: string | null; company_name: string | null; owner_name: string };
  className?: string;
}) {
  return (
    <Avatar
      url={brand.logo_url ?? brand.avatar}
      name={brand.company_name ?? brand.owner_name}
      square
      className={className}
    />
  );
}

export function VerifiedBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span title={t('directory.verified')} className={cn('inline-flex shrink-0 text-accent', className)}>
      <BadgeCheck className="size-4" aria-hidden />
      <span className="sr-only">{t('directory.verified')}</span>
    </span>
  );
}

/** Tags shown as the first `shown` chips and a "+N" chip for the rest. */
export function TagChips({ shown, rest, testId }: { shown: readonly string[]; rest: number; testId?: string }) {
  if (shown.length === 0) return null;
  return (
    <div className="flex min-w-0 flex-wrap gap-1" data-testid={testId}>
      {shown.map((tag) => (
        <span
          key={tag}
          dir="auto"
          className="max-w-[10rem] truncate rounded-full bg-accent-soft px-2 py-0.5 text-xs text-fg/90"
        >
          {tag}
        </span>
      ))}
      {rest > 0 && (
        <span dir="ltr" className="rounded-full bg-surface-3 px-2 py-0.5 text-xs text-muted" data-testid="tag-more">
          +{rest}
        </span>
      )}
    </div>
  );
}

export function Toolbar({ children }: { children: ReactNode }) {
  return <div className="flex flex-col gap-3 sm:flex-row sm:items-center">{children}</div>;
}

const TONES = {
  pending: 'bg-warning-soft text-warning',
  approved_creator: 'bg-success-soft text-success',
  verified: 'bg-success-soft text-success',
  regular_user: 'bg-danger-soft text-danger',
  rejected: 'bg-danger-soft text-danger',
} as const;

export type AdminStatus = keyof typeof TONES;

export function StatusBadge({ status }: { status: AdminStatus }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="admin-status"
      data-status={status}
      className={cn('inline-flex h-6 shrink-0 items-center rounded-full px-2.5 text-xs font-semibold', TONES[status])}
    >
      {t(`directory.status.${status}`)}
    </span>
  );
}
