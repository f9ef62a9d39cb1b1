import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { creditTransactions, tasks } from '../../db/schema/index.ts';
import { createTestUser, creditsOf, eventually, startOtherProcessBoss } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { grantWelcomeCredits } from '../credits/ledger.ts';
import { AppError } from '../errors.ts';
import { JobQueue } from './queue.ts';
import { taskQueueName } from './schema.ts';
import { defineTask, PermanentTaskError, type ScheduledJob, type TaskRow } from './types.ts';

const input = z.object({ n: z.number().optional() });

async function taskRow(t: TestApp, id: string): Promise<TaskRow> {
  const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, id));
  return row;
}

function waitForStatus(t: TestApp, id: string, status: TaskRow['status'], timeoutMs = 20_000): Promise<TaskRow> {
  return eventually(
    async () => {
      const row = await taskRow(t, id);
      return row.status === status ? row : undefined;
    },
    { timeoutMs, what: `task ${id} to be ${status}` },
  );
}

/** A queue with workers on the app's database, as another process has (or a second one of this process). */
async function startWorker(
  t: TestApp,
  options: { maintenanceIntervalSeconds?: number; pollingIntervalSeconds?: number } = {},
): Promise<JobQueue> {
  const worker = new JobQueue({
    database: t.ctx.database,
    log: t.ctx.log,
    clock: t.ctx.clock,
    concurrency: 1,
    ...options,
  });
  const ctx: AppContext = { ...t.ctx, config: { ...t.ctx.config, RUN_WORKERS: true }, jobs: worker };
  worker.attach(ctx);
  return worker;
}

/** A queue of this process whose workers poll, and pass pg-boss maintenance, only hourly. */
const hourlyQueue = (t: TestApp) => startWorker(t, { pollingIntervalSeconds: 3600, maintenanceIntervalSeconds: 3600 });

describe('job queue with workers in the API process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.ctx.jobs.register(defineTask({ kind: 'test.quick', input, handler: async () => ({ ok: true }) }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('retries a failing task when its delay runs out, then fails it, stores the error and refunds its credits', async () => {
    const user = await createTestUser(t.ctx.db);
    await grantWelcomeCredits(t.ctx.db, user.id);
    const attempts: number[] = [];
    const startedAt: number[] = [];
    // Its worker would poll (and pass maintenance) only hourly: within the wait below, only the wake-up at the
    // end of the retry delay can start the second attempt.
    const queue = await hourlyQueue(t);
    await queue.register(
      defineTask({
        kind: 'test.always-fails',
        input,
        retryLimit: 1,
        retryDelaySeconds: 1,
        async handler({ attempt }) {
          attempts.push(attempt);
          startedAt.push(Date.now());
          throw new AppError(503, 'engine_unavailable', 'The engine is unavailable');
        },
      }),
    );
    await queue.start();
    onTestFinished(() => queue.stop());
    const task = await queue.createTask({
      userId: user.id,
      kind: 'test.always-fails',
      input: {},
      credits: 41,
      generationType: 'image',
      description: 'Dream image',
    });
    expect(task.status).toBe('queued');
    expect(await creditsOf(t.ctx.db, user.id)).toBe(159);

    // Between attempts the task is queued again with the error recorded.
    const between = await eventually(
      async () => {
        const row = await taskRow(t, task.id);
        return row.status === 'queued' && row.attempts === 1 && row.error ? row : undefined;
      },
      { intervalMs: 20, what: 'the first failure' },
    );
    expect(between.error).toEqual({ code: 'engine_unavailable', message: 'The engine is unavailable' });

    const failed = await waitForStatus(t, task.id, 'failed');
    expect(attempts).toEqual([1, 2]);
    // The retry waited out its delay (and was woken then: its worker polls hourly).
    expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(1000);
    expect(failed.attempts).toBe(2);
    expect(failed.error).toEqual({ code: 'engine_unavailable', message: 'The engine is unavailable' });
    expect(failed.finishedAt).not.toBeNull();
    expect(await creditsOf(t.ctx.db, user.id)).toBe(200);
    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.taskId, task.id));
    expect(ledger.map((r) => [r.type, r.source, r.amount])).toEqual(
      expect.arrayContaining([
        ['deduction', 'generation', 41],
        ['addition', 'refund', 41],
      ]),
    );
    expect(ledger.find((r) => r.source === 'refund')).toMatchObject({ balanceAfter: 200, generationType: 'image' });
  });

  it('fails a permanent error at once without retrying', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 10 });
    let calls = 0;
    await t.ctx.jobs.register(
      defineTask({
        kind: 'test.permanent',
        input,
        retryLimit: 3,
        async handler() {
          calls++;
          throw new PermanentTaskError('bad_prompt', 'The prompt cannot be used');
        },
      }),
    );
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: 'test.permanent', input: {}, credits: 10 });
    const failed = await waitForStatus(t, task.id, 'failed');
    expect(failed.error).toEqual({ code: 'bad_prompt', message: 'The prompt cannot be used' });
    expect(failed.attempts).toBe(1);
    expect(calls).toBe(1);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(10);
  });

  it('writes progress into the row, then the result', async () => {
    const user = await createTestUser(t.ctx.db);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await t.ctx.jobs.register(
      defineTask({
        kind: 'test.progress',
        input,
        async handler({ report, input: i }) {
          await report({ progress: 40, estimatedSecondsLeft: 12 });
          await gate;
          return { doubled: (i.n ?? 0) * 2 };
        },
      }),
    );
    const task = await t.ctx.jobs.createTask({
      userId: user.id,
      kind: 'test.progress',
      input: { n: 21 },
      estimatedSeconds: 30,
    });
    expect(task.estimatedSecondsLeft).toBe(30);
    const running = await eventually(
      async () => {
        const row = await taskRow(t, task.id);
        return row.progress === 40 ? row : undefined;
      },
      { what: 'progress 40' },
    );
    expect(running).toMatchObject({ status: 'processing', estimatedSecondsLeft: 12, attempts: 1 });
    expect(running.startedAt).not.toBeNull();
    release();
    const done = await waitForStatus(t, task.id, 'completed');
    expect(done).toMatchObject({ progress: 100, estimatedSecondsLeft: 0, result: { doubled: 42 }, error: null });
  });

  // How soon (pick-up p95 < 250 ms) is a budget of `npm run bench -- tasks`; here, that nothing waits for a poll.
  it('wakes its worker for a task it creates (no polling wait)', async () => {
    const user = await createTestUser(t.ctx.db);
    const queue = await hourlyQueue(t);
    await queue.register(defineTask({ kind: 'test.woken', input, handler: async () => ({ woken: true }) }));
    await queue.start();
    onTestFinished(() => queue.stop());
    // Let the worker's first (immediate) poll find nothing: from then on only a wake-up makes it fetch within
    // the hour.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const task = await queue.createTask({ userId: user.id, kind: 'test.woken', input: {} });
    const done = await waitForStatus(t, task.id, 'completed');
    expect(done.result).toEqual({ woken: true });
  });

  it('refuses a task the user cannot pay for (402) and writes nothing', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 5 });
    const error = await t.ctx.jobs
      .createTask({ userId: user.id, kind: 'test.quick', input: {}, credits: 6 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 402 });
    const rows = await t.ctx.db.select().from(tasks).where(eq(tasks.userId, user.id));
    expect(rows).toHaveLength(0);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(5);
  });

  it("answers 404 for another user's task", async () => {
    const owner = await createTestUser(t.ctx.db);
    const other = await createTestUser(t.ctx.db);
    const task = await t.ctx.jobs.createTask({ userId: owner.id, kind: 'test.quick', input: {} });
    expect((await t.ctx.jobs.getTask(owner.id, task.id)).id).toBe(task.id);
    await expect(t.ctx.jobs.getTask(other.id, task.id)).rejects.toMatchObject({ status: 404 });
    await expect(t.ctx.jobs.getTask(owner.id, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
  });

  it('reports healthy', async () => {
    expect(await t.ctx.jobs.health()).toBe(true);
  });

  it('runs an every-n-seconds job at start and again each interval, one run at a time across two processes', async () => {
    let runs = 0;
    let running = 0;
    let mostAtOnce = 0;
    const sweep: ScheduledJob = {
      name: 'test.sweep',
      everySeconds: () => 1,
      async run() {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        // Long enough for a second process's run to overlap this one, were it let through.
        await new Promise((resolve) => setTimeout(resolve, 300));
        running--;
        runs++;
        return {};
      },
    };
    const processQueue = () => {
      const queue = new JobQueue({
        database: t.ctx.database,
        log: t.ctx.log,
        clock: t.ctx.clock,
        kinds: { tasks: [], scheduled: [sweep] },
      });
      queue.attach({ ...t.ctx, config: { ...t.ctx.config, RUN_WORKERS: true }, jobs: queue });
      return queue;
    };
    const first = processQueue();
    const second = processQueue();
    try {
      // Both start at once, each sending the job for its start-up run.
      await Promise.all([first.start(), second.start()]);
      await eventually(async () => runs >= 4, { what: 'four runs of the sweep' });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    expect(mostAtOnce).toBe(1);
  });
});

describe('tasks survive without a running worker', () => {
  let t: TestApp;
  const slow = defineTask({
    kind: 'test.survivor',
    input,
    retryLimit: 1,
    retryDelaySeconds: 0,
    expireInSeconds: 1,
    handler: async () => ({ survived: true }),
  });
  const lastChance = defineTask({
    kind: 'test.last-chance',
    input,
    retryLimit: 0,
    expireInSeconds: 1,
    handler: async () => ({ never: true }),
  });
  beforeAll(async () => {
    t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
    await t.ctx.jobs.register(slow);
    await t.ctx.jobs.register(lastChance);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a task created with workers off completes once a worker starts', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: slow.kind, input: {} });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await taskRow(t, task.id)).status).toBe('queued');

    const worker = await startWorker(t);
    await worker.register(slow);
    await worker.start();
    try {
      const done = await waitForStatus(t, task.id, 'completed');
      expect(done.result).toEqual({ survived: true });
    } finally {
      await worker.stop();
    }
  });

  it('a job whose worker died mid-task expires and is retried by another worker', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: slow.kind, input: {} });
    // A worker takes the job and dies: the job stays active in pg-boss, nobody completes it.
    const dead = await startOtherProcessBoss(t.ctx.database);
    const [taken] = await dead.fetch(taskQueueName(slow.kind));
    expect(taken?.id).toBe(task.id);
    await dead.stop({ graceful: false, close: false });

    const worker = await startWorker(t, { maintenanceIntervalSeconds: 1 });
    await worker.register(slow);
    await worker.start();
    try {
      const done = await waitForStatus(t, task.id, 'completed', 25_000);
      expect(done.result).toEqual({ survived: true });
    } finally {
      await worker.stop();
    }
  });

  it('when the last attempt dies, recovery fails the task and refunds it', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 30 });
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: lastChance.kind, input: {}, credits: 30 });
    const dead = await startOtherProcessBoss(t.ctx.database);
    const [taken] = await dead.fetch(taskQueueName(lastChance.kind));
    expect(taken?.id).toBe(task.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await dead.expire();
    await dead.stop({ graceful: false, close: false });

    const worker = await startWorker(t);
    await worker.start();
    try {
      const failed = await waitForStatus(t, task.id, 'failed');
      expect(failed.error?.code).toBe('interrupted');
      expect(await creditsOf(t.ctx.db, user.id)).toBe(30);
    } finally {
      await worker.stop();
    }
  });

  it('recovery re-sends a task whose job never reached the queue', async () => {
    const user = await createTestUser(t.ctx.db);
    const [orphan] = await t.ctx.db
      .insert(tasks)
      .values({ userId: user.id, kind: slow.kind, input: {}, createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    const worker = await startWorker(t);
    await worker.register(slow);
    await worker.start();
    try {
      const done = await waitForStatus(t, orphan.id, 'completed');
      expect(done.result).toEqual({ survived: true });
    } finally {
      await worker.stop();
    }
  });
});
