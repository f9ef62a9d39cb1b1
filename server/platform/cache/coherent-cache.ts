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
 * of those rows. Coherent only where every committed change is heard before the writer's await resolves:
 * PGlite (the embedded studio), whose one session LISTENs and NOTIFYs itself, so the notification arrives
 * with the reply to the COMMIT. On PostgreSQL notifications cross connections asynchronously (another
 * process's commit can be acknowledged before we hear it), so the cache stays off there and every call reads
 * the database. A value read while a change was committed is never stored (see `generation`).
 */
export class CoherentCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped on every change announced; a value read before a bump is not stored. */
  private changes = 0;
  /** Serves and stores only while the change notifications are heard. */
  private listening = false;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly options: CoherentCacheOptions,
  ) {}

  async start(database: Database, log: FastifyBaseLogger): Promise<void> {
    if (this.listening || database.kind !== 'pglite' || !database.listen) return;
    try {
      this.stopListening = await database.listen(this.options.channel, (userId) => this.invalidate(userId));
      this.listening = true;
    } catch (error) {
      log.warn({ err: error, channel: this.options.channel }, 'cannot listen for changes; caching is off');
    }
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.entries.clear();
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  /** Take it before reading a value and pass it to `set`: a value read before a change is never stored. */
  generation(): number {
    return this.changes;
  }

  get(key: string): V | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
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

  invalidate(userId: string): void {
    this.changes++;
    for (const [key, entry] of this.entries) {
      if (entry.userId === userId) this.entries.delete(key);
    }
  }
}
