import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findHaproxy } from '../../../scripts/haproxy.ts';
import { freePort } from '../../../scripts/studio-process.ts';
import { ensureWebBuilt } from '../../../scripts/web-build.ts';
import type { Database } from '../../db/client.ts';
import {
  postgresTarget,
  type StudioRun,
  startStudioProcess,
  startWorkerProcess,
  type Target,
} from '../reliability/crash-studio.ts';
import { TEST_LOG_DIR } from '../security/log-secrets.ts';
import { type Balancer, startBalancer } from './balancer.ts';

// The cluster of docs/deploy.md on one machine: two API processes (RUN_WORKERS=false) and two `npm run worker`
// processes on one fresh PostgreSQL database and one S3 server, behind HAProxy. Every process has its own DATA_DIR,
// as on separate machines; APP_SECRET and MEDIA_URL_SECRET are left unset, as an operator may leave them.

/** Small limits, so that the test can reach them; the auth limit is the one the issue measured (per minute). */
export const CLUSTER_LIMITS = {
  RATE_LIMIT_AUTH_PER_MINUTE: 10,
  RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE: 5,
  RATE_LIMIT_TEXT_AGENTS_PER_MINUTE: 5,
  RATE_LIMIT_UPLOADS_PER_MINUTE: 30,
} as const;

const BUCKET = 'genpro-cluster';
/** Opens /metrics on each API process's own port (the test reads its open event streams there). */
export const METRICS_TOKEN = 'cluster-metrics-token-0123456789';
/** Four processes start at once on two cores (the first one migrating): slow on a busy machine. */
const START_TIMEOUT_MS = 240_000;

/** One process of the cluster that the test can kill and start again (same port, same DATA_DIR). */
export interface Member {
  name: string;
  /** The API process's own address (not through the balancer); empty for a worker. */
  url: string;
  /** The running process; throws when it is not running. */
  readonly run: StudioRun;
  readonly running: boolean;
  /** SIGKILL: no drain, no clean-up. */
  kill(): Promise<void>;
  /** SIGTERM: the process drains and exits by itself; resolves with its exit code. */
  stop(): Promise<number | null>;
  start(): Promise<void>;
}

interface S3Server {
  endpoint: string;
  /** SIGKILL: the port refuses connections until start(). */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same objects. */
  start(): Promise<void>;
}

export interface Cluster {
  /** The balancer's address: every process's PUBLIC_URL. */
  url: string;
  balancer: Balancer;
  apis: [Member, Member];
  workers: [Member, Member];
  s3: S3Server;
  /** The shared database, for the checks a user cannot make (ledger rows, sandbox posts). */
  database: Database;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startS3(dir: string, port: number, logFile: string): Promise<S3Server> {
  let child: ChildProcess | null = null;
  const start = async () => {
    const log = createWriteStream(logFile, { flags: 'a' });
    let output = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 's3-server.ts')], {
      env: { ...process.env, S3_SERVER_PORT: String(port), S3_SERVER_DIR: dir, S3_SERVER_BUCKET: BUCKET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const keep = (chunk: Buffer) => {
      output += chunk;
      log.write(chunk);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    proc.once('exit', () => log.end());
    const deadline = Date.now() + 60_000;
    while (!output.includes('s3 ready')) {
      if (proc.exitCode !== null) throw new Error(`the S3 server exited with ${proc.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the S3 server did not start in 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await start();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    kill: async () => {
      const proc = child;
      if (!proc) return;
      proc.kill('SIGKILL');
      await exited(proc);
      child = null;
    },
    start,
  };
}

function member(name: string, url: string, launch: () => Promise<StudioRun>): Member {
  let current: StudioRun | null = null;
  let alive = false;
  const start = async () => {
    current = await launch();
    alive = true;
  };
  return {
    name,
    url,
    get run() {
      if (!current) throw new Error(`${name} is not running`);
      return current;
    },
    get running() {
      return alive;
    },
    kill: async () => {
      alive = false;
      await current?.kill();
    },
    stop: async () => {
      alive = false;
      const run = current;
      if (!run) return null;
      run.signal('SIGTERM');
      return run.exited();
    },
    start,
  };
}

/**
 * Starts the whole cluster on a fresh, empty database of the PostgreSQL server at `adminUrl`: all four processes at
 * once, as an orchestrator would, so their start-ups race for the migrations, the job queue's schema, the generated
 * secrets and the demo seed (the start-up advisory lock makes one do each, the others wait for it).
 */
export async function startCluster(adminUrl: string): Promise<Cluster> {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error('The cluster test needs HAProxy: apt-get install -y haproxy (or set HAPROXY_PATH).');
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  // The API processes serve the web app if it is built when they start (the browser step uses it).
  await ensureWebBuilt();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'genpro-cluster-'));
  const logFile = (name: string) => path.join(TEST_LOG_DIR, `cluster-${name}.log`);
  const cleanups: Array<() => Promise<void>> = [async () => rm(tmp, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };

  try {
    const [port, statsPort, s3Port, portA, portB] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const url = `http://127.0.0.1:${port}`;

    const target: Target = await postgresTarget(adminUrl, 'genpro_cluster');
    cleanups.push(() => target.dispose());
    const databaseUrl = target.databaseUrl as string;

    await mkdir(path.join(tmp, 's3'));
    const s3 = await startS3(path.join(tmp, 's3'), s3Port, logFile('s3'));
    cleanups.push(() => s3.kill());

    // What every process shares: the database, the bucket, the public address (the balancer's) and the limits.
    const shared: Record<string, string> = {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      PUBLIC_URL: url,
      TRUST_PROXY: '127.0.0.1',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'info',
      DATABASE_POOL_MAX: '5',
      SOCIAL_SCHEDULER_INTERVAL_SECONDS: '2',
      SHUTDOWN_GRACE_SECONDS: '5',
      METRICS_TOKEN,
      WORKER_SHUTDOWN_GRACE_S: '5',
      ...Object.fromEntries(Object.entries(CLUSTER_LIMITS).map(([k, v]) => [k, String(v)])),
    };
    // Unset on purpose, whatever the shell running the test has (the processes inherit this environment): the
    // cluster must agree on its secrets by itself.
    delete process.env.APP_SECRET;
    delete process.env.MEDIA_URL_SECRET;

    const api = (name: string, apiPort: number) =>
      member(name, `http://127.0.0.1:${apiPort}`, () =>
        startStudioProcess({
          dataDir: path.join(tmp, name),
          port: apiPort,
          databaseUrl,
          env: { ...shared, RUN_WORKERS: 'false' },
          logFile: logFile(name),
          readyPath: '/readyz',
          startTimeoutMs: START_TIMEOUT_MS,
        }),
      );
    const worker = (name: string) =>
      member(name, '', async () =>
        startWorkerProcess({
          dataDir: path.join(tmp, name),
          port: await freePort(),
          databaseUrl,
          env: shared,
          logFile: logFile(name),
          startTimeoutMs: START_TIMEOUT_MS,
        }),
      );
    const apis: [Member, Member] = [api('api_a', portA), api('api_b', portB)];
    const workers: [Member, Member] = [worker('worker_1'), worker('worker_2')];
    for (const m of [...apis, ...workers]) cleanups.push(() => m.kill());

    await Promise.all([...apis, ...workers].map((m) => m.start()));

    const balancer = await startBalancer({
      binary: haproxy,
      dir: tmp,
      port,
      statsPort,
      backends: apis.map((a) => ({ name: a.name, port: Number(new URL(a.url).port) })),
      logFile: logFile('haproxy'),
    });
    cleanups.push(() => balancer.stop());
    await balancer.waitFor(
      'UP',
      apis.map((a) => a.name),
    );

    const database = await target.open();
    cleanups.push(() => database.close());
    return { url, balancer, apis, workers, s3, database, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
