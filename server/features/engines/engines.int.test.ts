// Issue 19, point 4: the engine catalogue and prices by the engine that serves a model. A video on the
// local preview engine reserves the local preview price; the same name served by a vendor (the Gemini
// fake, speaking Google's API) reserves the vendor price. The ledger row and the balance say which.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminEnginesReply, EnginesReply } from '../../../common/api/engines.ts';
import { LOCAL_PREVIEW_PRICES, PRICES } from '../../../common/api/generation.constants.ts';
import type { GenerationStatus, TaskAccepted } from '../../../common/api/generation.ts';
import type { HealthReply } from '../../../common/api/health.ts';
import { creditTransactions } from '../../db/schema/index.ts';
import { FakeGemini } from '../../engines/gemini/fake-gemini.ts';
import { testToolConfig } from '../../engines/test-media.ts';
import { authHeader, createTestUser, creditsOf, eventually, makeTestClip, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { STATUS_PATHS } from '../generation/status.ts';

/** The operator's local list in the local app: a price no default has, so the test sees it is read. */
const OPERATOR_LOCAL_VIDEO_PRO = 7;

async function startVideo(t: TestApp, user: TestUser, model: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/video',
    headers: authHeader(user.token),
    payload: { prompt: 'a harbour at dawn', model, duration: 2, generateAudio: true },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: TaskAccepted }).data;
}

async function finished(t: TestApp, user: TestUser, taskId: string): Promise<GenerationStatus> {
  let last: GenerationStatus | undefined;
  await eventually(
    async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: STATUS_PATHS.veo,
        headers: authHeader(user.token),
        payload: { taskId },
      });
      last = (res.json() as { data: GenerationStatus }).data;
      return last.status !== 'processing';
    },
    { timeoutMs: 60_000, intervalMs: 50, what: `task ${taskId}` },
  );
  return last!;
}

async function deductionFor(t: TestApp, user: TestUser, taskId: string) {
  const rows = await t.ctx.db
    .select()
    .from(creditTransactions)
    .where(and(eq(creditTransactions.userId, user.id), eq(creditTransactions.taskId, taskId)));
  return rows.filter((r) => r.type === 'deduction');
}

async function catalogue(t: TestApp, user: TestUser): Promise<EnginesReply> {
  const res = await t.app.inject({ method: 'GET', url: '/api/ai/engines', headers: authHeader(user.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as EnginesReply;
}

describe('local preview engines (no vendor configured)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOCAL_PREVIEW_PRICES: JSON.stringify({ videoPro: OPERATOR_LOCAL_VIDEO_PRO }) } });
    user = await createTestUser(t.ctx.db, { credits: 200 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a Veo 3 video served locally reserves the local preview price, not 101', async () => {
    const accepted = await startVideo(t, user, 'veo-3.0-generate-001');
    expect(await creditsOf(t.ctx.db, user.id)).toBe(200 - OPERATOR_LOCAL_VIDEO_PRO);
    const [row] = await deductionFor(t, user, accepted.taskId);
    expect(row).toMatchObject({ amount: OPERATOR_LOCAL_VIDEO_PRO, balanceAfter: 200 - OPERATOR_LOCAL_VIDEO_PRO });
    const done = await finished(t, user, accepted.taskId);
    expect(done.status).toBe('completed');
    // Kept: a finished preview is not refunded.
    expect(await creditsOf(t.ctx.db, user.id)).toBe(200 - OPERATOR_LOCAL_VIDEO_PRO);
  });

  it('GET /api/ai/engines names the local engine for every model and carries both price lists', async () => {
    const reply = await catalogue(t, user);
    expect(reply.localEngines).toBe(true);
    expect(reply.prices.vendor).toEqual(PRICES);
    expect(reply.prices.local).toEqual({ ...LOCAL_PREVIEW_PRICES, videoPro: OPERATOR_LOCAL_VIDEO_PRO });
    const veo = reply.models.find((m) => m.kind === 'video' && m.model === 'veo-3.0-generate-001');
    expect(veo).toEqual({
      kind: 'video',
      model: 'veo-3.0-generate-001',
      name: 'Veo 3',
      engine: 'local',
      engineKind: 'local',
      vendor: null,
      available: true,
      unavailableReason: null,
      enabledBy: ['GEMINI_API_KEY'],
    });
    expect(reply.models.every((m) => m.engineKind === 'local' && m.available)).toBe(true);
    expect(reply.models.map((m) => `${m.kind}:${m.model}`)).toEqual(
      expect.arrayContaining(['image:seedream4', 'image:nanobana', 'audio:suno-v3.5', 'upscale:topaz', 'text:local']),
    );
    // Signed-in only; the last-call messages are the admin's.
    expect((await t.app.inject({ method: 'GET', url: '/api/ai/engines' })).statusCode).toBe(401);
    expect(JSON.stringify(reply)).not.toContain('lastCall');
  });

  it("GET /api/admin/engines adds each engine's last call for admins only", async () => {
    const admin = await createTestUser(t.ctx.db, { role: 'admin' });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/engines', headers: authHeader(admin.token) });
    expect(res.statusCode, res.body).toBe(200);
    const veo = (res.json() as AdminEnginesReply).models.find((m) => m.model === 'veo-3.0-generate-001');
    expect(veo?.lastCall).toMatchObject({ outcome: 'ok' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/engines', headers: authHeader(user.token) })).statusCode,
    ).toBe(403);
  });

  it('GET /healthz lists every model, its engine and its last call', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const health = res.json() as HealthReply;
    expect(health.engines.length).toBe((await catalogue(t, user)).models.length);
    expect(health.engines.find((m) => m.model === 'veo-3.0-generate-001')).toMatchObject({
      kind: 'video',
      engine: 'local',
      available: true,
      lastCall: { outcome: 'ok' },
    });
    expect(health.engines.find((m) => m.model === 'suno-v3.5')).toMatchObject({ engine: 'local', lastCall: null });
  });
});

describe('a vendor configured (the Gemini fake)', () => {
  const KEY = 'engines-int-gemini-key';
  let t: TestApp;
  let fake: FakeGemini;
  let user: TestUser;
  let workDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-engines-int-'));
    const clip = await makeTestClip(testToolConfig, workDir, { seconds: 2, width: 320, height: 180, fps: 12 });
    fake = await new FakeGemini({ apiKey: KEY, video: clip }).start();
    t = await createTestApp({
      env: { GEMINI_API_KEY: KEY, GEMINI_API_BASE: fake.base, GEMINI_POLL_INTERVAL_MS: '20' },
    });
    user = await createTestUser(t.ctx.db, { credits: 500 });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('a Veo 3 video served by Google reserves the vendor price; Seedance, still local, its local price', async () => {
    const veo = await startVideo(t, user, 'veo-3.0-generate-001');
    expect(await creditsOf(t.ctx.db, user.id)).toBe(500 - PRICES.videoPro);
    expect((await deductionFor(t, user, veo.taskId))[0]).toMatchObject({ amount: PRICES.videoPro });
    expect(await finished(t, user, veo.taskId)).toMatchObject({ status: 'completed' });

    const seedance = await startVideo(t, user, 'seedance');
    expect((await deductionFor(t, user, seedance.taskId))[0]).toMatchObject({
      amount: LOCAL_PREVIEW_PRICES.videoDream,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(500 - PRICES.videoPro - LOCAL_PREVIEW_PRICES.videoDream);
  });

  it('the catalogue names Google for the Gemini names and the local engine for the rest', async () => {
    const reply = await catalogue(t, user);
    const veo = reply.models.find((m) => m.model === 'veo-3.0-generate-001');
    expect(veo).toMatchObject({ engine: 'gemini', engineKind: 'vendor', vendor: 'Google', available: true });
    expect(reply.models.find((m) => m.model === 'nanobana')).toMatchObject({ engineKind: 'vendor', vendor: 'Google' });
    expect(reply.models.find((m) => m.model === 'seedance')).toMatchObject({ engine: 'local', engineKind: 'local' });
  });
});
