import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { tasks } from '../../db/schema/index.ts';
import { createTestUser, eventually } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { JobQueue } from './queue.ts';
import { taskQueueName } from './schema.ts';
import { defineTask } from './types.ts';

const echo = defineTask({
  kind: 'test.wake-up',
  input: z.object({ n: z.number() }),
  handler: async ({ input }) => ({ echoed: input.n }),
});

// Worker processes on PostgreSQL are woken by a NOTIFY sent with each job; PGlite has one process only.
describe.runIf(process.env.TEST_DB === 'postgres')('job wake-ups across processes (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
    await t.ctx.jobs.register(echo);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sending a job notifies the wake-up channel with its queue', async () => {
    const user = await createTestUser(t.ctx.db);
    const heard: string[] = [];
    const stopListening = await t.ctx.database.listen?.('genpro_job_wake', (queue) => heard.push(queue));
    try {
      await t.ctx.jobs.createTask({ userId: user.id, kind: echo.kind, input: { n: 1 } });
      await eventually(async () => (heard.includes(taskQueueName(echo.kind)) ? true : undefined), {
        timeoutMs: 10_000,
        what: 'the wake-up notification',
      });
    } finally {
      await stopListening?.();
    }
  });

  it('a worker of another queue instance that would poll only hourly picks the job up when woken', async () => {
    const worker = new JobQueue({
      database: t.ctx.database,
      log: t.ctx.log,
      clock: t.ctx.clock,
      concurrency: 1,
      pollingIntervalSeconds: 3600,
    });
    const ctx: AppContext = { ...t.ctx, config: { ...t.ctx.config, RUN_WORKERS: true }, jobs: worker };
    worker.attach(ctx);
    await worker.register(echo);
    await worker.start();
    try {
      // Its first (immediate) poll has found nothing; from now on only a wake-up makes it fetch again.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const user = await createTestUser(t.ctx.db);
      const task = await t.ctx.jobs.createTask({ userId: user.id, kind: echo.kind, input: { n: 7 } });
      const done = await eventually(
        async () => {
          const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, task.id));
          return row.status === 'completed' ? row : undefined;
        },
        { timeoutMs: 20_000, what: 'the woken worker to complete the task' },
      );
      expect(done.result).toEqual({ echoed: 7 });
    } finally {
      await worker.stop();
    }
  });
});
