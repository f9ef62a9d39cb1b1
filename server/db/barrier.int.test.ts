import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../test/databases.ts';
import type { Database } from './client.ts';

// The notification barrier of PostgreSQL (see Database.barrier): a caller passing `since` is served by any
// barrier sent at or after it, so a request pays one round trip at most; without it, or with a later
// `since`, a new barrier notification goes out.
describe.runIf(process.env.TEST_DB === 'postgres')('notification barrier', () => {
  let database: Database;
  let watcher: pg.Client;
  const sent: string[] = [];
  let stopListening: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    database = await openTestDatabase(inject('dbTemplate'));
    stopListening = await database.listen?.('genpro_test_channel', () => undefined);
    const { rows } = await database.executeSql('SELECT current_database() AS name');
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = `/${String(rows[0].name)}`;
    watcher = new pg.Client({ connectionString: url.toString() });
    await watcher.connect();
    watcher.on('notification', (message) => sent.push(message.payload ?? ''));
    await watcher.query('LISTEN genpro_cache_barrier');
  });
  afterAll(async () => {
    await watcher?.end();
    await stopListening?.();
    await database?.close();
  });

  async function barriersSentBy(call: () => Promise<void>): Promise<number> {
    const before = sent.length;
    await call();
    // The watcher hears a NOTIFY no later than the studio's own listener does; allow for the round trip.
    await new Promise((resolve) => setTimeout(resolve, 150));
    return sent.length - before;
  }

  it('sends one barrier per caller without `since`', async () => {
    expect(await barriersSentBy(() => database.barrier?.() ?? Promise.reject(new Error('no barrier')))).toBe(1);
    expect(await barriersSentBy(() => database.barrier?.() ?? Promise.reject(new Error('no barrier')))).toBe(1);
  });

  it('serves a `since` older than a passed barrier at once, and a newer one with a new barrier', async () => {
    const arrived = performance.now();
    expect(await barriersSentBy(() => database.barrier?.(arrived) ?? Promise.reject(new Error('no barrier')))).toBe(1);
    expect(await barriersSentBy(() => database.barrier?.(arrived) ?? Promise.reject(new Error('no barrier')))).toBe(0);
    const later = performance.now();
    expect(await barriersSentBy(() => database.barrier?.(later) ?? Promise.reject(new Error('no barrier')))).toBe(1);
  });
});
