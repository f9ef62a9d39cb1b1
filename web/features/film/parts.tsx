// Small pieces the film studio's steps share: sections, the progress bar, the Generate Screenplay button
// with its blocker/failure message and progress.
import { CircleAlert, ScrollText } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { generateScreenplay, useScreenplayJob } from './screenplay.ts';
import { filmError } from './text.ts';

export function Section({
  title,
  description,
  actions,
  children,
  className,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={cn('rounded-2xl border border-line bg-surface p-4 sm:p-5', className)}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-base font-semibold">{title}</h2>
          {description && <p className="mt-1 max-w-2xl text-sm leading-relaxed text-muted">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function ProgressBar({ value, label, testId }: { value: number; label: string; testId?: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      data-testid={testId}
      className="h-1.5 w-full overflow-hidden rounded-full bg-surface-3"
    >
      <div className="h-full rounded-full bg-accent transition-[width] duration-500" style={{ width: `${clamped}%` }} />
    </div>
  );
}

export function AlertMessage({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className="flex items-start gap-2 rounded-lg border border-danger/30 bg-danger-soft px-3.5 py-2.5 text-sm text-danger"
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">{children}</div>
    </div>
  );
}

/** Seconds since `since`, ticking once a second while `since` is set. */
function useElapsed(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.round((now - since) / 1000));
}

/** Generate Screenplay: blockers' alerts, progress while the agent writes, the failure with a retry. */
export function GenerateScreenplay({ regenerate = false }: { regenerate?: boolean }) {
  const { t } = useTranslation();
  const busy = useScreenplayJob((s) => s.busy);
  const startedAt = useScreenplayJob((s) => s.startedAt);
  const error = useScreenplayJob((s) => s.error);
  const elapsed = useElapsed(startedAt);
  return (
    <div className="space-y-3" data-testid="film-screenplay-generator">
      <Button
        size="lg"
        className="w-full sm:w-auto"
        variant={regenerate ? 'secondary' : 'primary'}
        loading={busy}
        onClick={() => void generateScreenplay()}
        data-testid="film-generate-screenplay"
      >
        {!busy && <ScrollText className="size-4" aria-hidden />}
        {busy
          ? t('film.screenplay.generating')
          : regenerate
            ? t('film.screenplay.regenerate')
            : t('film.screenplay.generate')}
      </Button>
      {busy && (
        <div className="max-w-md space-y-1.5" role="status" data-testid="film-screenplay-progress">
          <div className="h-1.5 w-full overflow-hidden rounded-full bg-surface-3">
            <div className="h-full w-full animate-pulse rounded-full bg-accent/70" />
          </div>
          <p className="text-xs text-muted">{t('film.screenplay.writing', { seconds: elapsed })}</p>
        </div>
      )}
      {error && !busy && <AlertMessage testId="film-screenplay-error">{filmError(error)}</AlertMessage>}
    </div>
  );
}
