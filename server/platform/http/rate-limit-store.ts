import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { getTableName, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimits } from '../../db/schema/index.ts';
import type { ScheduledJob } from '../jobs/types.ts';

/** What a limit's counter says after a hit: hits in the current window and milliseconds until it ends. */
export interface RateLimitCount {
  current: number;
  ttl: number;
}

/** While the shared store fails, a warning at most this often. */
const WARN_EVERY_MS = 60_000;
/** `rate_limits.key` is a varchar(255); longer keys are stored by their hash. */
const MAX_KEY_LENGTH = 255;
/** Never refuses by itself: `penalty` only counts, the rate-limit plugin compares the count with each limit. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

function limiterOptions() {
  // `duration` is only the default: every hit passes its limit's window as customDuration.
  return { points: NO_LIMIT, duration: 60, keyPrefix: '' };
}

/**
 * The counters behind every rate limit of the API: fixed windows that start with a key's first hit (as
 * @fastify/rate-limit's own in-memory store counts), kept by rate-limiter-flexible.
 *
 * With a PostgreSQL pool they live in the `rate_limits` table, so every API process of a cluster counts
 * against the same limits (RateLimiterPostgres: one upsert per hit). Without one (the embedded PGlite, one
 * process) they live in this process's memory. When the table cannot be reached, hits are counted in this
 * process's memory until it answers again (each process then enforces every limit on its own, as before
 * the store was shared) and a warning is logged: refusing every limited request while the database is
 * down would add nothing (those routes need the database anyway), letting everything through would lift
 * the limits on log-in attempts exactly when nobody is watching.
 */
export class RateLimitCounters {
  private readonly memory = new RateLimiterMemory(limiterOptions());
  private readonly shared: RateLimiterPostgres | undefined;
  private failingSince: number | undefined;
  private warnedAt = Number.NEGATIVE_INFINITY;

  constructor(
    options: { pool?: pg.Pool },
    private readonly log: FastifyBaseLogger,
  ) {
    if (options.pool) {
      this.shared = new RateLimiterPostgres({
        ...limiterOptions(),
        storeClient: options.pool,
        storeType: 'pool',
        // Made by migration 0016; expired rows are removed by rateLimitSweepJob, once for the cluster.
        tableName: getTableName(rateLimits),
        tableCreated: true,
        clearExpiredByTimeout: false,
      });
    }
  }

  /** Where the counts are kept: the cluster's database, or this process alone. */
  get sharedAcrossProcesses(): boolean {
    return this.shared !== undefined;
  }

  /** Counts one hit of `key` in a window of `windowMs` (started by the key's first hit). */
  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const options = { customDuration: windowSeconds(windowMs) };
    const stored = storedKey(key);
    if (this.shared) {
      try {
        const res = await this.shared.penalty(stored, 1, options);
        this.answered();
        return countOf(res);
      } catch (error) {
        this.failed(error);
      }
    }
    return countOf(await this.memory.penalty(stored, 1, options));
  }

  /** The count of `key` now, without counting a hit (0 outside a window). */
  async read(key: string): Promise<RateLimitCount> {
    const stored = storedKey(key);
    let res: RateLimiterRes | null = null;
    let read = false;
    if (this.shared) {
      try {
        res = await this.shared.get(stored);
        read = true;
        this.answered();
      } catch (error) {
        this.failed(error);
      }
    }
    if (!read) res = await this.memory.get(stored);
    return res && res.msBeforeNext > 0 ? countOf(res) : { current: 0, ttl: 0 };
  }

  private failed(error: unknown): void {
    const now = Date.now();
    this.failingSince ??= now;
    if (now - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = now;
    this.log.warn(
      { err: error, failingSince: new Date(this.failingSince).toISOString() },
      'rate-limit store unreachable: counting in this process until the database answers',
    );
  }

  private answered(): void {
    if (this.failingSince === undefined) return;
    this.log.info({ failingSince: new Date(this.failingSince).toISOString() }, 'rate-limit store answers again');
    this.failingSince = undefined;
    this.warnedAt = Number.NEGATIVE_INFINITY;
  }
}

function windowSeconds(windowMs: number): number {
  // A duration of 0 would mean "never expires" to rate-limiter-flexible.
  if (!(windowMs > 0)) throw new Error(`a rate limit needs a positive time window, got ${windowMs}`);
  return windowMs / 1000;
}

function countOf(res: RateLimiterRes): RateLimitCount {
  return { current: res.consumedPoints, ttl: Math.max(res.msBeforeNext, 0) };
}

function storedKey(key: string): string {
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${key.slice(0, 100)}#${createHash('sha256').update(key).digest('hex')}`;
}

/** The option naming a limit that is not a route's own: limits with the same name share their counters. */
export interface NamedLimit {
  limitName: string;
}

/** What @fastify/rate-limit hands `child`: the merged limit options, with the route for a route's `config.rateLimit`. */
interface ChildOptions extends Partial<NamedLimit> {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * The name a limit counts under: its `limitName`, else its route ("POST /api/auth/login"). Every route with
 * a `config.rateLimit` has counters of its own, as with the plugin's default store.
 */
function limitNameOf(options: ChildOptions): string {
  if (options.limitName) return options.limitName;
  const { method, url } = options.routeInfo ?? {};
  if (method && url) return `${[method].flat().join(',')} ${url}`;
  throw new Error('a rate limit made outside a route needs a limitName (see sharedUserRateLimit)');
}

/**
 * The @fastify/rate-limit `store` counting in `counters`: each limit's keys are prefixed by its name, so
 * distinct limits never share a counter while the routes of one named limit do. Headers, `max` and the 429
 * stay the plugin's.
 */
export function rateLimitStore(counters: RateLimitCounters): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    constructor(_pluginOptions: unknown, name = 'global') {
      this.prefix = `${name}|`;
    }

    incr(key: string, callback: (error: Error | null, result?: RateLimitCount) => void, timeWindow: number): void {
      counters.hit(this.prefix + key, timeWindow).then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: (error: Error | null, result?: RateLimitCount) => void): void {
      counters.read(this.prefix + key).then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      );
    }

    child(options: unknown): SharedStore {
      return new SharedStore(undefined, limitNameOf(options as ChildOptions));
    }
  }
  return SharedStore;
}

/** Every ten minutes, one run for the cluster: drops the counters whose window has ended. */
export const rateLimitSweepJob: ScheduledJob = {
  name: 'maintenance.rate-limits',
  cron: '*/10 * * * *',
  async run(ctx) {
    const removed = await ctx.db
      .delete(rateLimits)
      .where(lt(rateLimits.expire, Date.now()))
      .returning({ key: rateLimits.key });
    return { removed: removed.length };
  },
};
