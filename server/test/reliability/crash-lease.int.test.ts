import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tasks } from '../../db/schema/index.ts';
import { taskQueueName } from '../../platform/jobs/schema.ts';
import { defineTask } from '../../platform/jobs/types.ts';
import { createTestUser, eventually, startOtherProcessBoss } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

// The job leases behind crash recovery: a worker that dies is noticed within a lease (~30 s), not within its
// task kind's full expiry (up to 30 min), whether it died mid-attempt or right after fetching the job.

let t: TestApp;
let release: () => void = () => undefined;
const held = defineTask({
  kind: 'test.lease-held',
  input: z.object({}),
  retryLimit: 1,
  retryDelaySeconds: 0,
  expireInSeconds: 900,
  handler: () => new Promise<{ done: true }>((resolve) => (release = () => resolve({ done: true }))),
});
const quick = defineTask({
  kind: 'test.lease-quick',
  input: z.object({}),
  retryLimit: 1,
  retryDelaySeconds: 0,
  expireInSeconds: 900,
  handler: async () => ({ done: true }),
});

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.jobs.register(held);
  await t.ctx.jobs.register(quick);
});
afterAll(async () => {
  release();
  await t?.close();
});

async function jobOf(id: string) {
  const { rows } = await t.ctx.database.executeSql(
    `SELECT state, retry_count, EXTRACT(epoch FROM (started_on + expire_in - now()))::float AS expires_in_seconds,
            EXTRACT(epoch FROM expire_in)::int AS expire_in_seconds
       FROM pgboss.job WHERE id = $1`,
    [id],
  );
  return rows[0] as { state: string; retry_count: number; expires_in_seconds: number; expire_in_seconds: number };
}

async function taskRow(id: string) {
  const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, id));
  return row;
}

describe('job leases', () => {
  it('a running attempt keeps its job expiring within the lease, while its time limit stays the kind’s', async () => {
    const user = await createTestUser(t.ctx.db);
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: held.kind, input: {} });
    const job = await eventually(
      async () => {
        const row = await jobOf(task.id);
        return row?.state === 'active' && row.expires_in_seconds < 60 ? row : undefined;
      },
      { what: 'the lease on the running job' },
    );
    expect(job.expires_in_seconds).toBeGreaterThan(20);
    // The lease is set from the worker's clock and read from the database's: allow a few milliseconds.
    expect(job.expires_in_seconds).toBeLessThanOrEqual(30.5);
    expect(job.expire_in_seconds).toBe(900);
    expect((await taskRow(task.id)).status).toBe('processing');
    release();
    const done = await eventually(async () => {
      const row = await taskRow(task.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done.result).toEqual({ done: true });
  });

  it('a job fetched by a worker that died before starting the attempt is retried after a lease', async () => {
    const user = await createTestUser(t.ctx.db);
    // Another process takes the job and dies before marking the task processing.
    const dead = await startOtherProcessBoss(t.ctx.database);
    const [task] = await t.ctx.db.insert(tasks).values({ userId: user.id, kind: quick.kind, input: {} }).returning();
    const queue = taskQueueName(quick.kind);
    await dead.send(queue, { taskId: task.id }, { id: task.id, retryLimit: 1, retryDelay: 0, expireInSeconds: 900 });
    const [taken] = await dead.fetch(queue);
    await dead.stop({ graceful: false, close: false });
    // The in-process worker polls too; only a job the dead worker holds is the case under test.
    if (taken?.id !== task.id) return expect((await taskRow(task.id)).attempts).toBeGreaterThan(0);

    await t.ctx.jobs.recover();
    expect((await jobOf(task.id)).state).toBe('active');
    // A lease's worth of time passes without the worker taking its lease.
    await t.ctx.database.executeSql(
      `UPDATE pgboss.job SET started_on = started_on - interval '31 seconds' WHERE id = $1`,
      [task.id],
    );
    await t.ctx.jobs.recover();
    const done = await eventually(async () => {
      const row = await taskRow(task.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done).toMatchObject({ attempts: 1, result: { done: true } });
  });
});
