import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminWorkersReply, HealthReply } from '../../../common/api/health.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { authHeader, createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// The probes a load balancer (/readyz) and an orchestrator (/livez) poll, the report monitoring reads (/healthz),
// and the admin list of worker processes.

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('health of a process with workers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /healthz reports every part ok with 200, without a session and without host names', async () => {
    const res = await get(t, '/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      status: 'ok',
      draining: false,
      database: 'ok',
      jobs: 'ok',
      storage: 'ok',
      // This process's own workers.
      workers: { status: 'ok', live: 1, stopping: 0 },
    });
    // Every model with the engine serving it (issue 19): the embedded default serves them all locally.
    const engines = (res.json() as HealthReply).engines;
    const names = Object.entries(t.ctx.engines.models()).flatMap(([kind, list]) => list.map((m) => `${kind}:${m}`));
    expect(engines.map((e) => `${e.kind}:${e.model}`)).toEqual(names);
    expect(engines.every((e) => e.engine === 'local' && e.available)).toBe(true);
    expect(res.body).not.toContain(os.hostname());
    expect(res.body).not.toContain(String((t.ctx.jobs as JobQueue).workerId));
  });

  it('GET /livez and GET /readyz answer 200 ok', async () => {
    for (const url of ['/livez', '/readyz']) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual({ status: 'ok' });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('storage and job queue down: /healthz says degraded, naming them, but answers 200; /readyz stays 200', async () => {
    const ping = vi.spyOn(t.ctx.storage, 'ping').mockResolvedValue(false);
    const jobs = vi.spyOn(t.ctx.jobs, 'health').mockRejectedValue(new Error('down'));
    try {
      const res = await get(t, '/healthz');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'degraded', database: 'ok', jobs: 'down', storage: 'down' });
      expect((await get(t, '/readyz')).statusCode).toBe(200);
    } finally {
      ping.mockRestore();
      jobs.mockRestore();
    }
  });

  it('the database down: /readyz and /healthz answer 503, /livez 200', async () => {
    const sql = vi.spyOn(t.ctx.database, 'executeSql').mockRejectedValue(new Error('connection refused'));
    try {
      const ready = await get(t, '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'database' });
      const health = await get(t, '/healthz');
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({
        status: 'down',
        database: 'down',
        workers: { status: 'down', live: null, stopping: null },
      });
      expect((await get(t, '/livez')).statusCode).toBe(200);
    } finally {
      sql.mockRestore();
    }
    expect((await get(t, '/readyz')).statusCode).toBe(200);
  });

  it('GET /api/admin/workers lists this process for admins only', async () => {
    const admin = await createTestUser(t.ctx.db, { role: 'admin' });
    const creator = await createTestUser(t.ctx.db);
    expect((await get(t, '/api/admin/workers')).statusCode).toBe(401);
    expect((await get(t, '/api/admin/workers', authHeader(creator.token))).statusCode).toBe(403);
    const res = await get(t, '/api/admin/workers', authHeader(admin.token));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json() as AdminWorkersReply;
    expect(data.staleAfterSeconds).toBe(15);
    expect(data.workers).toHaveLength(1);
    const [worker] = data.workers;
    expect(worker).toMatchObject({
      id: (t.ctx.jobs as JobQueue).workerId,
      role: 'api',
      hostname: os.hostname(),
      pid: process.pid,
      live: true,
      stopping: false,
      running: 0,
      concurrency: t.config.WORKER_CONCURRENCY,
    });
    expect(worker?.lastBeatSecondsAgo).toBeLessThan(15);
    expect(Date.parse(worker?.lastBeatAt ?? '')).toBeGreaterThanOrEqual(Date.parse(worker?.startedAt ?? ''));
  });

  it('draining (SIGTERM): /readyz and /healthz answer 503 draining, /livez 200, the heartbeat says stopping', async () => {
    t.ctx.lifecycle.startDrain();
    const ready = await get(t, '/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', reason: 'draining' });
    const health = await get(t, '/healthz');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'down', draining: true, database: 'ok' });
    expect((await get(t, '/livez')).statusCode).toBe(200);
    // The process's workers fetch nothing more and say so (the heartbeat is written as the drain starts, not
    // before startDrain returns): no live worker left, one stopping.
    await vi.waitFor(async () => {
      const { rows } = await t.ctx.database.executeSql('SELECT stopping FROM worker_heartbeats');
      expect(rows).toEqual([{ stopping: true }]);
    });
    expect((await get(t, '/healthz')).json().workers).toEqual({ status: 'degraded', live: 0, stopping: 1 });
  });
});

describe('health of an API process without workers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('no worker anywhere: workers down, the process degraded but ready (200)', async () => {
    const res = await get(t, '/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      database: 'ok',
      jobs: 'ok',
      workers: { status: 'down', live: 0, stopping: 0 },
    });
    expect((await get(t, '/readyz')).statusCode).toBe(200);
    const admin = await createTestUser(t.ctx.db, { role: 'admin' });
    const list = await get(t, '/api/admin/workers', authHeader(admin.token));
    expect((list.json() as AdminWorkersReply).data.workers).toEqual([]);
  });
});
