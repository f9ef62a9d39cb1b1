import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestUser, eventually, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { drainingEvent, taskEventHubOf } from './events.ts';

// When the process starts draining (SIGTERM), every open event stream ends with a reconnect hint, a stream asked
// for afterwards gets only the hint, and /readyz answers 503 so the load balancer sends the browsers elsewhere.

let t: TestApp;
let base: string;
let user: TestUser;

/** The stream's raw text as it arrives, and whether the server ended it. */
async function openStream(token: string) {
  const res = await fetch(`${base}/api/tasks/events`, { headers: authHeader(token) });
  let text = '';
  let ended = false;
  const reader = (res.body as ReadableStream).pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      ended = true;
    } catch {
      // cut
    }
  })();
  return { res, text: () => text, ended: () => ended };
}

const HINT = /retry: (\d+)\nevent: reconnect\ndata: \{"reason":"draining","retryMs":\d+\}\n\n$/;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  user = await createTestUser(t.ctx.db);
});

afterAll(async () => {
  await t?.close();
});

describe('event streams when the process drains', () => {
  it('the hint asks for a reconnection within about a second, spread over browsers', () => {
    expect(drainingEvent(() => 0)).toBe('retry: 500\nevent: reconnect\ndata: {"reason":"draining","retryMs":500}\n\n');
    expect(drainingEvent(() => 0.999)).toMatch(/^retry: 1499\n/);
  });

  it('ends every open stream with the reconnect hint, answers new ones with it alone, and /readyz answers 503', async () => {
    const hub = taskEventHubOf(t.ctx);
    const streams = [await openStream(user.token), await openStream(user.token)];
    for (const stream of streams) {
      await eventually(async () => stream.text().includes('event: ready'), { what: 'the ready event' });
    }
    expect(hub.subscribers).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    t.ctx.lifecycle.startDrain();

    for (const stream of streams) {
      await eventually(async () => stream.ended(), { what: 'the stream to end' });
      expect(stream.text()).toMatch(HINT);
    }
    expect(hub.subscribers).toBe(0);
    await eventually(async () => !hub.isListening, { what: 'the hub to stop listening' });

    const late = await openStream(user.token);
    expect(late.res.status).toBe(200);
    await eventually(async () => late.ended(), { what: 'the late stream to end' });
    expect(late.text()).toMatch(/^retry: \d+\nevent: reconnect\ndata: \{"reason":"draining","retryMs":\d+\}\n\n$/);
    expect(hub.subscribers).toBe(0);
    expect(hub.isListening).toBe(false);

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', reason: 'draining' });
  });
});
