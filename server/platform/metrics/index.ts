import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/client.ts';

/**
 * The process's own figures (CPU, memory, event loop lag, GC, handles) are collected once per process into this
 * registry; every studio of the process (tests run several) shares them. Made on first use.
 */
let processRegistry: Registry | null = null;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** pg-boss's schema (server/platform/jobs/schema.ts BOSS_SCHEMA). */
const BOSS_SCHEMA = 'pgboss';
/** A scrape reads the database for the queue depth; a database that does not answer in time leaves it out. */
const SCRAPE_QUERY_TIMEOUT_MS = 2_000;
/** The `route` label of requests no route matched (unknown paths, the web app's pages): never the raw URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SECONDS_QUEUE = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];
const SECONDS_TASK = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900, 1800];

/**
 * The studio's Prometheus metrics: one registry per studio (AppContext.metrics), never prom-client's global
 * default registry, so several studios in one process (tests) do not share counters. Features and the platform
 * count into the public metrics; gauges that describe a state (queue depth, pool, event streams) are read at
 * scrape time. Names and labels are listed in docs/deploy.md ("Metrics and logs").
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  /** Task attempts that ended: completed, failed (for good) or retried (failed with retries left). */
  readonly tasks: Counter<'kind' | 'outcome'>;
  /** From the job being created (or its retry falling due) to its attempt starting. */
  readonly taskQueueWait: Histogram<'kind'>;
  /** One attempt, from start to its end whatever the outcome. */
  readonly taskRunTime: Histogram<'kind'>;
  readonly engineCalls: Counter<'kind' | 'engine' | 'outcome'>;
  readonly mails: Counter<'transport' | 'outcome'>;
  /** Publishing attempts on a social network: published, or failed (retried or not). */
  readonly socialPublishes: Counter<'platform' | 'outcome'>;
  private eventStreams: () => number = () => 0;

  constructor(private readonly database?: Pick<Database, 'executeSql' | 'poolStats'>) {
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: 'genpro_http_requests_total',
      help: `HTTP requests answered, by method, route pattern (${UNMATCHED_ROUTE} when none matched) and status`,
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'genpro_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to its reply being sent, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: SECONDS_FAST,
      registers,
    });
    this.tasks = new Counter({
      name: 'genpro_tasks_total',
      help: 'Task attempts ended, by kind and outcome (completed, failed, retried)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.taskQueueWait = new Histogram({
      name: 'genpro_task_queue_wait_seconds',
      help: 'Time a task waited in the queue before an attempt started, by kind',
      labelNames: ['kind'],
      buckets: SECONDS_QUEUE,
      registers,
    });
    this.taskRunTime = new Histogram({
      name: 'genpro_task_run_seconds',
      help: 'Run time of one task attempt, by kind',
      labelNames: ['kind'],
      buckets: SECONDS_TASK,
      registers,
    });
    this.engineCalls = new Counter({
      name: 'genpro_engine_calls_total',
      help: 'AI engine calls, by model kind, engine and outcome (ok, failed); aborted calls are not counted',
      labelNames: ['kind', 'engine', 'outcome'],
      registers,
    });
    this.mails = new Counter({
      name: 'genpro_mails_total',
      help: 'Mails handed to the transport (smtp or the local outbox), by outcome (sent, failed)',
      labelNames: ['transport', 'outcome'],
      registers,
    });
    this.socialPublishes = new Counter({
      name: 'genpro_social_publishes_total',
      help: 'Publishing attempts on social networks, by platform and outcome (published, failed)',
      labelNames: ['platform', 'outcome'],
      registers,
    });
    const metrics = this;
    new Gauge({
      name: 'genpro_event_streams_open',
      help: 'Task event streams (Server-Sent Events) open on this process',
      registers,
      collect() {
        this.set(metrics.eventStreams());
      },
    });
    new Gauge({
      name: 'genpro_queue_depth',
      help: 'Jobs waiting in each queue (pg-boss state created or retry), shared by every process on the database',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        for (const [queue, depth] of await metrics.queueDepths()) this.set({ queue }, depth);
      },
    });
    const pool = database?.poolStats;
    if (pool) {
      new Gauge({
        name: 'genpro_db_pool_connections',
        help: "This process's PostgreSQL pool: connections open (total), idle, and callers waiting for one",
        labelNames: ['state'],
        registers,
        collect() {
          const stats = pool();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
      new Gauge({
        name: 'genpro_db_pool_max',
        help: 'The most connections the pool may open (DATABASE_POOL_MAX)',
        registers,
        collect() {
          this.set(pool().max);
        },
      });
    }
  }

  /** Where the open event streams are counted (the tasks feature's hub). */
  countEventStreams(read: () => number): void {
    this.eventStreams = read;
  }

  /** Prometheus text of this studio and of the process. */
  async render(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }

  /** Waiting jobs per queue, every queue listed (0 when empty); nothing when the database does not answer. */
  private async queueDepths(): Promise<Array<[string, number]>> {
    if (!this.database) return [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = this.database.executeSql(
        `SELECT q.name, count(j.id)::int AS depth
           FROM ${BOSS_SCHEMA}.queue q
           LEFT JOIN ${BOSS_SCHEMA}.job j ON j.name = q.name AND j.state < 'active'
          GROUP BY q.name`,
      );
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('queue depth query timed out')), SCRAPE_QUERY_TIMEOUT_MS);
      });
      const { rows } = await Promise.race([query, timeout]);
      return rows.map((row) => [String(row.name), Number(row.depth)]);
    } catch {
      return [];
    } finally {
      clearTimeout(timer);
    }
  }
}
