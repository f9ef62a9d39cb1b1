import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { tasks } from '../../db/schema/index.ts';
import { createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { AppError } from '../errors.ts';
import { JobQueue } from './queue.ts';
import { defineTask, type TaskRow } from './types.ts';
import { TaskWaiter } from './wait.ts';

const HOUR_MS = 3_600_000;

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
const idle = defineTask({ kind: 'test.waited', input: z.object({}), handler: async () => ({ ok: true }) });

/** A waiter on the app's database that records every read of the task row it makes. */
function countingWaiter(t: TestApp, options: { safetyReadMs?: number; notifications?: boolean } = {}) {
  const reads: TaskRow[] = [];
  const readHooks: Array<{ count: number; resolve: () => void }> = [];
  const waiter = new TaskWaiter({
    database: options.notifications === false ? {} : t.ctx.database,
    log: t.ctx.log,
    safetyReadMs: options.safetyReadMs ?? HOUR_MS,
    read: async (userId, taskId) => {
      const row = await t.ctx.jobs.getTask(userId, taskId);
      reads.push(row);
      for (const hook of readHooks.filter((h) => reads.length >= h.count)) {
        readHooks.splice(readHooks.indexOf(hook), 1);
        hook.resolve();
      }
      return row;
    },
  });
  onTestFinished(() => waiter.close());
  return {
    waiter,
    reads,
    /** Resolves once the waiter has read the row `count` times. */
    readsReached: (count: number) =>
      reads.length >= count ? Promise.resolve() : new Promise<void>((resolve) => readHooks.push({ count, resolve })),
  };
}

/**
 * Changes the task row as a worker elsewhere would: on PostgreSQL over a connection of its own (not the
 * app's pool, not its listening connection); PGlite has one session only.
 */
async function changeTask(t: TestApp, id: string, set: { status: TaskRow['status']; progress: number }) {
  const result = set.status === 'completed' ? { ok: true } : null;
  if (t.ctx.database.kind === 'postgres') {
    const { connectionString } = t.ctx.database.pgPool?.options ?? {};
    const other = new pg.Client({ connectionString });
    await other.connect();
    try {
      await other.query('UPDATE tasks SET status = $2, progress = $3, result = $4, updated_at = now() WHERE id = $1', [
        id,
        set.status,
        set.progress,
        result,
      ]);
    } finally {
      await other.end();
    }
    return;
  }
  await t.ctx.db
    .update(tasks)
    .set({ ...set, result, updatedAt: new Date() })
    .where(eq(tasks.id, id));
}

/** A queued task nobody works on (the app runs no workers), its creation's notification already delivered. */
async function queuedTask(t: TestApp, userId: string): Promise<TaskRow> {
  const task = await t.ctx.jobs.createTask({ userId, kind: idle.kind, input: {} });
  await t.ctx.database.barrier?.().catch(() => undefined);
  return task;
}

describe('waiting for a task (woken by its change notifications)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
    await t.ctx.jobs.register(idle);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads the row once on subscribing and once per change, and resolves when another connection completes it', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await queuedTask(t, user.id);
    // Its safety re-read would come only after an hour: every read after the first is woken by a notification.
    const { waiter, reads, readsReached } = countingWaiter(t);
    const waiting = waiter.waitFor(user.id, task.id, HOUR_MS);

    await readsReached(1);
    expect(reads.map((r) => r.status)).toEqual(['queued']);
    await changeTask(t, task.id, { status: 'processing', progress: 40 });
    await readsReached(2);
    expect(reads[1]).toMatchObject({ status: 'processing', progress: 40 });
    await changeTask(t, task.id, { status: 'completed', progress: 100 });

    const done = await waiting;
    expect(done).toMatchObject({ id: task.id, status: 'completed', result: { ok: true } });
    expect(reads.map((r) => r.status)).toEqual(['queued', 'processing', 'completed']);
  });

  it('a task finished before the wait began is answered from the first read', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await queuedTask(t, user.id);
    await changeTask(t, task.id, { status: 'completed', progress: 100 });
    const { waiter, reads } = countingWaiter(t);
    expect((await waiter.waitFor(user.id, task.id, HOUR_MS)).status).toBe('completed');
    expect(reads).toHaveLength(1);
  });

  it('when the time is up it answers the task as it stands, read once on subscribing and once at the end', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await queuedTask(t, user.id);
    const { waiter, reads } = countingWaiter(t);
    const row = await waiter.waitFor(user.id, task.id, 300);
    expect(row).toMatchObject({ id: task.id, status: 'queued' });
    expect(reads).toHaveLength(2);
  });

  it("another user's task answers 404, as an unknown id does", async () => {
    const owner = await createTestUser(t.ctx.db);
    const other = await createTestUser(t.ctx.db);
    const task = await queuedTask(t, owner.id);
    const { waiter } = countingWaiter(t);
    for (const attempt of [
      waiter.waitFor(other.id, task.id, HOUR_MS),
      waiter.waitFor(owner.id, crypto.randomUUID(), HOUR_MS),
    ]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 404 });
    }
  });

  it('without notifications (a database that cannot LISTEN) the safety re-read still sees the task finish', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await queuedTask(t, user.id);
    const { waiter, readsReached } = countingWaiter(t, { notifications: false, safetyReadMs: 20 });
    const waiting = waiter.waitFor(user.id, task.id, HOUR_MS);
    await readsReached(2);
    await changeTask(t, task.id, { status: 'completed', progress: 100 });
    expect((await waiting).status).toBe('completed');
  });

  it('ctx.jobs.waitFor resolves with the result when a worker of another queue finishes the task', async () => {
    const gate = signal();
    const running = signal();
    const gated = defineTask({
      kind: 'test.waited-gated',
      input: z.object({}),
      async handler() {
        running.resolve();
        await gate.promise;
        return { made: 'by the worker' };
      },
    });
    const worker = new JobQueue({ database: t.ctx.database, log: t.ctx.log, clock: t.ctx.clock, concurrency: 1 });
    const workerCtx: AppContext = { ...t.ctx, config: { ...t.ctx.config, RUN_WORKERS: true }, jobs: worker };
    worker.attach(workerCtx);
    await worker.register(gated);
    await worker.start();
    onTestFinished(() => worker.stop());

    const user = await createTestUser(t.ctx.db);
    const task = await worker.createTask({ userId: user.id, kind: gated.kind, input: {} });
    // The app's own queue waits; the other queue's worker does the work.
    const waiting = t.ctx.jobs.waitFor(user.id, task.id, HOUR_MS);
    await running.promise;
    gate.resolve();
    expect(await waiting).toMatchObject({ id: task.id, status: 'completed', result: { made: 'by the worker' } });
  });
});
