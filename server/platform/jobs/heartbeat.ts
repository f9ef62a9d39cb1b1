import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';

// Every process that runs workers keeps a row in worker_heartbeats, beaten every few seconds with the database's
// clock (so machines' clocks never matter): /healthz counts the live ones, the admin Workers view lists them, and
// the task recovery pass gives the running tasks of a process that stopped beating to another worker.

/** What a process is: an API process (with RUN_WORKERS=true, when it has a heartbeat) or `npm run worker`. */
export type ProcessRole = 'api' | 'worker';

/** How often a process beats. */
const HEARTBEAT_INTERVAL_SECONDS = 5;
/** A process whose last beat is older than this (three missed beats) is taken for dead. */
export const HEARTBEAT_STALE_SECONDS = 15;
/** The rows of processes that stopped beating this long ago are deleted (the admin view shows them until then). */
const HEARTBEAT_FORGET_SECONDS = 3600;

interface HeartbeatState {
  /** Task attempts running in the process now. */
  running: number;
  lastTask: { id: string; kind: string; at: Date } | null;
}

export interface HeartbeatDeps {
  database: Database;
  log: FastifyBaseLogger;
  role: ProcessRole;
  /** Read at every beat. */
  state: () => HeartbeatState;
  /** Called after each beat written (not awaited by it). */
  afterBeat?: () => void;
  /** Written once into `details` (concurrency, task kinds…). */
  details?: Record<string, unknown>;
  intervalSeconds?: number;
}

/** `<hostname>:<pid>:<random>`: unique per start, readable in tasks.worker_id and the admin view. */
function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** One process's heartbeat row. */
export class WorkerHeartbeat {
  readonly id = newWorkerId();
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopping = false;
  private stopped = false;
  /** Since when (process clock, ms) every beat has been written; null after a failed one. */
  private writingSince: number | null = null;
  private failing = false;

  constructor(private readonly deps: HeartbeatDeps) {}

  /** Writes the row now, then beats every interval. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.beat();
    const seconds = this.deps.intervalSeconds ?? HEARTBEAT_INTERVAL_SECONDS;
    this.timer = setInterval(() => void this.beat(), seconds * 1000);
    this.timer.unref();
  }

  /** The process drains: the row says so at once (and at every beat until stop()). */
  async markStopping(): Promise<void> {
    if (this.stopping || this.stopped) return;
    this.stopping = true;
    await this.inFlight;
    await this.beat();
  }

  /** A clean stop: no more beats, and the row is deleted. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    await this.inFlight;
    try {
      await this.deps.database.executeSql('DELETE FROM worker_heartbeats WHERE id = $1', [this.id]);
    } catch (error) {
      this.deps.log.warn({ err: error, workerId: this.id }, 'worker heartbeat row not removed; it goes stale');
    }
  }

  /**
   * Whether this process's own beats have been written for at least `seconds` without a break. A process takes
   * over another's tasks only then: after a database outage every heartbeat looks stale until the processes beat
   * again, and the ones alive do within an interval.
   */
  beatingFor(seconds: number): boolean {
    return this.writingSince !== null && Date.now() - this.writingSince >= seconds * 1000;
  }

  private beat(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // A slow write is not stacked on: the next tick after it finishes writes the newer state.
    this.inFlight ??= this.write().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async write(): Promise<void> {
    const { running, lastTask } = this.deps.state();
    try {
      await this.deps.database.executeSql(
        `INSERT INTO worker_heartbeats
           (id, role, hostname, pid, started_at, last_beat_at, running, stopping,
            last_task_id, last_task_kind, last_task_at, details)
         VALUES ($1, $2, $3, $4, now(), now(), $5, $6, $7, $8, $9, $10::jsonb)
         ON CONFLICT (id) DO UPDATE SET
           last_beat_at = now(), running = EXCLUDED.running, stopping = EXCLUDED.stopping,
           last_task_id = EXCLUDED.last_task_id, last_task_kind = EXCLUDED.last_task_kind,
           last_task_at = EXCLUDED.last_task_at`,
        [
          this.id,
          this.deps.role,
          os.hostname(),
          process.pid,
          running,
          this.stopping,
          lastTask?.id ?? null,
          lastTask?.kind ?? null,
          lastTask?.at.toISOString() ?? null,
          JSON.stringify(this.deps.details ?? {}),
        ],
      );
      this.writingSince ??= Date.now();
      if (this.failing) this.deps.log.info({ workerId: this.id }, 'worker heartbeat written again');
      this.failing = false;
      this.deps.afterBeat?.();
    } catch (error) {
      // Once per outage, not at every beat.
      if (!this.failing) this.deps.log.warn({ err: error, workerId: this.id }, 'worker heartbeat not written');
      this.failing = true;
      this.writingSince = null;
    }
  }
}

/** Live processes with workers (a beat within HEARTBEAT_STALE_SECONDS), apart from the ones draining. */
export async function countLiveWorkers(database: Database): Promise<{ live: number; stopping: number }> {
  const { rows } = await database.executeSql(
    `SELECT count(*) FILTER (WHERE NOT stopping)::int AS live, count(*) FILTER (WHERE stopping)::int AS stopping
       FROM worker_heartbeats WHERE last_beat_at > now() - make_interval(secs => $1)`,
    [HEARTBEAT_STALE_SECONDS],
  );
  const row = rows[0] ?? {};
  return { live: Number(row.live ?? 0), stopping: Number(row.stopping ?? 0) };
}

export interface WorkerHeartbeatRow {
  id: string;
  role: string;
  hostname: string;
  pid: number;
  startedAt: Date;
  lastBeatAt: Date;
  /** Seconds since the last beat, by the database's clock. */
  lastBeatSecondsAgo: number;
  live: boolean;
  stopping: boolean;
  running: number;
  lastTask: { id: string; kind: string; at: Date } | null;
  details: Record<string, unknown>;
}

/** Every heartbeat row (live ones first, then the most recent beats). */
export async function listWorkerHeartbeats(database: Database): Promise<WorkerHeartbeatRow[]> {
  const { rows } = await database.executeSql(
    `SELECT id, role, hostname, pid, started_at, last_beat_at, running, stopping,
            last_task_id, last_task_kind, last_task_at, details,
            GREATEST(0, EXTRACT(epoch FROM now() - last_beat_at))::float AS age,
            last_beat_at > now() - make_interval(secs => $1) AS live
       FROM worker_heartbeats
      ORDER BY live DESC, last_beat_at DESC, id
      LIMIT 500`,
    [HEARTBEAT_STALE_SECONDS],
  );
  return rows.map((row) => ({
    id: String(row.id),
    role: String(row.role),
    hostname: String(row.hostname),
    pid: Number(row.pid),
    startedAt: new Date(row.started_at as string | Date),
    lastBeatAt: new Date(row.last_beat_at as string | Date),
    lastBeatSecondsAgo: Math.floor(Number(row.age)),
    live: row.live === true,
    stopping: row.stopping === true,
    running: Number(row.running),
    lastTask:
      row.last_task_id && row.last_task_kind && row.last_task_at
        ? {
            id: String(row.last_task_id),
            kind: String(row.last_task_kind),
            at: new Date(row.last_task_at as string | Date),
          }
        : null,
    details: (typeof row.details === 'string' ? JSON.parse(row.details) : (row.details ?? {})) as Record<
      string,
      unknown
    >,
  }));
}

/** Deletes the rows of processes that stopped beating more than HEARTBEAT_FORGET_SECONDS ago. */
export async function forgetStaleHeartbeats(database: Database): Promise<number> {
  const { rows } = await database.executeSql(
    `DELETE FROM worker_heartbeats WHERE last_beat_at < now() - make_interval(secs => $1) RETURNING id`,
    [HEARTBEAT_FORGET_SECONDS],
  );
  return rows.length;
}
