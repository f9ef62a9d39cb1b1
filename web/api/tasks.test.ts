import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TaskView } from '../../common/api/tasks.ts';
import { MESSAGES } from '../../common/messages.ts';
import { defineTask } from '../../server/platform/jobs/types.ts';
import { createTestUser, eventually } from '../../server/test/fixtures.ts';
import { createTestApp, type TestApp } from '../../server/test/harness.ts';
import { ApiError } from './client.ts';
import { useSession } from './session.ts';
import { TaskWatchTimeout, watchTask } from './tasks.ts';

// watchTask against a real studio. Node has no EventSource, so this is the page whose stream cannot be had:
// every state must come from GET /api/tasks/{id}, read with back-off, and the promise must settle as a page's.

let t: TestApp;
const realFetch = globalThis.fetch;

const gates = new Map<string, Array<() => void>>();
function gate(name: string): Promise<void> {
  return new Promise((resolve) => {
    gates.set(name, [...(gates.get(name) ?? []), resolve]);
  });
}
async function release(name: string): Promise<void> {
  const next = await eventually(async () => gates.get(name)?.shift(), { what: `gate ${name}` });
  next();
}

const stepped = defineTask({
  kind: 'test.watch-stepped',
  input: z.object({ name: z.string(), fail: z.boolean().default(false) }),
  retryLimit: 0,
  handler: async ({ input, report }) => {
    await gate(input.name);
    await report({ progress: 40, estimatedSecondsLeft: 3 });
    await gate(input.name);
    if (input.fail) throw new Error('engine crashed');
    return { url: `/media/${input.name}.png` };
  },
});

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.jobs.register(stepped);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // The page's relative URLs, resolved against the studio as a browser resolves them against its origin.
  globalThis.fetch = (input, init) => realFetch(typeof input === 'string' ? new URL(input, base) : input, init);
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  useSession.setState({ token: null });
  await t?.close();
});

describe('watchTask without an event stream', () => {
  it('follows progress through GET /api/tasks/{id} and resolves with the completed task and its result', async () => {
    const user = await createTestUser(t.ctx.db);
    useSession.setState({ token: user.token });
    const task = await t.ctx.jobs.createTask({ userId: user.id, kind: stepped.kind, input: { name: 'ok' } });
    const seen: TaskView[] = [];
    const watching = watchTask(task.id, { onProgress: (state) => seen.push(state) });
    await release('ok');
    await eventually(async () => seen.some((state) => state.progress === 40), { what: 'progress 40' });
    await release('ok');
    const final = await watching;
    expect(final).toMatchObject({ id: task.id, status: 'completed', progress: 100, result: { url: '/media/ok.png' } });
    expect(seen.every((state) => state.status === 'queued' || state.status === 'processing')).toBe(true);
  });

  it('resolves a failed task with its error (the caller shows it)', async () => {
    const user = await createTestUser(t.ctx.db);
    useSession.setState({ token: user.token });
    const task = await t.ctx.jobs.createTask({
      userId: user.id,
      kind: stepped.kind,
      input: { name: 'bad', fail: true },
    });
    const watching = watchTask(task.id);
    await release('bad');
    await release('bad');
    const final = await watching;
    expect(final.status).toBe('failed');
    expect(final.error).toEqual({ code: 'task_failed', message: MESSAGES.generic.internal });
  });

  it("rejects with the 404 of another user's task, and with AbortError or TaskWatchTimeout", async () => {
    const owner = await createTestUser(t.ctx.db);
    const other = await createTestUser(t.ctx.db);
    const task = await t.ctx.jobs.createTask({ userId: owner.id, kind: stepped.kind, input: { name: 'held' } });
    useSession.setState({ token: other.token });
    const refused = await watchTask(task.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, message: MESSAGES.tasks.notFound });

    useSession.setState({ token: owner.token });
    const controller = new AbortController();
    const aborted = watchTask(task.id, { signal: controller.signal }).catch((error: unknown) => error);
    controller.abort();
    expect(await aborted).toMatchObject({ name: 'AbortError' });
    expect(await watchTask(task.id, { timeoutMs: 1_500 }).catch((error: unknown) => error)).toBeInstanceOf(
      TaskWatchTimeout,
    );
    await release('held');
    await release('held');
  });
});
