import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /healthz', () => {
  it('reports every part ok with 200, without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok', jobs: 'ok', storage: 'ok' });
    // Every model with the engine serving it (issue 19): the embedded default serves them all locally.
    const engines = res.json().engines as Array<{ kind: string; model: string; engine: string; available: boolean }>;
    const names = Object.entries(t.ctx.engines.models()).flatMap(([kind, list]) => list.map((m) => `${kind}:${m}`));
    expect(engines.map((e) => `${e.kind}:${e.model}`)).toEqual(names);
    expect(engines.every((e) => e.engine === 'local' && e.available)).toBe(true);
  });

  it('answers 503 degraded naming the part that fails', async () => {
    const ping = vi.spyOn(t.ctx.storage, 'ping').mockResolvedValue(false);
    const jobs = vi.spyOn(t.ctx.jobs, 'health').mockRejectedValue(new Error('down'));
    try {
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'degraded', database: 'ok', jobs: 'error', storage: 'error' });
    } finally {
      ping.mockRestore();
      jobs.mockRestore();
    }
  });
});
