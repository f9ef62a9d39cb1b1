import { Server } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminWorker } from '../../../common/api/health.ts';
import { Button } from '../../ui/Button.tsx';
import { ColumnHeads } from '../../ui/ColumnHeads.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAdminWorkers } from './api.ts';

/** "12 seconds ago", "3 minutes ago", in the interface language. */
function useAgo() {
  const { i18n } = useTranslation();
  const format = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
  return (seconds: number) =>
    seconds < 90
      ? format.format(-seconds, 'second')
      : seconds < 5400
        ? format.format(-Math.round(seconds / 60), 'minute')
        : format.format(-Math.round(seconds / 3600), 'hour');
}

type WorkerState = 'live' | 'stopping' | 'stale';

function stateOf(worker: AdminWorker): WorkerState {
  if (!worker.live) return 'stale';
  return worker.stopping ? 'stopping' : 'live';
}

const STATE_CLASS: Record<WorkerState, string> = {
  live: 'text-success',
  stopping: 'text-warning',
  stale: 'text-danger',
};

const cell = 'px-3 py-2 max-sm:px-1 max-sm:py-0.5';

function WorkerRow({ worker }: { worker: AdminWorker }) {
  const { t, i18n } = useTranslation();
  const ago = useAgo();
  const time = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const state = stateOf(worker);
  return (
    <tr
      data-testid="admin-worker-row"
      data-worker={worker.id}
      data-state={state}
      className="align-top max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-2"
    >
      <th scope="row" className={cn(cell, 'text-start font-medium text-fg max-sm:order-first max-sm:col-span-2')}>
        <span dir="ltr">
          {worker.hostname} <span className="text-xs font-normal text-muted">pid {worker.pid}</span>
        </span>
        <p className="text-xs font-normal text-muted">{t(`admin.workers.roles.${worker.role}`)}</p>
      </th>
      <td className={cell} data-testid="admin-worker-state">
        <span className={cn('font-medium', STATE_CLASS[state])}>{t(`admin.workers.states.${state}`)}</span>
        <p className="text-xs text-muted">{t('admin.workers.lastBeat', { ago: ago(worker.lastBeatSecondsAgo) })}</p>
      </td>
      <td className={cn(cell, 'tabular-nums')} data-testid="admin-worker-running">
        <span className="sm:hidden text-muted">{t('admin.workers.running')}: </span>
        {worker.concurrency === null
          ? worker.running
          : t('admin.workers.runningOf', { running: worker.running, concurrency: worker.concurrency })}
      </td>
      <td className={cn(cell, 'text-xs')} data-testid="admin-worker-last-task">
        <span className="sm:hidden text-muted">{t('admin.workers.lastTask')}: </span>
        {worker.lastTask ? (
          <>
            <code dir="ltr">{worker.lastTask.kind}</code>
            <p className="text-xs text-muted">{time(worker.lastTask.at)}</p>
          </>
        ) : (
          <span className="text-muted">{t('admin.workers.noTask')}</span>
        )}
      </td>
      <td className={cn(cell, 'text-xs text-muted')}>
        <span className="sm:hidden">{t('admin.workers.started')}: </span>
        {time(worker.startedAt)}
      </td>
    </tr>
  );
}

/** Dashboard view adminWorkers: every process running workers, from its heartbeat (refreshed every 5 s). */
export default function AdminWorkersView() {
  const { t } = useTranslation();
  const query = useAdminWorkers();
  const workers = query.data?.data.workers;
  const live = workers?.filter((w) => w.live && !w.stopping).length ?? 0;
  return (
    <section
      className="mt-6 space-y-3 rounded-2xl border border-line bg-surface p-4"
      aria-labelledby="admin-workers-title"
      data-testid="admin-workers-view"
    >
      <h2 id="admin-workers-title" className="flex items-center gap-2 text-sm font-semibold">
        <Server className="size-4 text-accent" aria-hidden />
        {t('admin.workers.heading')}
      </h2>
      <p className="text-xs text-muted">
        {t('admin.workers.intro', { seconds: query.data?.data.staleAfterSeconds ?? 15 })}
      </p>
      {query.isPending && (
        <div className="flex justify-center py-10" data-testid="admin-workers-loading">
          <Spinner className="size-6" label={t('admin.workers.loading')} />
        </div>
      )}
      {query.isError && !workers && (
        <div role="alert" className="flex flex-col items-start gap-2 text-sm text-danger">
          {t('admin.workers.failed')}
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common.retry')}
          </Button>
        </div>
      )}
      {workers && workers.length === 0 && (
        <p className="py-8 text-center text-sm text-muted" data-testid="admin-workers-empty">
          {t('admin.workers.empty')}
        </p>
      )}
      {workers && workers.length > 0 && (
        <>
          <p
            className={cn('text-xs font-medium', live > 0 ? 'text-success' : 'text-danger')}
            data-testid="admin-workers-summary"
          >
            {live > 0 ? t('admin.workers.liveCount', { count: live }) : t('admin.workers.noneLive')}
          </p>
          <div className="overflow-x-auto">
            <table className="w-full text-sm max-sm:block" data-testid="admin-workers-table">
              <ColumnHeads
                labels={[
                  t('admin.workers.process'),
                  t('admin.workers.state'),
                  t('admin.workers.running'),
                  t('admin.workers.lastTask'),
                  t('admin.workers.started'),
                ]}
              />
              <tbody className="divide-y divide-line max-sm:block">
                {workers.map((worker) => (
                  <WorkerRow key={worker.id} worker={worker} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
