import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../clock.ts';

interface Entry<V> {
  userId: string;
  value: V;
  expiresAt: number;
}

interface CoherentCacheOptions {
  /** The channel a trigger NOTIFYs with the user's id on every committed change of what is cached. */
  channel: string;
  ttlMs: number;
  maxEntries: number;
}

/**
 * Values derived from a user's rows, kept in memory and dropped when a trigger announces a committed change
 * of those rows. A hit is served only after the database's notification barrier: every notification of a
 * transaction committed before the request began has then been handled (on PGlite at once — its one session
 * hears its own NOTIFY with the reply to the COMMIT; on PostgreSQL the listening connection receives
 * notifications in commit order, so once our own barrier notification arrives the earlier ones have). A
 * barrier that fails or times out makes a miss. While the listening connection is down nothing is served or
 * stored, and everything is dropped when it listens again (notifications may have been missed). A value read
 * while a change was committed is never stored (see `generation`).
 */
export class CoherentCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped on every change announced; a value read before a bump is not stored. */
  private changes = 0;
  /** Serves and stores only while the change notifications are heard. */
  private listening = false;
  private started = false;
  private stopListening: (() => Promise<void>) | undefined;
  private stopGapHandler: (() => void) | undefined;
  private barrier: ((since?: number) => Promise<void>) | undefined;
  private barrierPassed: ((since: number) => boolean) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly options: CoherentCacheOptions,
  ) {}

  async start(database: Database, log: FastifyBaseLogger): Promise<void> {
    if (this.started || !database.listen) return;
    this.started = true;
    this.barrier = database.barrier?.bind(database);
    this.barrierPassed = database.barrierPassed?.bind(database);
    this.stopGapHandler = database.onGap?.((listening) => {
      this.changes++;
      this.entries.clear();
      this.listening = listening && this.started;
    });
    try {
      this.stopListening = await database.listen(this.options.channel, (userId) => this.invalidate(userId));
      this.listening = this.started;
    } catch (error) {
      this.started = false;
      this.stopGapHandler?.();
      log.warn({ err: error, channel: this.options.channel }, 'cannot listen for changes; caching is off');
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    this.listening = false;
    this.entries.clear();
    this.stopGapHandler?.();
    this.stopGapHandler = undefined;
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  /** Take it before reading a value and pass it to `set`: a value read before a change is never stored. */
  generation(): number {
    return this.changes;
  }

  /**
   * The cached value, once every change committed before `since` (a `performance.now()` reading taken when
   * the request arrived, or now) has been heard.
   */
  async get(key: string, since?: number): Promise<V | undefined> {
    if (!this.listening || !this.fresh(key)) return undefined;
    if (this.barrier) {
      try {
        await this.barrier(since);
      } catch {
        return undefined;
      }
      if (!this.listening) return undefined;
    }
    return this.take(key);
  }

  /** The cached value when it can be served without waiting for a barrier (see `get`), else undefined. */
  getNow(key: string, since: number): V | undefined {
    if (!this.listening) return undefined;
    if (this.barrier && !this.barrierPassed?.(since)) return undefined;
    return this.take(key);
  }

  /** The fresh value of `key`, moved to the young end of the LRU order. */
  private take(key: string): V | undefined {
    const entry = this.fresh(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  private fresh(key: string): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, userId: string, value: V, generation: number): void {
    if (!this.listening || generation !== this.changes) return;
    this.entries.delete(key);
    this.entries.set(key, { userId, value, expiresAt: this.clock.now().getTime() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** The cached value of `key`, else `load()`'s, stored under `userId` unless a change came meanwhile. */
  read(key: string, userId: string, load: () => Promise<V>, since?: number): Promise<V> {
    const ready = since === undefined ? undefined : this.getNow(key, since);
    return ready === undefined ? this.readThrough(key, userId, load, since) : Promise.resolve(ready);
  }

  private async readThrough(key: string, userId: string, load: () => Promise<V>, since?: number): Promise<V> {
    const hit = await this.get(key, since);
    if (hit !== undefined) return hit;
    const generation = this.generation();
    const value = await load();
    this.set(key, userId, value, generation);
    return value;
  }

  invalidate(userId: string): void {
    this.changes++;
    for (const [key, entry] of this.entries) {
      if (entry.userId === userId) this.entries.delete(key);
    }
  }
}

/**
 * One cache per database handle, so every studio of a process (tests run several) has its own: `of` finds or
 * makes it, `start` begins listening and returns the function that stops it.
 */
export function cachePerDatabase<V>(options: CoherentCacheOptions) {
  const caches = new WeakMap<object, CoherentCache<V>>();
  const of = (deps: { db: object; clock: Clock }): CoherentCache<V> => {
    let cache = caches.get(deps.db);
    if (!cache) {
      cache = new CoherentCache<V>(deps.clock, options);
      caches.set(deps.db, cache);
    }
    return cache;
  };
  return {
    of,
    /** The cache of `db` if one was made (for invalidation without creating one). */
    existing: (db: object) => caches.get(db),
    async start(ctx: { db: object; clock: Clock; database: Database; log: FastifyBaseLogger }) {
      const cache = of(ctx);
      await cache.start(ctx.database, ctx.log);
      return () => cache.stop();
    },
  };
}
