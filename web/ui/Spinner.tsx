import { Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn.ts';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <span role="status" className="inline-flex items-center gap-2 text-muted">
      <Loader2 className={cn('size-5 animate-spin text-accent', className)} aria-hidden />
      <span className="sr-only">{label ?? t('common.loading')}</span>
    </span>
  );
}

/** Centred spinner for a page or route chunk that is still loading. */
export function PageSpinner() {
  return (
    <div className="grid min-h-dvh place-items-center" data-testid="page-loading">
      <Spinner className="size-7" />
    </div>
  );
}
