// Progress channel benchmark: how long a worker's progress report takes to reach a browser's event stream
// (GET /api/tasks/events), on PGlite and on PostgreSQL. The studio runs in this process with its own workers and
// a task kind that reports 10 %, 20 % … 90 % (600 ms apart, so the queue's write throttle lets each through at
// once); the client is a real HTTP client of the stream in the same process, so both ends read one clock.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { closeContext, createContext } from '../server/context.ts';
import { openPglite, openPostgres } from '../server/db/client.ts';
import { seedDemoIfEmpty } from '../server/features/auth/seed.ts';
import { systemClock } from '../server/platform/clock.ts';
import { defineTask } from '../server/platform/jobs/types.ts';
import { createBenchDatabase, findPostgres } from './processes.ts';
import { type BenchRow, type BenchSection, ms, percentile } from './report.ts';
import { logIn } from './seed.ts';

const TASKS = Number(process.env.BENCH_PROGRESS_TASKS ?? 10);
const STEPS = [10, 20, 30, 40, 50, 60, 70, 80, 90];
const STEP_MS = 600;
const BUDGET_MS = 250;

/** When each report (`<task id>:<progress>`, or `<task id>:done` as the handler returns) was made. */
const reported = new Map<string, number>();

const progressKind = defineTask({
  kind: 'bench.progress',
  input: z.object({}),
  retryLimit: 0,
  handler: async ({ task, report }) => {
    for (const progress of STEPS) {
      await new Promise((resolve) => setTimeout(resolve, STEP_MS));
      reported.set(`${task.id}:${progress}`, performance.now());
      await report({ progress });
    }
    await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    reported.set(`${task.id}:done`, performance.now());
    return { url: null };
  },
});

interface Latencies {
  progress: number[];
  completion: number[];
}

/** Reads the event stream, noting when each awaited event arrived; resolves when every task has completed. */
async function follow(baseUrl: string, token: string, start: () => Promise<string[]>): Promise<Latencies> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/tasks/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) throw new Error(`the event stream answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const arrived = new Map<string, number>();
  let ids: Set<string> | null = null;
  const completed = new Set<string>();
  let buffer = '';
  let started: Promise<string[]> | null = null;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      const now = performance.now();
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith('event: ready')) {
          started ??= start().then((list) => {
            ids = new Set(list);
            return list;
          });
          continue;
        }
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (!block.includes('event: task') || !data) continue;
        const task = JSON.parse(data.slice(6)) as { id: string; status: string; progress: number };
        const key = task.status === 'completed' ? `${task.id}:done` : `${task.id}:${task.progress}`;
        if (!arrived.has(key)) arrived.set(key, now);
        if (task.status === 'completed' || task.status === 'failed') completed.add(task.id);
      }
      if (started) await started;
      if (ids && [...ids].every((id) => completed.has(id))) break;
    }
  } finally {
    controller.abort();
  }
  const result: Latencies = { progress: [], completion: [] };
  for (const [key, at] of reported) {
    // A report overtaken by the next one before its row was read arrives as that newer state.
    const [id, step] = key.split(':');
    const value = step === 'done' ? 101 : Number(step);
    const reached =
      arrived.get(key) ??
      Math.min(
        ...[...arrived]
          .filter(([k]) => k.startsWith(`${id}:`) && (k.endsWith(':done') ? 101 : Number(k.split(':')[1])) >= value)
          .map(([, at]) => at),
      );
    if (!Number.isFinite(reached)) throw new Error(`no event of ${key} or a later state arrived`);
    (key.endsWith(':done') ? result.completion : result.progress).push(reached - at);
  }
  return result;
}

async function measure(label: string, databaseUrl?: string): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-progress-'));
  const database = databaseUrl
    ? await openPostgres(databaseUrl)
    : await openPglite({ dataDir: path.join(dataDir, 'pg') });
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    RUN_WORKERS: 'true',
    WORKER_CONCURRENCY: String(TASKS),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const ctx = await createContext(config, { tasks: [progressKind], scheduled: [] }, { database });
  reported.clear();
  try {
    await seedDemoIfEmpty({ db: ctx.db, clock: systemClock });
    const app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const token = await logIn(baseUrl);
      const me = (await (
        await fetch(`${baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        data: { user: { id: string } };
      };
      const latencies = await follow(baseUrl, token, async () => {
        const created = [];
        for (let i = 0; i < TASKS; i++) {
          created.push(await ctx.jobs.createTask({ userId: me.data.user.id, kind: progressKind.kind, input: {} }));
        }
        return created.map((task) => task.id);
      });
      const p95 = percentile(latencies.progress, 95);
      return [
        {
          name: `progress report → EventSource client, p50 / p95 (${label}, ${latencies.progress.length} reports)`,
          ours: `${ms(percentile(latencies.progress, 50))} / ${ms(p95)}`,
          baseline: '',
          budget: `p95 < ${BUDGET_MS} ms`,
          pass: p95 < BUDGET_MS,
        },
        {
          name: `handler returned → completed event, p50 / p95 (${label}, ${latencies.completion.length} tasks)`,
          ours: `${ms(percentile(latencies.completion, 50))} / ${ms(percentile(latencies.completion, 95))}`,
          baseline: '',
          budget: `p95 < ${BUDGET_MS} ms`,
          pass: percentile(latencies.completion, 95) < BUDGET_MS,
        },
      ];
    } finally {
      await app.close();
    }
  } finally {
    await closeContext(ctx);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runProgressBench(): Promise<BenchSection> {
  const rows = await measure('PGlite');
  const postgres = await findPostgres();
  if ('skipped' in postgres) {
    rows.push({ name: 'PostgreSQL', ours: `skipped: ${postgres.skipped}`, baseline: '' });
  } else {
    const bench = await createBenchDatabase(postgres.url, 'progress');
    try {
      rows.push(...(await measure('PostgreSQL', bench.url)));
    } finally {
      await bench.drop();
    }
  }
  return {
    title: 'Progress channel',
    method: [
      `${TASKS} tasks at once, each reporting ${STEPS.join(', ')} % ${STEP_MS} ms apart through the queue's report() (its throttle lets a step of 10 through at once)`,
      'one GET /api/tasks/events client (fetch, same process): latency = event read from the stream − report() called (the row update, the trigger NOTIFY, the hub reading the row and writing the event)',
      'the studio in-process with its own workers (WORKER_CONCURRENCY = tasks); PostgreSQL: a fresh database on DATABASE_URL (or 127.0.0.1:5432), dropped after the run',
    ],
    rows,
  };
}
