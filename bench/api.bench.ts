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
/** Seconds of each run; every round runs the bare route, the list and /api/auth/me back to back. */
const DURATION_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 5);
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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

interface Target {
  url: string;
  headers: Record<string, string>;
}

/**
 * Warms each target up, then runs ROUNDS rounds of every target back to back. A machine's speed drifts
 * (other tenants, CPU boost), so each ratio compares runs of the same round and the median round counts.
 */
async function measureRounds(targets: Target[]): Promise<Load[][]> {
  for (const target of targets) await load(target.url, target.headers, WARMUP_SECONDS);
  const rounds: Load[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const runs: Load[] = [];
    for (const target of targets) runs.push(await load(target.url, target.headers, DURATION_SECONDS));
    rounds.push(runs);
  }
  return rounds;
}

/** The median round's throughput, the median p50 and the worst p99 of the runs of one target. */
function summarize(runs: Load[]): Load {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
  };
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
    const rounds = await measureRounds([
      { url: `${bare.baseUrl}/bare`, headers: {} },
      { url: `${api.baseUrl}${LIST_PATH}`, headers: auth },
      { url: `${api.baseUrl}${ME_PATH}`, headers: auth },
    ]);
    const baseline = summarize(rounds.map(([bareRun]) => bareRun));
    const onPglite = label === 'PGlite';
    const rows: BenchRow[] = [];
    for (const [target, column, budgeted] of [
      [`GET ${LIST_PATH}`, 1, true],
      [`GET ${ME_PATH}`, 2, false],
    ] as const) {
      const figures = summarize(rounds.map((runs) => runs[column]));
      const shares = rounds.map((runs) => runs[column].rps / runs[0].rps);
      const share = median(shares);
      rows.push({
        name: `${target} (${label}) throughput`,
        ours: `${rps(figures)} (rounds ${shares.map((x) => `${x.toFixed(2)}×`).join(' ')})`,
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
      `autocannon, ${CONNECTIONS} connections, from the bench process: ${WARMUP_SECONDS} s warm-up per target, then ${ROUNDS} rounds of ${DURATION_SECONDS} s runs of the bare route, the list and /me back to back`,
      'throughput: the median round; ratio: the median of the rounds’ ratios (each against the bare run of its round); p50: median; p99: worst round',
      `${ASSETS.toLocaleString('en')} image assets seeded for the signed-in user; bearer token from POST /api/auth/login`,
      'studio as `npm start` runs it (demo mode, LOG_LEVEL=warn, embedded workers on) in a child process',
      'baseline: GET /bare on the same Fastify version in its own child process',
      'PostgreSQL: a fresh database on DATABASE_URL (or 127.0.0.1:5432), dropped after the run',
      'every response must be 2xx within 30 s (the run fails otherwise)',
    ],
    rows,
  };
}
