import type { HealthReply, HealthState, ProbeReply } from '../../../common/api/health.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { proxyHealth } from '../../platform/http/proxy-headers.ts';
import { countLiveWorkers } from '../../platform/jobs/heartbeat.ts';
import { healthEngines } from '../engines/service.ts';

// The checks behind GET /livez, /readyz and /healthz, as plain functions: the metrics port (main.ts, worker.ts)
// answers the same probes. docs/deploy.md, "Health endpoints", says which to poll for what.

/** A part answering slower than this is `degraded`. */
const SLOW_MS = 1_000;
/** A part that has not answered after this is `down`. */
const CHECK_TIMEOUT_MS = 3_000;
/** Readiness answers within this (load balancers' check time-outs are often 2–5 s). */
const READY_TIMEOUT_MS = 2_000;

const NO_ANSWER = Symbol('no answer');

/** The probe's value, or NO_ANSWER when it threw or did not answer within `timeoutMs`; and how long it took. */
async function timed<T>(
  probe: () => Promise<T>,
  timeoutMs: number,
): Promise<{ value: T | typeof NO_ANSWER; ms: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), timeoutMs);
  });
  try {
    const value = await Promise.race([probe(), timeout]);
    return { value, ms: performance.now() - started };
  } catch {
    return { value: NO_ANSWER, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** ok when `probe` answers true within SLOW_MS, degraded when later (within `timeoutMs`), down otherwise. */
async function check(probe: () => Promise<boolean>, timeoutMs = CHECK_TIMEOUT_MS): Promise<HealthState> {
  const { value, ms } = await timed(probe, timeoutMs);
  if (value !== true) return 'down';
  return ms > SLOW_MS ? 'degraded' : 'ok';
}

async function databaseAnswers(database: Database): Promise<boolean> {
  await database.executeSql('SELECT 1');
  return true;
}

/** GET /livez: the process serves HTTP. Nothing else is checked: an orchestrator restarts the process when it fails. */
export function liveness(): ProbeReply {
  return { status: 'ok' };
}

/** GET /readyz: the process can do its core work: it is not draining and its database answers. */
export async function readiness(ctx: Pick<AppContext, 'database' | 'lifecycle'>): Promise<ProbeReply> {
  if (ctx.lifecycle.draining) return { status: 'unavailable', reason: 'draining' };
  const database = await check(() => databaseAnswers(ctx.database), READY_TIMEOUT_MS);
  if (database === 'down') return { status: 'unavailable', reason: 'database' };
  return { status: 'ok' };
}

export function probeHttpStatus(reply: ProbeReply): 200 | 503 {
  return reply.status === 'ok' ? 200 : 503;
}

async function workersPart(database: Database): Promise<HealthReply['workers']> {
  const { value } = await timed(() => countLiveWorkers(database), CHECK_TIMEOUT_MS);
  if (value === NO_ANSWER) return { status: 'down', live: null, stopping: null };
  const status = value.live > 0 ? 'ok' : value.stopping > 0 ? 'degraded' : 'down';
  return { status, ...value };
}

/** GET /healthz: every part (each answering within 3 s, all at once) and the overall status. */
export async function healthReport(ctx: AppContext): Promise<HealthReply> {
  const [database, jobs, storage, workers] = await Promise.all([
    check(() => databaseAnswers(ctx.database)),
    check(() => ctx.jobs.health()),
    check(() => ctx.storage.ping()),
    workersPart(ctx.database),
  ]);
  const draining = ctx.lifecycle.draining;
  const status: HealthState =
    database === 'down' || draining
      ? 'down'
      : [database, jobs, storage, workers.status].every((part) => part === 'ok')
        ? 'ok'
        : 'degraded';
  return {
    status,
    draining,
    database,
    jobs,
    storage,
    workers,
    engines: await healthEngines(ctx),
    proxy: proxyHealth(ctx),
  };
}

/** 503 only when the process cannot do its core work (the same cases as /readyz); 200 when merely degraded. */
export function healthHttpStatus(report: HealthReply): 200 | 503 {
  return report.status === 'down' ? 503 : 200;
}
