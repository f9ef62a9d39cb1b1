// Issue 26: every rate limit counts in one store for the cluster — the rate_limits table on PostgreSQL, this
// process's memory on the embedded PGlite — and keeps counting (in memory) while that table cannot be reached.
import { Writable } from 'node:stream';
import { eq, like } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { createLogger } from '../../context.ts';
import { rateLimits } from '../../db/schema/index.ts';
import { createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { RateLimitCounters, rateLimitSweepJob } from './rate-limit-store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger whose lines (parsed) land in `lines`. */
function capturingLogger() {
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = [];
  const log = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { log, lines };
}

let t: TestApp;
let postgres: boolean;
let counters: RateLimitCounters;
const unique = () => `test-${crypto.randomUUID()}`;

beforeAll(async () => {
  t = await createTestApp({
    env: { RUN_WORKERS: 'false', RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE: '2' },
  });
  postgres = t.ctx.database.kind === 'postgres';
  counters = new RateLimitCounters({ pool: t.ctx.database.pgPool }, t.ctx.log);
});
afterAll(async () => {
  await t?.close();
});

describe('rate-limit counters', () => {
  it('are shared across processes on PostgreSQL and kept in memory on PGlite', () => {
    expect(counters.sharedAcrossProcesses).toBe(postgres);
  });

  it('count the hits of a key within its window, and read without counting', async () => {
    const key = unique();
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push(await counters.hit(key, 60_000));
    expect(hits.map((h) => h.current)).toEqual([1, 2, 3]);
    for (const { ttl } of hits) {
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    // The window runs from the first hit: later hits do not push it back.
    expect(hits[2].ttl).toBeLessThanOrEqual(hits[0].ttl);
    expect((await counters.read(key)).current).toBe(3);
    expect((await counters.read(key)).current).toBe(3);
    expect(await counters.read(unique())).toEqual({ current: 0, ttl: 0 });
  });

  it('keep distinct keys apart', async () => {
    const [a, b] = [unique(), unique()];
    await counters.hit(a, 60_000);
    await counters.hit(a, 60_000);
    expect((await counters.hit(b, 60_000)).current).toBe(1);
    expect((await counters.hit(a, 60_000)).current).toBe(3);
  });

  it('start a new window once the last one has ended', async () => {
    const key = unique();
    await counters.hit(key, 1_000);
    const second = await counters.hit(key, 1_000);
    expect(second.current).toBe(2);
    await sleep(second.ttl + 50);
    expect(await counters.read(key)).toEqual({ current: 0, ttl: 0 });
    const fresh = await counters.hit(key, 1_000);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeGreaterThan(500);
  });

  it('are one count for every process on PostgreSQL (a second set of counters continues it)', async () => {
    const key = unique();
    await counters.hit(key, 60_000);
    await counters.hit(key, 60_000);
    const otherProcess = new RateLimitCounters({ pool: t.ctx.database.pgPool }, t.ctx.log);
    expect((await otherProcess.hit(key, 60_000)).current).toBe(postgres ? 3 : 1);
    const rows = await t.ctx.db.select().from(rateLimits).where(eq(rateLimits.key, key));
    if (postgres) {
      expect(rows).toHaveLength(1);
      expect(rows[0].points).toBe(3);
      expect(Number(rows[0].expire)).toBeGreaterThan(Date.now());
    } else expect(rows).toEqual([]);
  });

  it('store keys longer than the column by their hash, still apart', async () => {
    const long = `${'x'.repeat(300)}`;
    expect((await counters.hit(`${long}a`, 60_000)).current).toBe(1);
    expect((await counters.hit(`${long}b`, 60_000)).current).toBe(1);
    expect((await counters.hit(`${long}a`, 60_000)).current).toBe(2);
  });
});

describe('the sweep of ended windows', () => {
  it('removes the counters whose window has ended and keeps the others', async () => {
    const now = Date.now();
    const [ended, live] = [unique(), unique()];
    await t.ctx.db.insert(rateLimits).values([
      { key: ended, points: 5, expire: now - 1_000 },
      { key: live, points: 2, expire: now + 60_000 },
    ]);
    const result = await rateLimitSweepJob.run(t.ctx);
    expect(result).toMatchObject({ removed: expect.any(Number) });
    const left = (await t.ctx.db.select().from(rateLimits).where(like(rateLimits.key, 'test-%'))).map((r) => r.key);
    expect(left).toContain(live);
    expect(left).not.toContain(ended);
  });
});

describe('when the store cannot be reached', () => {
  it('counts in this process and warns once, not on every hit', async () => {
    const { log, lines } = capturingLogger();
    const nowhere = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/nowhere', max: 1 });
    try {
      const down = new RateLimitCounters({ pool: nowhere }, log);
      const key = unique();
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push((await down.hit(key, 60_000)).current);
      expect(hits).toEqual([1, 2, 3, 4]);
      const warnings = lines.filter((l) => l.msg.startsWith('rate-limit store unreachable'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].level).toBe(40);
    } finally {
      await nowhere.end();
    }
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'goes back to the shared table once it answers again (PostgreSQL)',
    async () => {
      const { log, lines } = capturingLogger();
      const flaky = new RateLimitCounters({ pool: t.ctx.database.pgPool }, log);
      const key = unique();
      expect((await flaky.hit(key, 60_000)).current).toBe(1);
      await t.ctx.database.executeSql('ALTER TABLE rate_limits RENAME TO rate_limits_away');
      try {
        // Counted in memory meanwhile (a fresh count there), with a warning.
        expect((await flaky.hit(key, 60_000)).current).toBe(1);
        expect((await flaky.hit(key, 60_000)).current).toBe(2);
      } finally {
        await t.ctx.database.executeSql('ALTER TABLE rate_limits_away RENAME TO rate_limits');
      }
      expect((await flaky.hit(key, 60_000)).current).toBe(2);
      expect(lines.map((l) => l.msg)).toEqual([
        'rate-limit store unreachable: counting in this process until the database answers',
        'rate-limit store answers again',
      ]);
    },
  );
});

describe('the limits of the API in the store', () => {
  it('count each route apart, keep the headers and the 429, and land in rate_limits on PostgreSQL', async () => {
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `${unique()}@example.com`, password: 'not-the-password' },
      });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await login());
    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401, 429]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[0].headers['x-ratelimit-limit']).toBe('3');
    expect(answers[0].headers['x-ratelimit-reset']).toBe('60');
    const refused = answers[3];
    const body = refused.json() as { code: string; error: string; details: { retryAfterSeconds: number } };
    expect(body).toMatchObject({ success: false, code: 'rate_limited', error: MESSAGES.generic.rateLimited });
    expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused.headers['retry-after']).toBe(String(body.details.retryAfterSeconds));

    // Another limit of the same client has counters of its own.
    const ask = () =>
      t.app.inject({ method: 'POST', url: '/api/chat/genpro', payload: { message: 'How do credits work?' } });
    expect([(await ask()).statusCode, (await ask()).statusCode, (await ask()).statusCode]).toEqual([200, 200, 429]);

    const keys = (await t.ctx.db.select().from(rateLimits)).map((r) => r.key);
    if (postgres) {
      expect(keys).toEqual(
        expect.arrayContaining(['POST /api/auth/login|127.0.0.1', 'POST /api/chat/genpro|ip:127.0.0.1']),
      );
    } else expect(keys.filter((k) => !k.startsWith('test-'))).toEqual([]);
  });

  it('count a shared per-user limit under its name, for all its routes', async () => {
    const user = await createTestUser(t.ctx.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/image-agent',
      headers: { authorization: `Bearer ${user.token}` },
      payload: { prompt: 'a lighthouse at dusk' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(t.config.RATE_LIMIT_TEXT_AGENTS_PER_MINUTE - 1));
    const rows = await t.ctx.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `text-agents|user:${user.id}`));
    expect(rows.map((r) => r.points)).toEqual(postgres ? [1] : []);
  });
});
