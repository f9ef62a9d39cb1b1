import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { assets, tasks } from '../../db/schema/index.ts';
import { authHeader, createTestUser, creditsOf, solidPng, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let broke: TestUser;
let red: string;
let blue: string;
const URL = '/api/ai/generate/multi-reference';

function post(payload: object, token?: string) {
  return t.app.inject({ method: 'POST', url: URL, payload, headers: token ? authHeader(token) : {} });
}

async function meanColour(url: string): Promise<{ r: number; b: number }> {
  const res = await t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
  expect(res.statusCode).toBe(200);
  const { channels } = await sharp(res.rawPayload).stats();
  return { r: channels[0]?.mean ?? 0, b: channels[2]?.mean ?? 0 };
}

function body(redWeight: number, blueWeight: number, extra: object = {}) {
  return {
    service: 'nanobana',
    type: 'image-to-image',
    prompt: 'blend the references',
    referenceImages: [
      { url: red, weight: redWeight, type: 'color', description: 'red' },
      { url: blue, weight: blueWeight, type: 'style' },
    ],
    blendMode: 'weighted',
    strength: 0.1,
    numImages: 1,
    aspectRatio: '1:1',
    quality: 'draft',
    compositionMode: 'multi-image-composition',
    preserveDetails: true,
    multiReference: true,
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  broke = await createTestUser(t.ctx.db, { credits: 0 });
  red = `data:image/png;base64,${(await solidPng(64, 64, '#ff0000')).toString('base64')}`;
  blue = `data:image/png;base64,${(await solidPng(64, 64, '#0000ff')).toString('base64')}`;
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/ai/generate/multi-reference', () => {
  it('follows the weights: red-heavy is closer to red, blue-heavy closer to blue; saved as assets', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const redHeavy = await post(body(0.8, 0.2), user.token);
    expect(redHeavy.statusCode).toBe(200);
    const a = redHeavy.json();
    expect(a).toMatchObject({
      success: true,
      data: { status: 'completed' },
      creditsUsed: LOCAL_PREVIEW_PRICES.multiReference,
    });
    expect(typeof a.data.url).toBe('string');
    const redMean = await meanColour(a.data.url);
    expect(redMean.r).toBeGreaterThan(redMean.b);

    const blueHeavy = await post(body(0.2, 0.8), user.token);
    expect(blueHeavy.statusCode).toBe(200);
    const blueMean = await meanColour(blueHeavy.json().data.url);
    expect(blueMean.b).toBeGreaterThan(blueMean.r);

    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 2 * LOCAL_PREVIEW_PRICES.multiReference);
    const [row] = await t.ctx.db.select().from(assets).where(eq(assets.id, a.data.id));
    expect(row?.userId).toBe(user.id);
    expect(row?.metadata).toMatchObject({ source: 'multi-reference', blendMode: 'weighted' });
  });

  it('makes numImages outputs and charges each', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(body(0.5, 0.5, { numImages: 2, seed: 7 }), user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.images).toHaveLength(2);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 2 * LOCAL_PREVIEW_PRICES.multiReference);
  });

  it('validates prompt, references, weights, counts and modes', async () => {
    const noPrompt = await post(body(0.5, 0.5, { prompt: ' ' }), user.token);
    expect(noPrompt.statusCode).toBe(400);
    expect(JSON.stringify(noPrompt.json())).toContain(MESSAGES.multiReference.promptAndReference);
    const noRefs = await post(body(0.5, 0.5, { referenceImages: [] }), user.token);
    expect(noRefs.statusCode).toBe(400);
    expect(JSON.stringify(noRefs.json())).toContain(MESSAGES.multiReference.promptAndReference);
    const nine = Array.from({ length: 9 }, () => ({ url: red, weight: 0.5, type: 'style' }));
    const many = await post(body(0.5, 0.5, { referenceImages: nine }), user.token);
    expect(many.statusCode).toBe(400);
    expect(JSON.stringify(many.json())).toContain(MESSAGES.multiReference.tooManyFiles(8));
    expect((await post(body(1.5, 0.5), user.token)).statusCode).toBe(400);
    // The spec's sliders run 10–100 %: 5 % is refused by the server too, with the range in the message.
    const light = await post(body(0.05, 0.5), user.token);
    expect(light.statusCode).toBe(400);
    expect(JSON.stringify(light.json())).toContain(MESSAGES.multiReference.weightRange);
    const weak = await post(body(0.5, 0.5, { strength: 0.05 }), user.token);
    expect(JSON.stringify(weak.json())).toContain(MESSAGES.multiReference.strengthRange);
    expect((await post(body(0.5, 0.5, { numImages: 5 }), user.token)).statusCode).toBe(400);
    expect((await post(body(0.5, 0.5, { strength: 2 }), user.token)).statusCode).toBe(400);
    expect((await post(body(0.5, 0.5, { blendMode: 'nope' }), user.token)).statusCode).toBe(400);
    const text = `data:text/plain;base64,${Buffer.from('not an image').toString('base64')}`;
    const bad = await post(
      body(0.5, 0.5, { referenceImages: [{ url: text, weight: 0.5, type: 'style' }] }),
      user.token,
    );
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
  });

  it('needs a session', async () => {
    expect((await post(body(0.5, 0.5))).statusCode).toBe(401);
  });

  it('answers 402 before any work when the balance is short, spending nothing', async () => {
    const res = await post(body(0.5, 0.5), broke.token);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ success: false, code: 'insufficient_credits' });
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(0);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, broke.id))).toHaveLength(0);
  });
});
