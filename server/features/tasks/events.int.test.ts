import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACCOUNT_CHANGED_EVENT } from '../../../common/api/tasks.constants.ts';
import { type TaskView, taskView } from '../../../common/api/tasks.ts';
import { CREATOR_TYPES } from '../../../common/rules/directory.ts';
import { openPostgres } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import { defineTask } from '../../platform/jobs/types.ts';
import { authHeader, createTestUser, eventually, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { register } from '../auth/testing.ts';
import { taskEventHubOf } from './events.ts';

let t: TestApp;
let base: string;
let user: TestUser;
let other: TestUser;

/** Steps the test releases one by one: the task reports 40 %, then finishes when released again. */
const gates = new Map<string, Array<() => void>>();
function gate(name: string): Promise<void> {
  return new Promise((resolve) => {
    const list = gates.get(name) ?? [];
    list.push(resolve);
    gates.set(name, list);
  });
}
async function release(name: string): Promise<void> {
  const next = await eventually(async () => gates.get(name)?.shift(), { what: `gate ${name}` });
  next();
}

const stepped = defineTask({
  kind: 'test.sse-stepped',
  input: z.object({ name: z.string() }),
  retryLimit: 0,
  handler: async ({ input, report }) => {
    await gate(input.name);
    await report({ progress: 40, estimatedSecondsLeft: 12 });
    await gate(input.name);
    return { url: `/media/${input.name}.png`, assetId: null };
  },
});

interface StreamEvent {
  event: string;
  id: string | null;
  data: string;
}

/** A real HTTP client of the stream: every event parsed as it arrives. */
async function openStream(token: string | null, options: { query?: string; lastEventId?: string } = {}) {
  const controller = new AbortController();
  const headers: Record<string, string> = token ? authHeader(token) : {};
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const res = await fetch(`${base}/api/tasks/events${options.query ?? ''}`, { headers, signal: controller.signal });
  const events: StreamEvent[] = [];
  const pings: string[] = [];
  if (res.body && res.ok) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event: StreamEvent = { event: 'message', id: null, data: '' };
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) pings.push(line);
              else if (line.startsWith('event: ')) event.event = line.slice(7);
              else if (line.startsWith('id: ')) event.id = line.slice(4);
              else if (line.startsWith('data: ')) event.data += line.slice(6);
            }
            if (event.data) events.push(event);
          }
        }
      } catch {
        // aborted by the test
      }
    })();
  }
  const taskEvents = (): TaskView[] =>
    events.filter((e) => e.event === 'task').map((e) => taskView.parse(JSON.parse(e.data)));
  return {
    res,
    events,
    taskEvents,
    /** How many `account` events the stream has had. */
    accountEvents: () => events.filter((e) => e.event === ACCOUNT_CHANGED_EVENT).length,
    close: () => controller.abort(),
    ready: () => eventually(async () => events.some((e) => e.event === 'ready'), { what: 'the ready event' }),
    waitFor: (what: string, match: (task: TaskView) => boolean) =>
      eventually(async () => taskEvents().find(match), { what, timeoutMs: 20_000 }),
  };
}

async function insertTask(userId: string, status: 'processing' | 'completed', minutesAgo: number, progress = 0) {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  // A kind no worker handles, so the row stays as written.
  const [row] = await t.ctx.db
    .insert(tasks)
    .values({ userId, kind: 'test.fixture', status, progress, createdAt: at, updatedAt: at })
    .returning();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.jobs.register(stepped);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  user = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/tasks/events', () => {
  it('needs a session (401) and checks ?ids', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/tasks/events' })).statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/tasks/events?ids=nope',
      headers: authHeader(user.token),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers an event stream, uncompressed, with the security headers, starting with the running tasks', async () => {
    const running = await insertTask(user.id, 'processing', 3, 55);
    const finished = await insertTask(user.id, 'completed', 2, 100);
    const othersRunning = await insertTask(other.id, 'processing', 1, 10);
    const stream = await openStream(user.token);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.res.headers.get('content-encoding')).toBeNull();
      expect(stream.res.headers.get('cache-control')).toContain('no-cache');
      expect(stream.res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(stream.res.headers.get('content-security-policy')).toBeTruthy();
      await stream.ready();
      const ids = stream.taskEvents().map((task) => task.id);
      expect(ids).toContain(running);
      expect(ids).not.toContain(finished);
      expect(ids).not.toContain(othersRunning);
      expect(stream.taskEvents().find((task) => task.id === running)).toMatchObject({
        status: 'processing',
        progress: 55,
      });
    } finally {
      stream.close();
    }

    // Resuming with the last event id also brings what finished meanwhile.
    const resumed = await openStream(user.token, { lastEventId: String(Date.now() - 3 * 60_000) });
    try {
      await resumed.ready();
      expect(resumed.taskEvents().map((task) => task.id)).toEqual(expect.arrayContaining([running, finished]));
    } finally {
      resumed.close();
    }
  });

  it("pushes each change of the user's task (queued, progress, result) and never another user's", async () => {
    const mine = await openStream(user.token);
    const theirs = await openStream(other.token);
    try {
      await Promise.all([mine.ready(), theirs.ready()]);
      const othersTask = await t.ctx.jobs.createTask({ userId: other.id, kind: stepped.kind, input: { name: 'b' } });
      const task = await t.ctx.jobs.createTask({ userId: user.id, kind: stepped.kind, input: { name: 'a' } });
      await mine.waitFor('the new task', (e) => e.id === task.id);

      await release('a');
      const progress = await mine.waitFor('progress 40', (e) => e.id === task.id && e.progress === 40);
      expect(progress).toMatchObject({ status: 'processing', estimatedSecondsLeft: 12, result: null });
      await release('a');
      const done = await mine.waitFor('completion', (e) => e.id === task.id && e.status === 'completed');
      expect(done).toMatchObject({ progress: 100, result: { url: '/media/a.png' }, error: null });

      await release('b');
      await release('b');
      await theirs.waitFor("the other user's completion", (e) => e.id === othersTask.id && e.status === 'completed');
      // The other user's stream saw its own task and nothing of ours; ours nothing of theirs.
      expect(theirs.taskEvents().some((e) => e.id === task.id)).toBe(false);
      expect(mine.taskEvents().some((e) => e.id === othersTask.id)).toBe(false);
      // Event ids never go back (Last-Event-ID resumes from the newest).
      const ids = mine.events.filter((e) => e.event === 'task').map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('?ids narrows the stream to those tasks and sends their state even when they already finished', async () => {
    const finished = await insertTask(user.id, 'completed', 1, 100);
    const running = await insertTask(user.id, 'processing', 1, 20);
    const othersTask = await insertTask(other.id, 'processing', 1, 20);
    const stream = await openStream(user.token, { query: `?ids=${finished},${othersTask}` });
    try {
      await stream.ready();
      expect(stream.taskEvents().map((task) => task.id)).toEqual([finished]);
      expect(stream.taskEvents().some((task) => task.id === running)).toBe(false);
    } finally {
      stream.close();
    }
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }> };
    expect(doc.paths['/api/tasks/events']?.get?.parameters?.map((p) => p.name)).toContain('ids');
  });

  it('stops listening once the last stream is closed by the browser', async () => {
    const hub = taskEventHubOf(t.ctx);
    await eventually(async () => hub.subscribers === 0, { what: 'earlier streams to be gone' });
    const first = await openStream(user.token);
    const second = await openStream(other.token);
    await Promise.all([first.ready(), second.ready()]);
    expect(hub.subscribers).toBe(2);
    expect(hub.isListening).toBe(true);
    first.close();
    await eventually(async () => hub.subscribers === 1, { what: 'the first stream to be dropped' });
    expect(hub.isListening).toBe(true);
    second.close();
    await eventually(async () => hub.subscribers === 0 && !hub.isListening, { what: 'the hub to stop listening' });

    // And a change after that reaches nobody, without errors; a new stream listens again.
    await insertTask(user.id, 'processing', 0, 5);
    const again = await openStream(user.token);
    try {
      await again.ready();
      expect(hub.isListening).toBe(true);
    } finally {
      again.close();
    }
  });
});

describe('GET /api/tasks/events: changes of the own account', () => {
  const post = (token: string, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: authHeader(token), payload: payload as object });
  const accountEventsReach = (stream: { accountEvents: () => number }, count: number, what: string) =>
    eventually(async () => stream.accountEvents() >= count, { what, timeoutMs: 20_000 });

  it("tells the creator's open stream when an admin approves them, and nobody else's", async () => {
    const admin = await createTestUser(t.ctx.db, { role: 'admin' });
    const creator = await register(t.app, { role: 'creator' });
    const bystander = await register(t.app, { role: 'creator' });
    const stream = await openStream(creator.token);
    const narrowed = await openStream(creator.token, {
      query: `?ids=${await insertTask(creator.userId, 'completed', 0)}`,
    });
    const theirs = await openStream(bystander.token);
    try {
      await Promise.all([stream.ready(), narrowed.ready(), theirs.ready()]);
      expect(stream.accountEvents()).toBe(0);

      const approved = await post(admin.token, '/api/admin/users/approve', {
        userId: creator.userId,
        action: 'approve',
        creatorType: CREATOR_TYPES[0],
      });
      expect(approved.statusCode).toBe(200);
      await accountEventsReach(stream, 1, "the creator's account event");
      // What the page then reads again is the approved account.
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(creator.token) });
      expect(me.json().data.user.user_status).toBe('approved_creator');

      // The bystander's own change comes after ours on the same hub: once it arrived, ours would have too.
      const bank = await post(bystander.token, '/api/creators/bank-accounts', {
        accountHolderName: 'Rita Tester',
        iban: 'DE89 3704 0044 0532 0130 00',
      });
      expect(bank.statusCode).toBe(201);
      await accountEventsReach(theirs, 1, "the bystander's bank account event");
      expect(theirs.accountEvents()).toBe(1);
      // A stream narrowed to some tasks (?ids) carries tasks only.
      expect(narrowed.accountEvents()).toBe(0);
    } finally {
      stream.close();
      narrowed.close();
      theirs.close();
    }
  });

  it('tells the stream when a bank account is added, made primary or removed', async () => {
    const creator = await register(t.app, { role: 'creator' });
    const stream = await openStream(creator.token);
    try {
      await stream.ready();
      const first = await post(creator.token, '/api/creators/bank-accounts', {
        accountHolderName: 'Rita Tester',
        iban: 'DE89 3704 0044 0532 0130 00',
      });
      expect(first.statusCode).toBe(201);
      await accountEventsReach(stream, 1, 'the event of the added account');
      const second = await post(creator.token, '/api/creators/bank-accounts', {
        accountHolderName: 'Rita Tester',
        iban: 'GB82 WEST 1234 5698 7654 32',
      });
      expect(second.statusCode).toBe(201);
      await accountEventsReach(stream, 2, 'the event of the second account');
      const secondId = (second.json() as { accounts: Array<{ id: string; is_primary: boolean }> }).accounts.find(
        (a) => !a.is_primary,
      )?.id;
      const primary = await t.app.inject({
        method: 'PATCH',
        url: `/api/creators/bank-accounts?id=${secondId}`,
        headers: authHeader(creator.token),
        payload: { is_primary: true },
      });
      expect(primary.statusCode).toBe(200);
      await accountEventsReach(stream, 3, 'the event of the new primary');
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/creators/bank-accounts?id=${secondId}`,
        headers: authHeader(creator.token),
      });
      expect(removed.statusCode).toBe(200);
      await accountEventsReach(stream, 4, 'the event of the removal');
    } finally {
      stream.close();
    }
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'tells the stream of a change committed by another API process (its own connection to the database)',
    async () => {
      const creator = await register(t.app, { role: 'creator' });
      const { rows } = await t.ctx.database.executeSql('SELECT current_database() AS name');
      const url = new URL(process.env.DATABASE_URL ?? '');
      url.pathname = `/${String(rows[0].name)}`;
      const elsewhere = await openPostgres(url.toString(), 1);
      const stream = await openStream(creator.token);
      try {
        await stream.ready();
        await elsewhere.executeSql("UPDATE users SET user_status = 'approved_creator' WHERE id = $1", [creator.userId]);
        await accountEventsReach(stream, 1, 'the event of the approval committed elsewhere');
      } finally {
        stream.close();
        await elsewhere.close();
      }
    },
  );
});
