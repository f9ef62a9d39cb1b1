// Wakes workers at once rather than at their next poll: after a send, a retry delay or maintenance, and across processes.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Database } from '../../db/client.ts';
import { BOSS_SCHEMA } from './schema.ts';

/** A retry is woken this long after its delay, so that its start_after has surely passed. */
const RETRY_WAKE_MARGIN_MS = 250;
/** PostgreSQL: each send NOTIFYs this channel with the queue name; worker processes LISTEN and fetch at once. */
const JOB_WAKE_CHANNEL = 'genpro_job_wake';

interface WakeUpDeps {
  database: Database;
  log: FastifyBaseLogger;
  /** The queue's pg-boss while it is started. */
  boss: () => PgBoss | null;
  isStopping: () => boolean;
  /** The pg-boss workers of this process by queue (the queue's own map, filled as workers start). */
  workerIds: ReadonlyMap<string, string[]>;
}

export class WakeUps {
  private readonly retryWakes = new Set<NodeJS.Timeout>();
  private readyCheckRunning = false;
  private stopListening: (() => Promise<void>) | null = null;

  constructor(private readonly deps: WakeUpDeps) {}

  /** Wakes the queue's workers when pg-boss makes the retry of a failed attempt available. */
  wakeForRetry(queue: string, delaySeconds: number): void {
    if (this.deps.isStopping()) return;
    const timer = setTimeout(
      () => {
        this.retryWakes.delete(timer);
        this.notify(queue);
      },
      delaySeconds * 1000 + RETRY_WAKE_MARGIN_MS,
    );
    timer.unref();
    this.retryWakes.add(timer);
  }

  /** Wakes the workers of every queue this process works that has a job ready now. */
  async wakeReadyQueues(): Promise<void> {
    const queues = [...this.deps.workerIds.keys()];
    if (this.readyCheckRunning || this.deps.isStopping() || queues.length === 0) return;
    this.readyCheckRunning = true;
    try {
      // Served by pg-boss's partial index job_i5 (name, start_after) WHERE state < 'active': pending jobs only.
      const { rows } = await this.deps.database.executeSql(
        `SELECT DISTINCT name FROM ${BOSS_SCHEMA}.job
          WHERE state < 'active' AND start_after < now() AND name = ANY($1::text[])`,
        [queues],
      );
      for (const row of rows as Array<{ name: string }>) this.notify(row.name);
    } catch (error) {
      if (!this.deps.isStopping())
        this.deps.log.warn({ err: error }, 'ready job check failed; workers fall back to polling');
    } finally {
      this.readyCheckRunning = false;
    }
  }

  /** PostgreSQL: tells worker processes elsewhere that `queue` has a job (else they would wait for polling). */
  async wakeOtherProcesses(queue: string): Promise<void> {
    if (this.deps.database.kind !== 'postgres') return;
    try {
      await this.deps.database.executeSql('SELECT pg_notify($1, $2)', [JOB_WAKE_CHANNEL, queue]);
    } catch (error) {
      this.deps.log.warn({ err: error, queue }, 'job wake-up not sent; workers will poll for it');
    }
  }

  /** Worker processes on PostgreSQL fetch as soon as any process sends a job to one of their queues. */
  async listenForWakeUps(): Promise<void> {
    if (this.deps.database.kind !== 'postgres' || !this.deps.database.listen) return;
    try {
      this.stopListening = await this.deps.database.listen(JOB_WAKE_CHANNEL, (queue) => this.notify(queue));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'cannot listen for job wake-ups; workers will poll');
    }
  }

  notify(queue: string): void {
    const boss = this.deps.boss();
    if (!boss) return;
    for (const workerId of this.deps.workerIds.get(queue) ?? []) boss.notifyWorker(workerId);
  }

  /** The queue stops: pending retry wake-ups are dropped. */
  clearRetryWakes(): void {
    for (const timer of this.retryWakes) clearTimeout(timer);
    this.retryWakes.clear();
  }

  /** The queue stops: no more wake-ups from other processes. */
  async unlisten(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = null;
  }
}
