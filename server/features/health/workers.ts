import type { AdminWorker, AdminWorkersReply } from '../../../common/api/health.ts';
import type { AppContext } from '../../context.ts';
import { HEARTBEAT_STALE_SECONDS, listWorkerHeartbeats } from '../../platform/jobs/heartbeat.ts';

/** GET /api/admin/workers: every process with workers that beat within the last hour, live ones first. */
export async function adminWorkers(ctx: Pick<AppContext, 'database'>): Promise<AdminWorkersReply> {
  const rows = await listWorkerHeartbeats(ctx.database);
  const workers = rows.map(
    (row): AdminWorker => ({
      id: row.id,
      role: row.role === 'worker' ? 'worker' : 'api',
      hostname: row.hostname,
      pid: row.pid,
      startedAt: row.startedAt.toISOString(),
      lastBeatAt: row.lastBeatAt.toISOString(),
      lastBeatSecondsAgo: row.lastBeatSecondsAgo,
      live: row.live,
      stopping: row.stopping,
      running: row.running,
      concurrency: typeof row.details.concurrency === 'number' ? row.details.concurrency : null,
      lastTask: row.lastTask
        ? { id: row.lastTask.id, kind: row.lastTask.kind, at: row.lastTask.at.toISOString() }
        : null,
    }),
  );
  return { success: true, data: { staleAfterSeconds: HEARTBEAT_STALE_SECONDS, workers } };
}
