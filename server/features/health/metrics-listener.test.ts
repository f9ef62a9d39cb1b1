import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { createLifecycle } from '../../platform/lifecycle.ts';
import { Metrics } from '../../platform/metrics/index.ts';
import { type MetricsServer, startMetricsServer } from '../../platform/metrics/server.ts';
import { liveness, readiness } from './probes.ts';

// The METRICS_PORT listener's probes: /readyz follows the database and the drain; /livez only that it serves.

let server: MetricsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the METRICS_PORT listener', () => {
  it('answers /readyz 503 while the database fails or the process drains, 200 otherwise', async () => {
    let databaseUp = true;
    const database = {
      executeSql: async () => {
        if (!databaseUp) throw new Error('connection refused');
        return { rows: [] };
      },
    };
    const lifecycle = createLifecycle();
    server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      metrics: new Metrics(),
      live: liveness,
      ready: () => readiness({ database: database as unknown as Database, lifecycle }),
      log: createLogger('silent'),
    });
    const base = `http://127.0.0.1:${server.port}`;
    const ready = async () => {
      const res = await fetch(`${base}/readyz`);
      return { status: res.status, body: await res.json() };
    };
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok' } });
    databaseUp = false;
    expect(await ready()).toEqual({ status: 503, body: { status: 'unavailable', reason: 'database' } });
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    databaseUp = true;
    lifecycle.startDrain();
    expect(await ready()).toEqual({ status: 503, body: { status: 'unavailable', reason: 'draining' } });
    expect((await fetch(`${base}/livez`)).status).toBe(200);

    const metrics = await fetch(`${base}/metrics?x=1`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# TYPE genpro_tasks_total counter');
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
