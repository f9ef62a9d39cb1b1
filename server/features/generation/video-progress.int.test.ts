import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationStatus, TaskAccepted } from '../../../common/api/generation.ts';
import { tasks } from '../../db/schema/index.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { STATUS_PATHS } from './status.ts';

// Issue 18, point 7: the studio's bar jumped to '88% · finishing…' and sat there. The local engine knows
// its frame count, so a generation must report rising progress through intermediate values.

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 2000 });
});

afterAll(async () => {
  await t.close();
});

interface Sample {
  at: number;
  status: string;
  progress: number;
  eta: number | null;
}

describe('local video generation progress', () => {
  it('rises monotonically through intermediate values, from the frames ffmpeg writes, to 100', {
    timeout: 180_000,
  }, async () => {
    // The studio's own request: the default model and length, with sound.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/video',
      headers: authHeader(user.token),
      payload: { prompt: 'slow aerial shot over a misty mountain lake at sunrise', duration: 10, generateAudio: true },
    });
    expect(res.statusCode).toBe(200);
    const { taskId } = (res.json() as { data: TaskAccepted }).data;

    // Sample the row often (what every status call reads), and the status call itself now and then.
    const samples: Sample[] = [];
    const started = Date.now();
    for (;;) {
      const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
      samples.push({
        at: Date.now() - started,
        status: row.status,
        progress: row.progress,
        eta: row.estimatedSecondsLeft,
      });
      if (row.status === 'completed' || row.status === 'failed') break;
      if (Date.now() - started > 150_000) throw new Error('the video did not finish in 150 s');
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(samples.at(-1)?.status).toBe('completed');
    const final = await t.app.inject({
      method: 'POST',
      url: STATUS_PATHS.video,
      headers: authHeader(user.token),
      payload: { taskId },
    });
    expect((final.json() as { data: GenerationStatus }).data).toMatchObject({ status: 'completed', progress: 100 });

    const running = samples.filter((s) => s.status === 'processing');
    const values = running.map((s) => s.progress);
    // On failure, say what was seen: [ms, progress, estimate] at each change.
    const seen = JSON.stringify(
      running.filter((s, i) => i === 0 || s.progress !== running[i - 1].progress).map((s) => [s.at, s.progress, s.eta]),
    );
    // Never backwards.
    for (let i = 1; i < values.length; i++) expect(values[i], seen).toBeGreaterThanOrEqual(values[i - 1]);
    // Through the rendering, not one jump: several distinct values between the inputs (8) and the save (88).
    const rendering = [...new Set(values.filter((v) => v > 8 && v < 88))];
    expect(rendering.length, seen).toBeGreaterThanOrEqual(3);
    // Spread over the range rather than bunched at its start or end.
    expect(
      rendering.some((v) => v < 40),
      seen,
    ).toBe(true);
    expect(
      rendering.some((v) => v >= 50 && v < 88),
      seen,
    ).toBe(true);
    // The first time the bar passes 80 comes after the first rendering value (no early leap to the end).
    const firstRendering = running.find((s) => s.progress > 8 && s.progress < 88);
    const firstHigh = running.find((s) => s.progress >= 80);
    expect(Boolean(firstRendering && firstHigh && firstHigh.at > firstRendering.at), seen).toBe(true);
    // The bar is near the end before it completes (the save stage itself, 88+, can be shorter than one poll on
    // a loaded machine), and an estimate is given while it renders.
    expect(values.at(-1), seen).toBeGreaterThanOrEqual(80);
    const early = running.filter((s) => s.progress > 8 && s.progress < 80);
    expect(
      early.every((s) => s.eta !== null),
      seen,
    ).toBe(true);
    expect(
      early.some((s) => s.eta !== null && s.eta > 0),
      seen,
    ).toBe(true);
  });
});
