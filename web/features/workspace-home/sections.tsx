import { CircleAlert, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';

/** One card of the workspace home: a titled section with an optional action beside the title. */
export function HomeSection({
  title,
  icon,
  action,
  testId,
  className,
  children,
}: {
  title: string;
  icon: ReactNode;
  action?: ReactNode;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      data-testid={testId}
      aria-labelledby={`${testId}-title`}
      className={cn('min-w-0 rounded-2xl border border-line bg-surface p-4 sm:p-5', className)}
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <h2 id={`${testId}-title`} className="flex min-w-0 flex-1 items-center gap-2 text-base font-semibold">
          <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent">{icon}</span>
          <span className="truncate">{title}</span>
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** What a section shows when it has nothing: a line of text and, when there is one, the way to start. */
export function HomeEmpty({ testId, text, children }: { testId: string; text: string; children?: ReactNode }) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line-strong px-4 py-6 text-center"
    >
      <p className="max-w-sm text-sm text-muted">{text}</p>
      {children}
    </div>
  );
}

export function HomeLoading() {
  return (
    <div className="flex justify-center py-8">
      <Spinner className="size-6" />
    </div>
  );
}

export function HomeLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl bg-danger-soft px-4 py-3 text-sm">
      <CircleAlert className="size-4 shrink-0 text-danger" aria-hidden />
      <span className="min-w-0 flex-1">{t('workspaceHome.loadFailed')}</span>
      <Button size="sm" variant="secondary" onClick={onRetry}>
        <RefreshCw className="size-4" aria-hidden />
        {t('common.retry')}
      </Button>
    </div>
  );
}
