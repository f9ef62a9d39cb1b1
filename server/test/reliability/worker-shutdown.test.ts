import { afterAll, describe, expect, it } from 'vitest';
import {
  prepareStudio,
  StudioClient,
  type StudioRun,
  startStudioProcess,
  startWorkerProcess,
  targets,
} from './crash-studio.ts';

// SIGTERM a real process while it renders a video (WORKER_SHUTDOWN_GRACE_S). With a grace longer than the render,
// the render finishes in that process (one attempt); with no grace, it is given back at once and the next worker
// renders it (two attempts). Either way the video is charged once. On PostgreSQL the workers are `npm run worker`
// processes beside an API process without workers; on PGlite, the API process runs its workers (one process).

const CREATOR = { email: 'creator@genpro.local', password: 'genpro-creator' };
// Long enough to be caught rendering even on an idle machine (a few seconds).
const VIDEO = { model: 'seedance', duration: 10, resolution: '720p', fps: 24 };
// Generous: the whole suite runs beside this test on two cores in CI. Waits end as soon as their condition holds.
const WAIT_MS = 180_000;

interface TaskView {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, explain: () => string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${explain()}`);
    await sleep(100);
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe.each(targets)('worker shutdown grace on $name', ({ name, make }) => {
  const shared = name === 'PostgreSQL';

  it('SIGTERM mid-render: finished within the grace, or given back and rendered by the next worker; charged once', {
    timeout: 900_000,
  }, async () => {
    let api: StudioRun | null = null;
    let worker: StudioRun | null = null;
    const { dataDir, target, port } = await prepareStudio(make, 'genpro-shutdown-', cleanups, () => worker);
    cleanups.push(async () => {
      await api?.kill();
    });
    const studio = (env: Record<string, string>) =>
      startStudioProcess({
        dataDir,
        port,
        databaseUrl: target.databaseUrl,
        env: { SEED_DEMO: 'true', LOG_LEVEL: 'info', ...env },
      });
    /** A process running workers with this grace: a worker process (PostgreSQL) or the studio itself (PGlite). */
    const startWorkers = async (grace: number): Promise<StudioRun> => {
      const env = { WORKER_SHUTDOWN_GRACE_S: String(grace) };
      if (shared) return startWorkerProcess({ dataDir, port, databaseUrl: target.databaseUrl, env });
      api = await studio({ ...env, RUN_WORKERS: 'true' });
      return api;
    };
    if (shared) api = await studio({ RUN_WORKERS: 'false' });

    const client = () => StudioClient.login(`http://127.0.0.1:${port}`, CREATOR.email, CREATOR.password);
    const statusOf = async (taskId: string) =>
      (await (await client()).call<{ data: TaskView }>('GET', `/api/tasks/${taskId}`)).json.data.status;

    /** Starts workers with the grace, asks for a video, SIGTERMs them while it renders; `before` runs once they are up. */
    const renderAndStop = async (grace: number, label: string, before?: () => Promise<void>) => {
      worker = await startWorkers(grace);
      const stopping = worker;
      await before?.();
      const res = await (await client()).call<{ data: { taskId: string } }>('POST', '/api/ai/generate/video', {
        ...VIDEO,
        prompt: `a lighthouse in a storm, ${label}`,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      const taskId = res.json.data.taskId;
      await until(
        `task ${taskId} to be processing`,
        async () => ((await statusOf(taskId)) === 'processing' ? true : undefined),
        () => stopping.output().slice(-4000),
      );
      await stopping.stop();
      worker = null;
      if (!shared) api = null;
      return { taskId, output: stopping.output() };
    };

    // A grace longer than the render: the render finishes before the process exits.
    const first = await renderAndStop(120, 'within the grace');
    expect(first.output).toContain('"msg":"worker stopping: finishing 1 running tasks (grace 120s)"');
    expect(first.output).toContain('"msg":"worker stopping: running tasks finished"');
    expect(first.output).not.toContain('giving back');

    // No grace: the render is given back at once and the next worker renders it from the start.
    const second = await renderAndStop(0, 'no grace', async () => {
      expect(await statusOf(first.taskId)).toBe('completed');
    });
    expect(second.output).toContain('"msg":"worker stopping: finishing 1 running tasks (grace 0s)"');
    expect(second.output).toContain('"msg":"worker stopping: grace over, giving back 1 running tasks"');
    worker = await startWorkers(0);
    const next = worker;
    await until(
      `task ${second.taskId} to end`,
      async () => {
        const status = await statusOf(second.taskId);
        return status === 'completed' || status === 'failed' ? status : undefined;
      },
      () => next.output().slice(-4000),
    );
    expect(await statusOf(second.taskId)).toBe('completed');
    await next.stop();
    worker = null;
    if (!shared) api = null;
    await (api as StudioRun | null)?.stop();
    api = null;

    const database = await target.open();
    try {
      const { rows: attempts } = await database.executeSql(
        'SELECT id, attempts FROM tasks WHERE id = ANY($1::uuid[])',
        [[first.taskId, second.taskId]],
      );
      expect(Object.fromEntries(attempts.map((r) => [r.id, r.attempts]))).toEqual({
        [first.taskId]: 1,
        [second.taskId]: 2,
      });
      // Charged once each, never refunded.
      const { rows: ledger } = await database.executeSql(
        'SELECT task_id, type, source FROM credit_transactions WHERE task_id = ANY($1::uuid[])',
        [[first.taskId, second.taskId]],
      );
      expect(ledger.map((r) => `${r.task_id} ${r.type} ${r.source}`).sort()).toEqual(
        [`${first.taskId} deduction generation`, `${second.taskId} deduction generation`].sort(),
      );
      // Every process stopped cleanly and removed its heartbeat row.
      expect((await database.executeSql('SELECT id FROM worker_heartbeats')).rows).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
