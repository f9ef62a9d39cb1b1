import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { assets } from '../../db/schema/index.ts';
import { createEngineRegistry, createLocalEngines } from '../../engines/registry.ts';
import type { ImageEngine } from '../../engines/types.ts';
import { authHeader, createTestUser, creditsOf, solidPng, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// An engine that crashes on cue: the task is retried once, then fails, is refunded and saves nothing.

const CRASH = 'engine-crash-on-cue';

function crashingImageEngine(real: ImageEngine): ImageEngine {
  return {
    name: real.name,
    textToImage: (request, options) => real.textToImage(request, options),
    edit: async (request, options) => {
      if (request.prompt.includes(CRASH)) throw new Error('engine exploded');
      return real.edit(request, options);
    },
    compose: (request, options) => real.compose(request, options),
    inpaint: async (request, options) => {
      if (request.prompt.includes(CRASH)) throw new Error('engine exploded');
      return real.inpaint(request, options);
    },
  };
}

let t: TestApp;
let user: TestUser;
let png: Buffer;

beforeAll(async () => {
  t = await createTestApp({
    engines: (config) => {
      const local = createLocalEngines(config);
      return createEngineRegistry(config, { local: { image: crashingImageEngine(local.image) } });
    },
  });
  user = await createTestUser(t.ctx.db, { credits: 100 });
  png = await solidPng(160, 120, '#336699');
});
afterAll(async () => {
  await t?.close();
});

describe('canvas image tasks that fail in the engine', () => {
  it('a failed edit answers "Processing failed" and refunds the credits', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/nanobana/edit-image',
      headers: authHeader(user.token),
      payload: { prompt: `please ${CRASH}`, imageBuffer: png.toString('base64'), imageMimeType: 'image/png' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'generation_failed', error: MESSAGES.canvasImages.editFailed });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(100);
  });

  it('a failed multi-composition step answers "Composition generation failed", refunds and saves no step', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/multi-composition',
      headers: authHeader(user.token),
      payload: {
        baseImage: `data:image/png;base64,${png.toString('base64')}`,
        compositionSteps: [
          { id: 'ok', prompt: 'a flower', regionMask: { x: 0, y: 0, width: 40, height: 40 } },
          { id: 'boom', prompt: `a ${CRASH}`, regionMask: { x: 60, y: 60, width: 40, height: 40 } },
        ],
      },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ error: MESSAGES.canvasImages.compositionFailed });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(100);
    expect(await t.ctx.db.select().from(assets).where(eq(assets.userId, user.id))).toHaveLength(0);
  });
});
