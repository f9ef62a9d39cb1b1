import os from 'node:os';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AppContext, createLogger } from '../../context.ts';
import { creditTransactions, tasks } from '../../db/schema/index.ts';
import { createTestUser, creditsOf, eventually, startOtherProcessBoss } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import type { ProcessRole } from './heartbeat.ts';
import { JobQueue } from './queue.ts';
import { taskQueueName } from './schema.ts';
import { defineTask, type TaskRow } from './types.ts';

// Worker processes as the cluster sees them: each beats a worker_heartbeats row, its attempts carry its id, a
// process that stops beating has its running tasks taken over by another worker, and a worker that is stopped
// (SIGTERM) finishes its running tasks within WORKER_SHUTDOWN_GRACE_S or gives them back to the queue.

/** Releases of attempts waiting in the `gated` handler, by task id (one per attempt). */
const gates = new Map<string, Array<() => void>>();
function release(taskId: string): void {
  for (const open of gates.get(taskId) ?? []) open();
}

/** Waits until released, ignoring its abort signal (like a render that cannot be interrupted). */
const gated = defineTask({
  kind: 'test.workers-gated',
  input: z.object({}),
  retryLimit: 0,
  expireInSeconds: 900,
  async handler({ task, attempt }) {
    await new Promise<void>((resolve) => gates.set(task.id, [...(gates.get(task.id) ?? []), resolve]));
    return { attempt };
  },
});
const quick = defineTask({
  kind: 'test.workers-quick',
  input: z.object({}),
  retryLimit: 1,
  retryDelaySeconds: 0,
  expireInSeconds: 900,
  handler: async ({ attempt }) => ({ attempt }),
});

let t: TestApp;
const workers: JobQueue[] = [];

beforeAll(async () => {
  // The API process runs no workers: every worker here is a JobQueue of its own, as another process would run.
  t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
  await t.ctx.jobs.register(gated);
  await t.ctx.jobs.register(quick);
});
afterEach(async () => {
  // Each test starts with no worker running.
  for (const taskId of gates.keys()) release(taskId);
  for (const worker of workers.splice(0)) await worker.stop();
});
afterAll(async () => {
  await t?.close();
});

function memoryLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger('info', stream), lines, find: (msg: string) => lines.find((line) => line.msg === msg) };
}

async function startWorker(
  options: {
    graceSeconds?: number;
    role?: ProcessRole;
    heartbeatIntervalSeconds?: number;
    staleWorkerSeconds?: number;
    log?: AppContext['log'];
  } = {},
): Promise<JobQueue> {
  const log = options.log ?? t.ctx.log;
  const worker = new JobQueue({
    database: t.ctx.database,
    log,
    clock: t.ctx.clock,
    concurrency: 1,
    // The API process here is on the same database object, so its sends wake none of these workers (PGlite has no
    // other process to NOTIFY): they poll instead.
    pollingIntervalSeconds: 1,
    role: options.role,
    heartbeatIntervalSeconds: options.heartbeatIntervalSeconds,
    staleWorkerSeconds: options.staleWorkerSeconds,
  });
  const config = { ...t.ctx.config, RUN_WORKERS: true, WORKER_SHUTDOWN_GRACE_S: options.graceSeconds ?? 10 };
  worker.attach({ ...t.ctx, config, log, jobs: worker });
  await worker.register(gated);
  await worker.register(quick);
  await worker.start();
  workers.push(worker);
  return worker;
}

async function taskRow(id: string): Promise<TaskRow> {
  const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, id));
  if (!row) throw new Error(`no task ${id}`);
  return row;
}

function waitForTask(id: string, ready: (row: TaskRow) => boolean, what: string): Promise<TaskRow> {
  return eventually(
    async () => {
      const row = await taskRow(id);
      return ready(row) ? row : undefined;
    },
    { timeoutMs: 30_000, what: `task ${id}: ${what}` },
  );
}

async function heartbeatRow(id: string | null) {
  const { rows } = await t.ctx.database.executeSql('SELECT * FROM worker_heartbeats WHERE id = $1', [id]);
  return rows[0] as
    | {
        role: string;
        hostname: string;
        pid: number;
        running: number;
        stopping: boolean;
        last_beat_at: string | Date;
        last_task_id: string | null;
        last_task_kind: string | null;
        details: Record<string, unknown> | string;
      }
    | undefined;
}

async function jobOf(id: string) {
  const { rows } = await t.ctx.database.executeSql('SELECT state, retry_count FROM pgboss.job WHERE id = $1', [id]);
  return rows[0] as { state: string; retry_count: number } | undefined;
}

async function ledgerOf(taskId: string) {
  const rows = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.taskId, taskId));
  return rows.map((row) => [row.type, row.amount]);
}

describe('heartbeats', () => {
  it('a worker beats its row, its attempts write its id, the row shows its task and goes on a clean stop', {
    timeout: 90_000,
  }, async () => {
    const worker = await startWorker({ role: 'worker', heartbeatIntervalSeconds: 1 });
    const id = worker.workerId;
    expect(id).toMatch(new RegExp(`^${os.hostname()}:${process.pid}:[0-9a-f]{8}$`));
    const first = await heartbeatRow(id);
    expect(first).toMatchObject({ role: 'worker', hostname: os.hostname(), pid: process.pid, running: 0 });
    expect(first?.stopping).toBe(false);
    const details = typeof first?.details === 'string' ? JSON.parse(first.details) : first?.details;
    expect(details).toMatchObject({ concurrency: 1 });
    await eventually(
      async () =>
        new Date((await heartbeatRow(id))?.last_beat_at ?? 0).getTime() > new Date(first?.last_beat_at ?? 0).getTime(),
      { what: 'a second beat' },
    );

    const user = await createTestUser(t.ctx.db);
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: gated.kind, input: {} });
    const running = await waitForTask(task.id, (row) => row.status === 'processing', 'processing');
    expect(running.workerId).toBe(id);
    await eventually(
      async () => {
        const row = await heartbeatRow(id);
        return row?.running === 1 && row.last_task_id === task.id && row.last_task_kind === gated.kind;
      },
      { what: 'the running task in the heartbeat' },
    );
    release(task.id);
    await waitForTask(task.id, (row) => row.status === 'completed', 'completed');

    await worker.stop();
    expect(await heartbeatRow(id)).toBeUndefined();
  });
});

describe('stopping a worker (SIGTERM)', () => {
  it('within the grace: fetches nothing new, lets the running task finish once, then removes its row', {
    timeout: 90_000,
  }, async () => {
    const { log, find } = memoryLog();
    const worker = await startWorker({ graceSeconds: 60, log });
    const user = await createTestUser(t.ctx.db, { credits: 30 });
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: gated.kind, input: {}, credits: 10 });
    await waitForTask(task.id, (row) => row.status === 'processing', 'processing');

    const stopped = worker.stop();
    await eventually(async () => (await heartbeatRow(worker.workerId))?.stopping === true, {
      what: 'the heartbeat marked stopping',
    });
    expect(find('worker stopping: finishing 1 running tasks (grace 60s)')).toBeDefined();
    // Created while the worker drains: left for another worker.
    const next = await t.ctx.jobs.createTask({ userId: user.id, kind: quick.kind, input: {} });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await taskRow(next.id)).status).toBe('queued');

    release(task.id);
    await stopped;
    const done = await taskRow(task.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 1, result: { attempt: 1 } });
    expect(find('worker stopping: running tasks finished')).toBeDefined();
    expect(find('worker stopping: grace over, giving back 1 running tasks')).toBeUndefined();
    expect(await heartbeatRow(worker.workerId)).toBeUndefined();
    expect(await creditsOf(t.ctx.db, user.id)).toBe(20);
    expect(await ledgerOf(task.id)).toEqual([['deduction', 10]]);

    await startWorker();
    await waitForTask(next.id, (row) => row.status === 'completed', 'completed by the next worker');
  });

  it('grace over: the running task is given back at once (no retry used), another worker completes it, charged once', {
    timeout: 90_000,
  }, async () => {
    const { log, find } = memoryLog();
    const worker = await startWorker({ graceSeconds: 1, log });
    const user = await createTestUser(t.ctx.db, { credits: 30 });
    // No retry left (retryLimit 0): a failed attempt would fail the task, a given-back one does not.
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: gated.kind, input: {}, credits: 10 });
    await waitForTask(task.id, (row) => row.status === 'processing', 'processing');

    await worker.stop();
    expect(find('worker stopping: finishing 1 running tasks (grace 1s)')).toBeDefined();
    expect(find('worker stopping: grace over, giving back 1 running tasks')).toMatchObject({ taskIds: [task.id] });
    expect(await taskRow(task.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await jobOf(task.id)).toEqual({ state: 'created', retry_count: 0 });
    expect(await heartbeatRow(worker.workerId)).toBeUndefined();

    const next = await startWorker();
    await eventually(async () => (gates.get(task.id)?.length ?? 0) >= 2, { what: 'the second attempt' });
    release(task.id);
    const done = await waitForTask(task.id, (row) => row.status === 'completed', 'completed');
    expect(done).toMatchObject({ attempts: 2, workerId: next.workerId, result: { attempt: 2 } });
    // The first attempt, released too, ended in the stopped worker without touching the task.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await taskRow(task.id)).toMatchObject({ status: 'completed', attempts: 2, result: { attempt: 2 } });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(20);
    expect(await ledgerOf(task.id)).toEqual([['deduction', 10]]);
  });
});

describe('taking over the tasks of a worker that stopped beating', () => {
  it('recovery fails them for retry and another worker completes them; a beating worker keeps its own', {
    timeout: 90_000,
  }, async () => {
    const user = await createTestUser(t.ctx.db, { credits: 50 });
    const dead = await t.ctx.jobs.createTask({ userId: user.id, kind: quick.kind, input: {}, credits: 10 });
    const alive = await t.ctx.jobs.createTask({ userId: user.id, kind: quick.kind, input: {}, credits: 10 });
    // Two worker processes took a job each and started its attempt; then one died (SIGKILL): its heartbeat stopped
    // a minute ago and its job's lease was last renewed 5 s ago. The other one beats on.
    const other = await startOtherProcessBoss(t.ctx.database);
    const taken = await other.fetch(taskQueueName(quick.kind), { batchSize: 2 });
    await other.stop({ graceful: false, close: false });
    expect(taken.map((job) => job.id).sort()).toEqual([dead.id, alive.id].sort());
    const deadWorker = 'deadhost:101:0000dead';
    const liveWorker = 'livehost:102:0000beef';
    for (const [taskId, workerId] of [
      [dead.id, deadWorker],
      [alive.id, liveWorker],
    ] as const) {
      await t.ctx.db.update(tasks).set({ status: 'processing', attempts: 1, workerId }).where(eq(tasks.id, taskId));
      await t.ctx.database.executeSql(
        `UPDATE pgboss.job SET started_on = now() - expire_in + interval '25 seconds' WHERE id = $1`,
        [taskId],
      );
    }
    // The live worker's row is dated ahead, standing for a process that beats all along.
    await t.ctx.database.executeSql(
      `INSERT INTO worker_heartbeats (id, role, hostname, pid, started_at, last_beat_at) VALUES
         ($1, 'worker', 'deadhost', 101, now() - interval '1 hour', now() - interval '1 minute'),
         ($2, 'worker', 'livehost', 102, now() - interval '1 hour', now() + interval '1 hour'),
         ('gonehost:103:00000000', 'worker', 'gonehost', 103, now() - interval '3 hours', now() - interval '2 hours')`,
      [deadWorker, liveWorker],
    );

    const { log, find } = memoryLog();
    const worker = await startWorker({ staleWorkerSeconds: 2, heartbeatIntervalSeconds: 1, log });
    const done = await eventually(
      async () => {
        await worker.recover();
        const row = await taskRow(dead.id);
        return row.status === 'completed' ? row : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'the dead worker’s task completed by another' },
    );
    expect(done).toMatchObject({ attempts: 2, workerId: worker.workerId, result: { attempt: 2 } });
    // Taken over because its worker stopped beating, not because its lease ran out (20 s later).
    const takeover = find('tasks of a worker that stopped beating failed for retry');
    expect(takeover?.taskIds).toContain(dead.id);
    expect(takeover?.taskIds).not.toContain(alive.id);
    expect(takeover?.workerIds).toContain(deadWorker);
    expect(await taskRow(alive.id)).toMatchObject({ status: 'processing', attempts: 1, workerId: liveWorker });
    expect((await jobOf(alive.id))?.state).toBe('active');
    // Rows of processes gone for more than an hour are forgotten; the others stay for the admin view.
    expect(await heartbeatRow('gonehost:103:00000000')).toBeUndefined();
    expect(await heartbeatRow(deadWorker)).toBeDefined();

    // The other worker stops beating too: the worker's own beats notice it (no recovery pass called here).
    await t.ctx.database.executeSql(
      `UPDATE worker_heartbeats SET last_beat_at = now() - interval '1 minute' WHERE id = $1`,
      [liveWorker],
    );
    await eventually(async () => (await taskRow(alive.id)).status === 'completed', {
      timeoutMs: 30_000,
      intervalMs: 250,
      what: 'the second task taken over',
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(30);
    expect(await ledgerOf(dead.id)).toEqual([['deduction', 10]]);
    expect(await ledgerOf(alive.id)).toEqual([['deduction', 10]]);
  });
});
