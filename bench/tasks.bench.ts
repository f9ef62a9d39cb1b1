// Tasks benchmark: submit-to-start latency of image generation tasks (a real, cheap kind: a small local
// image) with the API process's own workers, and with separate `npm run worker` processes on PostgreSQL;
// then throughput with 1, 2 and 4 worker processes.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Child, createBenchDatabase, findPostgres, startApi, startWorker } from './processes.ts';
import { type BenchRow, type BenchSection, ms, percentile } from './report.ts';
import { logIn, openBenchDatabase, seedCredits } from './seed.ts';

const LATENCY_TASKS = Number(process.env.BENCH_TASKS ?? 200);
const SEPARATE_WORKER_TASKS = 60;
const THROUGHPUT_TASKS = 40;
/** The default WORKER_CONCURRENCY: this many submitters in a row keep a worker free for each new task. */
const SUBMITTERS = 2;
const PICKUP_P95_BUDGET_MS = 250;
const IMAGE_PRICE = 4;
const IMAGE_BODY = { prompt: 'a small red apple on a wooden table', size: '128x128', numberOfImages: 1 };

interface Target {
  dataDir: string;
  databaseUrl?: string;
}

/** POST /api/ai/generate/image; the route answers once the image is done (or after ~20 s with the task). */
async function generate(baseUrl: string, token: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/ai/generate/image`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(IMAGE_BODY),
  });
  if (res.status !== 200) throw new Error(`image generation answered ${res.status}: ${await res.text()}`);
}

/** `count` tasks from `submitters` clients, each submitting its next task when its previous one is done. */
async function submitInTurn(baseUrl: string, token: string, count: number, submitters: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: submitters }, async () => {
      while (next < count) {
        next++;
        await generate(baseUrl, token);
      }
    }),
  );
}

interface TaskTimes {
  pickupMs: number[];
  /** Completed tasks per second from the first submission to the last completion. */
  perSecond: number;
  failed: number;
}

/** Start latency (created_at → started_at) and throughput of the image tasks created since `since`. */
async function taskTimes(target: Target, since: Date): Promise<TaskTimes> {
  const database = await openBenchDatabase(target);
  try {
    const { rows } = await database.executeSql(
      `SELECT extract(epoch FROM started_at - created_at) * 1000 AS pickup_ms, status,
              extract(epoch FROM created_at) * 1000 AS created_ms, extract(epoch FROM finished_at) * 1000 AS finished_ms
         FROM tasks WHERE kind = 'generate.image' AND created_at >= $1`,
      [since.toISOString()],
    );
    const done = rows.filter((r) => r.status === 'completed');
    // Milliseconds from SQL: a Date turned into a string would keep whole seconds only.
    const first = Math.min(...rows.map((r) => Number(r.created_ms)));
    const last = Math.max(...done.map((r) => Number(r.finished_ms)));
    return {
      pickupMs: rows.map((r) => Number(r.pickup_ms)),
      perSecond: done.length / ((last - first) / 1000),
      failed: rows.length - done.length,
    };
  } finally {
    await database.close();
  }
}

function latencyRow(name: string, times: TaskTimes, count: number): BenchRow {
  if (times.failed > 0 || times.pickupMs.length !== count) {
    throw new Error(`${name}: ${times.pickupMs.length} of ${count} tasks recorded, ${times.failed} not completed`);
  }
  const p95 = percentile(times.pickupMs, 95);
  return {
    name,
    ours: `p50 ${ms(percentile(times.pickupMs, 50))} / p95 ${ms(p95)}`,
    baseline: '',
    budget: `p95 < ${PICKUP_P95_BUDGET_MS} ms`,
    pass: p95 < PICKUP_P95_BUDGET_MS,
  };
}

async function embedded(): Promise<BenchRow> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-tasks-'));
  let api: Child | null = null;
  try {
    await seedCredits({ dataDir }, LATENCY_TASKS * IMAGE_PRICE);
    api = await startApi({ dataDir });
    const token = await logIn(api.baseUrl);
    const since = new Date(Date.now() - 1000);
    await submitInTurn(api.baseUrl, token, LATENCY_TASKS, SUBMITTERS);
    await api.stop();
    api = null;
    const times = await taskTimes({ dataDir }, since);
    return latencyRow(
      `submit-to-start, ${LATENCY_TASKS} tasks, workers in the API process (PGlite)`,
      times,
      LATENCY_TASKS,
    );
  } finally {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function separateWorkers(serverUrl: string): Promise<BenchRow[]> {
  const database = await createBenchDatabase(serverUrl, 'tasks');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-tasks-'));
  const target = { dataDir, databaseUrl: database.url };
  const children: Child[] = [];
  const rows: BenchRow[] = [];
  try {
    await seedCredits(target, (SEPARATE_WORKER_TASKS + 3 * THROUGHPUT_TASKS) * IMAGE_PRICE);
    const api = await startApi({ ...target, runWorkers: false });
    children.push(api);
    const token = await logIn(api.baseUrl);
    children.push(await startWorker(target));

    let since = new Date(Date.now() - 1000);
    await submitInTurn(api.baseUrl, token, SEPARATE_WORKER_TASKS, SUBMITTERS);
    rows.push(
      latencyRow(
        `submit-to-start, ${SEPARATE_WORKER_TASKS} tasks, 1 \`npm run worker\` process (PostgreSQL)`,
        await taskTimes(target, since),
        SEPARATE_WORKER_TASKS,
      ),
    );

    let single = 0;
    for (const workers of [1, 2, 4]) {
      while (children.length - 1 < workers) children.push(await startWorker(target));
      since = new Date();
      await Promise.all(Array.from({ length: THROUGHPUT_TASKS }, () => generate(api.baseUrl, token)));
      const times = await taskTimes(target, since);
      if (times.failed > 0) throw new Error(`${times.failed} tasks did not complete with ${workers} workers`);
      if (workers === 1) single = times.perSecond;
      rows.push({
        name: `throughput, ${THROUGHPUT_TASKS} tasks at once, ${workers} worker process${workers > 1 ? 'es' : ''} (PostgreSQL)`,
        ours: `${times.perSecond.toFixed(1)} tasks/s`,
        baseline: workers === 1 ? '' : `${single.toFixed(1)} tasks/s (1 worker)`,
        ...(workers === 1 ? {} : { ratio: times.perSecond / single }),
      });
    }
  } finally {
    for (const child of children.reverse()) await child.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return rows;
}

export async function runTasksBench(): Promise<BenchSection> {
  const rows: BenchRow[] = [await embedded()];
  const postgres = await findPostgres();
  if ('skipped' in postgres) {
    rows.push({
      name: 'separate `npm run worker` processes',
      ours: `skipped: ${postgres.skipped}; PGlite cannot be shared across processes`,
      baseline: '',
    });
  } else {
    rows.push(...(await separateWorkers(postgres.url)));
  }
  return {
    title: 'Tasks',
    method: [
      `kind generate.image: a 128×128 local image per task, submitted with POST /api/ai/generate/image`,
      `latency: ${SUBMITTERS} clients each submitting its next task when the previous one is done (a free worker waits); submit-to-start = tasks.started_at − tasks.created_at`,
      `throughput: ${THROUGHPUT_TASKS} tasks submitted at once; completed tasks ÷ (last finished_at − first created_at); API process with RUN_WORKERS=false, each worker WORKER_CONCURRENCY=2`,
      'PostgreSQL: a fresh database on DATABASE_URL (or 127.0.0.1:5432), dropped after the run; workers share the data directory',
    ],
    rows,
  };
}
