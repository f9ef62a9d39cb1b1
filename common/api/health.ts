// Health of a studio process (docs/deploy.md, "Health endpoints"): GET /livez, GET /readyz (probes for orchestrators
// and load balancers), GET /healthz (the report for monitoring), and the admin Workers view (GET /api/admin/workers).
import { z } from 'zod';
import { healthEngine } from './engines.ts';
import { ok } from './envelope.ts';

const HEALTH_STATES = ['ok', 'degraded', 'down'] as const;
/** ok: works; degraded: works, slowly or partly; down: does not answer. */
const healthState = z.enum(HEALTH_STATES);
export type HealthState = z.infer<typeof healthState>;

/** GET /livez and GET /readyz: 200 `ok`, or 503 `unavailable` with the reason (readiness only). */
export const probeReply = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** draining: the process was asked to stop; database: the database did not answer in time. */
  reason: z.enum(['draining', 'database']).optional(),
});
export type ProbeReply = z.infer<typeof probeReply>;

/**
 * GET /healthz: each part and the whole. `status` is `down` when the process cannot do its core work (the database
 * does not answer, or it is draining), `degraded` when another part is not `ok`, else `ok`. The HTTP status follows
 * readiness, not the parts: 503 only when `status` is `down`, so a load balancer that polls /healthz by mistake
 * does not take every process out on a storage or job-queue blip.
 */
export const healthReply = z.object({
  status: healthState,
  /** The process was asked to stop (SIGTERM): it takes no new requests or jobs. */
  draining: z.boolean(),
  /** SELECT 1: ok within 1 s, degraded when slower, down after 3 s or on an error. */
  database: healthState,
  /** pg-boss is started and its schema answers. */
  jobs: healthState,
  /** The media storage answers its ping (same timings as the database). */
  storage: healthState,
  /**
   * Processes running workers in the cluster (heartbeats within the last 15 s): ok with at least one live,
   * degraded when the only live ones are stopping, down with none (tasks wait in the queue). null counts: the
   * database did not answer, so nobody knows.
   */
  workers: z.object({
    status: healthState,
    live: z.number().int().nullable(),
    stopping: z.number().int().nullable(),
  }),
  /**
   * Every model, the engine serving it, whether it can be called and how that engine's last call ended
   * (issue 19). Informational: it does not change `status`.
   */
  engines: z.array(healthEngine),
  /**
   * Whether client addresses can be trusted behind a proxy (issue 27). `trustProxy`: TRUST_PROXY is set (to any
   * value, `false` included) or unset. With it unset, the first request carrying X-Forwarded-For or Forwarded sets
   * `forwardedHeadersSeenAt` (ISO time) and `warning` (what to set): every client then counts as the proxy.
   * Informational: it does not change `status`.
   */
  proxy: z.object({
    trustProxy: z.enum(['set', 'unset']),
    forwardedHeadersSeenAt: z.string().nullable(),
    warning: z.string().nullable(),
  }),
});
export type HealthReply = z.infer<typeof healthReply>;

/** A process with workers, as its heartbeat row describes it (GET /api/admin/workers). */
const adminWorker = z.object({
  /** `<hostname>:<pid>:<random>`, the value tasks.worker_id holds for the attempts it ran. */
  id: z.string(),
  /** api: an API process with RUN_WORKERS=true; worker: `npm run worker`. */
  role: z.enum(['api', 'worker']),
  hostname: z.string(),
  pid: z.number().int(),
  /** ISO times. */
  startedAt: z.string(),
  lastBeatAt: z.string(),
  /** Seconds since its last beat (by the database's clock). */
  lastBeatSecondsAgo: z.number().int().min(0),
  /** Beat within `staleAfterSeconds`. A stale process is taken for dead: its tasks go to other workers. */
  live: z.boolean(),
  /** Draining (SIGTERM): it finishes its running tasks and takes no new ones. */
  stopping: z.boolean(),
  /** Task attempts running at its last beat. */
  running: z.number().int().min(0),
  /** Workers per task kind (WORKER_CONCURRENCY), when it reported it. */
  concurrency: z.number().int().nullable(),
  /** The last task attempt it started. */
  lastTask: z.object({ id: z.string(), kind: z.string(), at: z.string() }).nullable(),
});
export type AdminWorker = z.infer<typeof adminWorker>;

/** GET /api/admin/workers: live processes first, then the most recent beats. */
export const adminWorkersReply = ok(
  z.object({
    staleAfterSeconds: z.number().int(),
    workers: z.array(adminWorker),
  }),
);
export type AdminWorkersReply = z.infer<typeof adminWorkersReply>;
