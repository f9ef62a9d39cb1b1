import { useTranslation } from 'react-i18next';

const bar = 'animate-pulse rounded-md bg-surface-3';

/** Placeholder in the shape of the dashboard shell while /api/auth/me loads. */
export function DashboardSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh" data-testid="dashboard-loading" aria-busy="true">
      <span className="sr-only" role="status">
        {t('common.loading')}
      </span>
      <aside className="hidden w-64 shrink-0 flex-col gap-2 border-e border-line bg-surface p-3 md:flex">
        <div className="flex h-10 items-center gap-2.5 px-1">
          <div className={`${bar} size-8 rounded-lg`} />
          <div className={`${bar} h-3.5 w-28`} />
        </div>
        <div className="mt-4 space-y-2">
          {Array.from({ length: 8 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
            <div key={i} className="flex h-9 items-center gap-3 px-2">
              <div className={`${bar} size-5`} />
              <div className={`${bar} h-3`} style={{ width: `${50 + ((i * 37) % 40)}%` }} />
            </div>
          ))}
        </div>
        <div className={`${bar} mt-auto h-16 rounded-xl`} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex h-14 items-center gap-3 border-b border-line px-4 md:px-8">
          <div className={`${bar} h-4 w-40`} />
        </div>
        <div className="space-y-4 px-4 py-8 md:px-8">
          <div className={`${bar} h-7 w-56`} />
          <div className={`${bar} h-4 w-80 max-w-full`} />
          <div className="grid gap-4 pt-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 3 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder cards
              <div key={i} className={`${bar} h-40 rounded-xl`} />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
