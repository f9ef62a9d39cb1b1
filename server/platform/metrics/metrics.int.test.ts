import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AdminEnginesReply } from '../../../common/api/engines.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { GENERATE_KINDS } from '../../../common/rules/generation-status.ts';
import { type App, buildApp } from '../../app.ts';
import { type AppContext, createContext, createLogger } from '../../context.ts';
import { type Database, openPostgres } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import { STUDIO_JOBS } from '../../jobs.ts';
import { authHeader, createTestUser, eventually, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { sampleValue } from '../../test/prometheus.ts';
import { defineTask } from '../jobs/types.ts';

// Operators' view of a studio (issue 26, point 7): /metrics behind METRICS_TOKEN, request ids followed into tasks
// and worker logs, connections named by role, engines' last calls shared through the database.

const TOKEN = 'metrics-token-for-the-tests-0123';
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let user: TestUser;

/** Released by the test: each gated task waits for one release. */
const waiting: Array<() => void> = [];
const gated = defineTask({
  kind: 'test.metrics-gated',
  input: z.object({}),
  retryLimit: 0,
  handler: () => new Promise<{ ok: true }>((resolve) => waiting.push(() => resolve({ ok: true }))),
});
const failing = defineTask({
  kind: 'test.metrics-failing',
  input: z.object({}),
  retryLimit: 1,
  retryDelaySeconds: 1,
  handler: async (): Promise<object> => {
    throw new Error('engine exploded');
  },
});

async function scrape(app: App = t.app, token: string | null = TOKEN) {
  return app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });
}

async function metricsText(): Promise<string> {
  const res = await scrape();
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

beforeAll(async () => {
  t = await createTestApp({
    env: { METRICS_TOKEN: TOKEN, WORKER_CONCURRENCY: '1', LOG_LEVEL: 'info' },
    logTo: sink,
  });
  await t.ctx.jobs.register(gated);
  await t.ctx.jobs.register(failing);
  user = await createTestUser(t.ctx.db, { credits: 500 });
});

afterAll(async () => {
  for (const release of waiting.splice(0)) release();
  await t?.close();
});

describe('GET /metrics on the main port', () => {
  it('needs the bearer METRICS_TOKEN: 401 without it or with another, Prometheus text with it', async () => {
    const missing = await scrape(t.app, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(missing.json()).toMatchObject({ success: false, code: 'unauthorized' });
    expect((await scrape(t.app, `${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(t.app, TOKEN.slice(0, -1))).statusCode).toBe(401);
    // A user's session token is not the metrics token.
    expect((await scrape(t.app, user.token)).statusCode).toBe(401);

    const ok = await scrape();
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
    // The process's own figures are there too.
    expect(ok.body).toContain('process_cpu_user_seconds_total');
    expect(ok.body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts HTTP requests by method, route pattern and status, never the raw URL', async () => {
    const before = sampleValue(await metricsText(), 'genpro_http_requests_total', { route: '/livez' }) ?? 0;
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const unknown = `/api/no-such-route-${Date.now()}`;
    expect((await t.app.inject({ method: 'GET', url: unknown })).statusCode).toBe(404);
    const taskId = crypto.randomUUID();
    const task = await t.app.inject({ method: 'GET', url: `/api/tasks/${taskId}`, headers: authHeader(user.token) });
    expect(task.statusCode).toBe(404);

    const text = await metricsText();
    expect(sampleValue(text, 'genpro_http_requests_total', { method: 'GET', route: '/livez', status: '200' })).toBe(
      before + 1,
    );
    expect(sampleValue(text, 'genpro_http_requests_total', { route: '(unmatched)', status: '404' })).toBeGreaterThan(0);
    expect(sampleValue(text, 'genpro_http_requests_total', { route: '/api/tasks/:id', status: '404' })).toBe(1);
    expect(sampleValue(text, 'genpro_http_request_duration_seconds_count', { route: '/livez' })).toBe(before + 1);
    expect(text).not.toContain(unknown);
    expect(text).not.toContain(taskId);
  });
});

describe('request ids', () => {
  it('takes a safe X-Request-Id, records it on the task the request made and in the worker log of each attempt', async () => {
    const requestId = 'lb-7f3a.2026:req_01';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/image',
      headers: { ...authHeader(user.token), 'x-request-id': requestId },
      payload: { prompt: 'a lighthouse on a cliff at dusk', size: '256x256', variations: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-request-id']).toBe(requestId);
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.requestId, requestId));
    expect(task).toMatchObject({ userId: user.id, kind: GENERATE_KINDS.image, status: 'completed' });

    const ofTask = (msg: string) => lines.filter((line) => line.msg === msg && line.taskId === task?.id);
    const started = ofTask('task started');
    const finished = await eventually(async () => ofTask('task finished')[0], { what: 'the task finished log line' });
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ requestId, kind: GENERATE_KINDS.image, attempt: 1, level: 30 });
    expect(started[0]?.queueWaitMs).toEqual(expect.any(Number));
    expect(finished).toMatchObject({ requestId, kind: GENERATE_KINDS.image, attempt: 1, outcome: 'completed' });
    expect(finished.runMs).toEqual(expect.any(Number));

    // The attempt's counters and timings.
    const text = await metricsText();
    const kind = GENERATE_KINDS.image;
    expect(sampleValue(text, 'genpro_tasks_total', { kind, outcome: 'completed' })).toBe(1);
    expect(sampleValue(text, 'genpro_task_queue_wait_seconds_count', { kind })).toBe(1);
    expect(sampleValue(text, 'genpro_task_run_seconds_count', { kind })).toBe(1);
    expect(sampleValue(text, 'genpro_engine_calls_total', { kind: 'image', engine: 'local', outcome: 'ok' })).toBe(1);
  });

  it('makes a new id when the incoming one is not a safe token, or missing', async () => {
    for (const incoming of ['has spaces', 'x'.repeat(129), 'semi;colon', '']) {
      const res = await t.app.inject({ method: 'GET', url: '/livez', headers: { 'x-request-id': incoming } });
      expect(res.headers['x-request-id']).not.toBe(incoming);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const plain = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('task and queue metrics', () => {
  it('counts failed and retried attempts by kind', async () => {
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: failing.kind, input: {} });
    await eventually(
      async () => {
        const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, task.id));
        return row?.status === 'failed';
      },
      { what: 'the failing task to fail', timeoutMs: 30_000 },
    );
    const text = await metricsText();
    expect(sampleValue(text, 'genpro_tasks_total', { kind: failing.kind, outcome: 'retried' })).toBe(1);
    expect(sampleValue(text, 'genpro_tasks_total', { kind: failing.kind, outcome: 'failed' })).toBe(1);
    expect(sampleValue(text, 'genpro_task_run_seconds_count', { kind: failing.kind })).toBe(2);
    // Tasks made outside a request have no request id.
    const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.requestId).toBeNull();
  });

  it('reports the jobs waiting in each queue at scrape time', async () => {
    const queue = `task.${gated.kind}`;
    expect(sampleValue(await metricsText(), 'genpro_queue_depth', { queue })).toBe(0);
    // One worker per kind here: the first task runs, the second waits for it.
    await t.ctx.jobs.createTask({ userId: user.id, kind: gated.kind, input: {} });
    await t.ctx.jobs.createTask({ userId: user.id, kind: gated.kind, input: {} });
    await eventually(async () => waiting.length === 1, { what: 'the first gated task to run' });
    expect(sampleValue(await metricsText(), 'genpro_queue_depth', { queue })).toBe(1);
    waiting.shift()?.();
    await eventually(async () => waiting.length === 1, { what: 'the second gated task to run' });
    expect(sampleValue(await metricsText(), 'genpro_queue_depth', { queue })).toBe(0);
    waiting.shift()?.();
    await eventually(
      async () => {
        const rows = await t.ctx.db.select().from(tasks).where(eq(tasks.kind, gated.kind));
        return rows.length === 2 && rows.every((r) => r.status === 'completed');
      },
      { what: 'both gated tasks to complete' },
    );
    expect(sampleValue(await metricsText(), 'genpro_tasks_total', { kind: gated.kind, outcome: 'completed' })).toBe(2);
  });

  it('counts the open task event streams', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/tasks/events`, {
      headers: authHeader(user.token),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    await res.body?.getReader().read();
    expect(sampleValue(await metricsText(), 'genpro_event_streams_open')).toBe(1);
    controller.abort();
    await eventually(async () => sampleValue(await metricsText(), 'genpro_event_streams_open') === 0, {
      what: 'the stream to be counted closed',
    });
  });
});

describe('database connections', () => {
  it('reports the pool on PostgreSQL (nothing on PGlite) and names every connection by its role', async () => {
    const text = await metricsText();
    if (t.ctx.database.kind === 'pglite') {
      expect(sampleValue(text, 'genpro_db_pool_max')).toBeUndefined();
      expect(sampleValue(text, 'genpro_db_pool_connections', { state: 'total' })).toBeUndefined();
      return;
    }
    // The test databases' pools hold 4 connections.
    expect(sampleValue(text, 'genpro_db_pool_max')).toBe(4);
    expect(sampleValue(text, 'genpro_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(sampleValue(text, 'genpro_db_pool_connections', { state: 'idle' })).toEqual(expect.any(Number));
    // Callers waiting for a connection (the workers of every kind share the test's small pool).
    expect(sampleValue(text, 'genpro_db_pool_connections', { state: 'waiting' })).toEqual(expect.any(Number));
    const { rows } = await t.ctx.database.executeSql(
      `SELECT DISTINCT application_name FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend'`,
    );
    expect(rows.map((r) => r.application_name)).toEqual(['genpro-test']);
  });
});

describe('a second process on the same database', () => {
  let other: { ctx: AppContext; app: App; database: Database; ownDatabase: boolean } | null = null;

  beforeAll(async () => {
    // Another API process: no workers, no METRICS_TOKEN, its own engine registry (which has made no call).
    let database = t.ctx.database;
    let ownDatabase = false;
    if (database.kind === 'postgres') {
      const { rows } = await database.executeSql('SELECT current_database() AS name');
      const url = new URL(process.env.DATABASE_URL ?? '');
      url.pathname = `/${String(rows[0]?.name)}`;
      database = await openPostgres(url.toString(), 2, 'genpro-test');
      ownDatabase = true;
    }
    const config = { ...t.config, METRICS_TOKEN: undefined, RUN_WORKERS: false };
    const ctx = await createContext(config, STUDIO_JOBS, { database, log: createLogger('silent') });
    const app = await buildApp(ctx);
    await app.ready();
    other = { ctx, app, database, ownDatabase };
  });

  afterAll(async () => {
    if (!other) return;
    await other.app.close();
    await other.ctx.jobs.stop();
    if (other.ownDatabase) await other.database.close();
  });

  it('answers GET /metrics with 404, like an unknown path, when METRICS_TOKEN is unset', async () => {
    const app = other!.app;
    const unknown = await app.inject({ method: 'GET', url: '/api/no-such-route' });
    for (const token of [null, TOKEN]) {
      const res = await scrape(app, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
      expect(res.json()).toMatchObject({ success: false, code: 'not_found', error: MESSAGES.generic.notFound });
    }
  });

  it('shows the engine calls made by the first process in its admin Engines view (from engine_calls)', async () => {
    const { ctx, app } = other!;
    // The image generation above ran on the first process's local image engine.
    expect(ctx.engines.catalogue().find((m) => m.model === 'nanobana')?.lastCall).toBeNull();
    const admin = await createTestUser(ctx.db, { role: 'admin' });
    const nanobana = await eventually(
      async () => {
        const res = await app.inject({ method: 'GET', url: '/api/admin/engines', headers: authHeader(admin.token) });
        expect(res.statusCode, res.body).toBe(200);
        const model = (res.json() as AdminEnginesReply).models.find((m) => m.model === 'nanobana');
        return model?.lastCall ? model : undefined;
      },
      { what: "the first process's engine call in the second's admin view" },
    );
    expect(nanobana.engine).toBe('local');
    expect(nanobana.lastCall).toMatchObject({ outcome: 'ok' });
    expect(Date.parse(nanobana.lastCall?.at ?? '')).toBeGreaterThan(Date.now() - 10 * 60_000);
    // The health report reads the same table; an engine nobody called has no last call.
    const health = (await app.inject({ method: 'GET', url: '/healthz' })).json() as {
      engines: Array<{ model: string; lastCall: unknown }>;
    };
    expect(health.engines.find((m) => m.model === 'nanobana')?.lastCall).toMatchObject({ outcome: 'ok' });
    expect(health.engines.find((m) => m.model === 'suno-v3.5')?.lastCall).toBeNull();
  });
});
