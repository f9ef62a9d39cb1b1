import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineLastCall } from '../../common/api/engines.ts';
import type { Database, Db } from '../db/client.ts';
import { engineCalls } from '../db/schema/index.ts';
import type { EngineCall } from './registry.ts';

/**
 * Records each engine's last call in `engine_calls` (one row per model kind and engine), so the admin Engines view
 * and /healthz show calls made by any process, workers included. Fire-and-forget: the call never waits for it and a
 * failed write is logged, never thrown. Writes of one engine are coalesced: while one is in flight only the newest
 * call waits for the next, so a burst of calls costs two writes.
 */
class EngineCallLog {
  /** Per `kind:engine`: the call waiting to be written once the write in flight ends. */
  private readonly waiting = new Map<string, EngineCall | null>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  record(call: EngineCall): void {
    const key = `${call.kind}:${call.engine}`;
    if (this.waiting.has(key)) {
      this.waiting.set(key, call);
      return;
    }
    this.waiting.set(key, null);
    this.write(key, call);
  }

  /** Resolves once every recorded call is written (or failed). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private write(key: string, call: EngineCall): void {
    const writing = upsert(this.db, call)
      .catch((error: unknown) =>
        this.log.warn({ err: error, kind: call.kind, engine: call.engine }, 'engine call not recorded'),
      )
      .finally(() => {
        this.inFlight.delete(writing);
        const next = this.waiting.get(key);
        if (next) {
          this.waiting.set(key, null);
          this.write(key, next);
        } else this.waiting.delete(key);
      });
    this.inFlight.add(writing);
  }
}

async function upsert(db: Db, call: EngineCall): Promise<void> {
  const row = {
    kind: call.kind,
    engine: call.engine,
    outcome: call.outcome,
    message: call.message ?? null,
    at: new Date(call.at),
  };
  await db
    .insert(engineCalls)
    .values(row)
    .onConflictDoUpdate({
      target: [engineCalls.kind, engineCalls.engine],
      set: { outcome: row.outcome, message: row.message, at: row.at },
      // Another process's later call stays.
      setWhere: sql`${engineCalls.at} <= excluded.at`,
    });
}

const logs = new WeakMap<Database, EngineCallLog>();

/** The engine call log of a database (one per database handle: tests run several studios). */
export function engineCallLog(database: Database, log: FastifyBaseLogger): EngineCallLog {
  let found = logs.get(database);
  if (!found) {
    found = new EngineCallLog(database.db, log);
    logs.set(database, found);
  }
  return found;
}

/** Waits for the engine calls still being written to `database` (before it closes). */
export async function flushEngineCalls(database: Database): Promise<void> {
  await logs.get(database)?.flush();
}

/** The last call of every engine that made one, by any process: `kind:engine` → how it ended. */
export async function readEngineCalls(db: Db): Promise<Map<string, EngineLastCall>> {
  const rows = await db.select().from(engineCalls);
  return new Map(
    rows.map((row) => [
      `${row.kind}:${row.engine}`,
      {
        outcome: row.outcome,
        at: row.at.toISOString(),
        ...(row.message === null ? {} : { message: row.message }),
      },
    ]),
  );
}
