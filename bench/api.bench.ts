// API benchmark: autocannon, 50 connections, against the authenticated asset list (10 000 assets seeded) and
// /api/auth/me, on PGlite and on PostgreSQL, beside a bare Fastify route run in its own process.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Child, createBenchDatabase, findPostgres, startApi, startBare } from './processes.ts';
import { type BenchRow, type BenchSection, ms } from './report.ts';
import { logIn, seedAssets } from './seed.ts';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const ASSETS = 10_000;
const LIST_PATH = '/api/ai/assets?limit=35';
const ME_PATH = '/api/auth/me';
const MIN_SHARE_OF_BARE = 0.4;
const P99_BUDGET_MS = 50;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, timeout: 30 });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts out of ${result.requests.total}`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Load> {
  await load(url, headers, WARMUP_SECONDS);
  return load(url, headers, DURATION_SECONDS);
}

async function assertListed(baseUrl: string, token: string): Promise<void> {
  const res = await fetch(`${baseUrl}${LIST_PATH}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data?: unknown[]; pagination?: { total?: number } };
  if (res.status !== 200 || body.data?.length !== 35 || body.pagination?.total !== ASSETS) {
    throw new Error(
      `the list call answered ${res.status} with ${body.data?.length} assets of ${body.pagination?.total}`,
    );
  }
}

const rps = (l: Load) => `${Math.round(l.rps)} req/s`;
const latency = (l: Load) => `${ms(l.p50)} / ${ms(l.p99)}`;

async function benchDatabase(label: string, bare: Child, databaseUrl: string | undefined): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-api-'));
  let api: Child | null = null;
  try {
    await seedAssets({ dataDir, databaseUrl }, ASSETS);
    api = await startApi({ dataDir, databaseUrl });
    const token = await logIn(api.baseUrl);
    await assertListed(api.baseUrl, token);
    const auth = { authorization: `Bearer ${token}` };
    const baseline = await measure(`${bare.baseUrl}/bare`);
    const list = await measure(`${api.baseUrl}${LIST_PATH}`, auth);
    const me = await measure(`${api.baseUrl}${ME_PATH}`, auth);
    const onPglite = label === 'PGlite';
    const rows: BenchRow[] = [];
    for (const [target, figures, budgeted] of [
      [`GET ${LIST_PATH}`, list, true],
      [`GET ${ME_PATH}`, me, false],
    ] as const) {
      const share = figures.rps / baseline.rps;
      rows.push({
        name: `${target} (${label}) throughput`,
        ours: rps(figures),
        baseline: `${rps(baseline)} (GET /bare)`,
        ratio: share,
        ...(budgeted ? { budget: `≥ ${MIN_SHARE_OF_BARE.toFixed(2)}×`, pass: share >= MIN_SHARE_OF_BARE } : {}),
      });
      rows.push({
        name: `${target} (${label}) p50 / p99`,
        ours: latency(figures),
        baseline: latency(baseline),
        ...(onPglite ? { budget: `p99 < ${P99_BUDGET_MS} ms`, pass: figures.p99 < P99_BUDGET_MS } : {}),
      });
    }
    return rows;
  } finally {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runApiBench(): Promise<BenchSection> {
  const bare = await startBare();
  const rows: BenchRow[] = [];
  try {
    rows.push(...(await benchDatabase('PGlite', bare, undefined)));
    const postgres = await findPostgres();
    if ('skipped' in postgres) {
      rows.push({ name: 'PostgreSQL', ours: `skipped: ${postgres.skipped}`, baseline: '' });
    } else {
      const database = await createBenchDatabase(postgres.url, 'api');
      try {
        rows.push(...(await benchDatabase('PostgreSQL', bare, database.url)));
      } finally {
        await database.drop();
      }
    }
  } finally {
    await bare.stop();
  }
  return {
    title: 'API',
    method: [
      `autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${DURATION_SECONDS} s per target, from the bench process`,
      `${ASSETS.toLocaleString('en')} image assets seeded for the signed-in user; bearer token from POST /api/auth/login`,
      'studio as `npm start` runs it (NODE_ENV=production, LOG_LEVEL=warn, embedded workers on) in a child process',
      'baseline: GET /bare on the same Fastify version in its own child process, measured just before each database',
      'PostgreSQL: a fresh database on DATABASE_URL (or 127.0.0.1:5432), dropped after the run',
      'every response must be 2xx within 30 s (the run fails otherwise)',
    ],
    rows,
  };
}
