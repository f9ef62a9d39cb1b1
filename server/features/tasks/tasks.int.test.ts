import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningTask } from '../../../common/api/tasks.ts';
import { tasks } from '../../db/schema/index.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;

// A kind no worker handles, so the rows stay as written (the recovery sweep skips unknown kinds).
const KIND = 'test.fixture';

async function insertTask(
  userId: string,
  status: 'queued' | 'processing' | 'completed' | 'failed',
  minutesAgo: number,
  input: Record<string, unknown> = {},
  progress = 0,
) {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  const [row] = await t.ctx.db
    .insert(tasks)
    .values({ userId, kind: KIND, status, progress, input, estimatedSecondsLeft: 30, createdAt: at, updatedAt: at })
    .returning();
  return row.id;
}

function list(token?: string, query = '') {
  return t.app.inject({ method: 'GET', url: `/api/tasks${query}`, headers: token ? authHeader(token) : {} });
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/tasks?status=running', () => {
  it('needs a session (401)', async () => {
    expect((await list(undefined, '?status=running')).statusCode).toBe(401);
  });

  it("lists only the caller's queued and processing tasks, newest first, with progress and prompt", async () => {
    const older = await insertTask(user.id, 'processing', 5, { params: { prompt: '  a fox at dawn ' } }, 42);
    const newer = await insertTask(user.id, 'queued', 1, { prompt: 'music for a rainy day' });
    await insertTask(user.id, 'completed', 0);
    await insertTask(user.id, 'failed', 0);
    const othersTask = await insertTask(other.id, 'processing', 0);

    const res = await list(user.token, '?status=running');
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: RunningTask[] }).data;
    expect(data.map((task) => task.id)).toEqual([newer, older]);
    expect(data[0]).toMatchObject({ status: 'queued', progress: 0, prompt: 'music for a rainy day' });
    expect(data[1]).toMatchObject({
      kind: KIND,
      status: 'processing',
      progress: 42,
      estimatedSecondsLeft: 30,
      prompt: 'a fox at dawn',
    });
    expect(data.some((task) => task.id === othersTask)).toBe(false);

    // `status` defaults to running; `limit` caps the list.
    const limited = (await list(user.token, '?limit=1')).json() as { data: RunningTask[] };
    expect(limited.data.map((task) => task.id)).toEqual([newer]);
  });

  it('answers an empty list when nothing runs', async () => {
    const fresh = await createTestUser(t.ctx.db);
    const res = await list(fresh.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: [] });
  });

  it('rejects an unknown status or a limit out of range (400)', async () => {
    expect((await list(user.token, '?status=completed')).statusCode).toBe(400);
    expect((await list(user.token, '?limit=0')).statusCode).toBe(400);
    expect((await list(user.token, '?limit=51')).statusCode).toBe(400);
  });
});
