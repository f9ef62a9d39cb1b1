import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/studio-process.ts';
import { eventually } from '../../test/fixtures.ts';
import { sampleValue } from '../../test/prometheus.ts';
import {
  prepareStudio,
  type StudioRun,
  startStudioProcess,
  startWorkerProcess,
  type Target,
  targets,
} from '../../test/reliability/crash-studio.ts';

// METRICS_PORT on real processes: `npm run worker` (no other HTTP) and an API process answer /metrics without a
// token, /livez and /readyz on a listener of their own; on PostgreSQL their connections carry their role.

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function applicationNames(target: Target): Promise<string[]> {
  const database = await target.open();
  try {
    const { rows } = await database.executeSql(
      `SELECT DISTINCT application_name FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return rows.map((r) => String(r.application_name)).sort();
  } finally {
    await database.close();
  }
}

async function expectProbes(base: string): Promise<string> {
  const live = await fetch(`${base}/livez`);
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ok' });
  expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
  const metrics = await fetch(`${base}/metrics`);
  expect(metrics.status).toBe(200);
  expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return metrics.text();
}

describe.each(targets)('METRICS_PORT on $name', ({ make }) => {
  it('serves /metrics, /livez and /readyz on a worker and on an API process', { timeout: 600_000 }, async () => {
    let run: StudioRun | null = null;
    const { dataDir, target, port } = await prepareStudio(make, 'genpro-metrics-port-', cleanups, () => run);

    // The worker: no HTTP but its metrics listener.
    const workerMetrics = `http://127.0.0.1:${await freePort()}`;
    run = await startWorkerProcess({
      dataDir,
      port,
      databaseUrl: target.databaseUrl,
      env: { METRICS_PORT: new URL(workerMetrics).port },
    });
    const worker = run;
    const text = await expectProbes(workerMetrics);
    expect(text).toContain('process_resident_memory_bytes');
    // Every task queue is listed with its depth (none waiting on a fresh database).
    expect(sampleValue(text, 'genpro_queue_depth', { queue: 'task.generate.image' })).toBe(0);
    if (target.databaseUrl) {
      expect(sampleValue(text, 'genpro_db_pool_max')).toBe(10);
      expect(await applicationNames(target)).toEqual(['genpro-worker']);
    }
    // The worker's main port is not listening: metrics are all it serves.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    await worker.stop();
    await expect(fetch(`${workerMetrics}/livez`)).rejects.toThrow();

    // An API process without workers: its own listener answers without a token; the main port wants one.
    const apiMetrics = `http://127.0.0.1:${await freePort()}`;
    run = await startStudioProcess({
      dataDir,
      port,
      databaseUrl: target.databaseUrl,
      env: {
        METRICS_PORT: new URL(apiMetrics).port,
        METRICS_TOKEN: 'a-metrics-token-of-the-operator',
        RUN_WORKERS: 'false',
        DATABASE_POOL_MAX: '3',
      },
    });
    const api = run;
    expect((await fetch(`${api.baseUrl}/livez`)).status).toBe(200);
    const text2 = await expectProbes(apiMetrics);
    expect(sampleValue(text2, 'genpro_http_requests_total', { route: '/livez', status: '200' })).toBeGreaterThan(0);
    expect((await fetch(`${api.baseUrl}/metrics`)).status).toBe(401);
    const main = await fetch(`${api.baseUrl}/metrics`, {
      headers: { authorization: 'Bearer a-metrics-token-of-the-operator' },
    });
    expect(main.status).toBe(200);
    if (target.databaseUrl) {
      expect(sampleValue(text2, 'genpro_db_pool_max')).toBe(3);
      // The stopped worker's sessions may take a moment to leave pg_stat_activity.
      await eventually(async () => (await applicationNames(target)).join() === 'genpro-api', {
        what: 'only the API process connected',
      });
    }
    await api.stop();
    run = null;
  });
});
