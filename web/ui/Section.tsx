import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { cn } from './cn.ts';
import { FormMessage } from './Field.tsx';
import { Spinner } from './Spinner.tsx';

/** One card of a tab: a title, an optional line under it, actions at the end and the body. */
export function Section({
  title,
  description,
  actions,
  children,
  testId,
  tone,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  testId?: string;
  tone?: 'danger';
}) {
  return (
    <section
      data-testid={testId}
      className={cn('rounded-2xl border bg-surface p-4 sm:p-5', tone === 'danger' ? 'border-danger/40' : 'border-line')}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-48">
          <h3 className={cn('text-base font-semibold', tone === 'danger' && 'text-danger')}>{title}</h3>
          {description && <p className="mt-1 text-sm leading-relaxed text-muted">{description}</p>}
        </div>
        {actions && <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children && <div className="mt-4">{children}</div>}
    </section>
  );
}

export function Loading({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex justify-center py-10" data-testid={testId}>
      <Spinner className="size-6" label={t('common.loading')} />
    </div>
  );
}

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3">
      <FormMessage>{message}</FormMessage>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RefreshCw className="size-4" aria-hidden />
        {t('common.retry')}
      </Button>
    </div>
  );
}

/** Labels read left to right in every language for codes, IBANs and secrets. */
export function Mono({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span dir="ltr" className={cn('font-mono tabular-nums', className)}>
      {children}
    </span>
  );
}
