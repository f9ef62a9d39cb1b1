import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { GenerationStatus } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { assets, creditTransactions, tasks } from '../../db/schema/index.ts';
import { createEngineRegistry, createLocalEngines } from '../../engines/registry.ts';
import { ContentFilteredError, type ImageEngine } from '../../engines/types.ts';
import { authHeader, createTestUser, creditsOf, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { STATUS_PATHS } from './status.ts';

// Engine failures the local engines never produce on their own: an output refused by the content
// filter (as a vendor reports it after generating) and an engine that crashes. The studio is built
// like createTestApp does, with the local image engine wrapped to fail on cue.

const OUTPUT_FILTERED = 'mirror-of-forbidden-output';
const CRASH = 'engine-crash-on-cue';

function failingImageEngine(real: ImageEngine): ImageEngine {
  return {
    name: real.name,
    textToImage: async (request, options) => {
      if (request.prompt.includes(OUTPUT_FILTERED)) {
        throw new ContentFilteredError('The generated image was blocked by the content policy.', ['output']);
      }
      if (request.prompt.includes(CRASH)) throw new Error('engine exploded');
      return real.textToImage(request, options);
    },
    edit: (request, options) => real.edit(request, options),
    compose: (request, options) => real.compose(request, options),
    inpaint: (request, options) => real.inpaint(request, options),
  };
}

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    engines: (config) => {
      const local = createLocalEngines(config);
      return createEngineRegistry(config, { local: { image: failingImageEngine(local.image) } });
    },
  });
  user = await createTestUser(t.ctx.db, { credits: 100 });
});
afterAll(async () => {
  await t?.close();
});

async function taskOfLastDeduction(userId: string): Promise<string> {
  const rows = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
  const deduction = rows.filter((r) => r.type === 'deduction').at(-1);
  if (!deduction?.taskId) throw new Error('no deduction');
  return deduction.taskId;
}

describe('generation tasks that fail in the engine', () => {
  it('an output refused by the filter fails the task with content_filtered (422) and refunds it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/image',
      headers: authHeader(user.token),
      payload: { prompt: `a ${OUTPUT_FILTERED}`, size: '256x256', variations: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'content_filtered',
      details: { creditsRefunded: LOCAL_PREVIEW_PRICES.image },
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(100);
    const taskId = await taskOfLastDeduction(user.id);
    const status = await t.app.inject({
      method: 'POST',
      url: STATUS_PATHS.ai,
      headers: authHeader(user.token),
      payload: { taskId },
    });
    expect(status.json()).toMatchObject({
      status: 'failed',
      url: null,
      data: { status: 'failed', errorCode: 'content_filtered' } satisfies Partial<GenerationStatus>,
    });
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(task.attempts).toBe(1);
    expect(await t.ctx.db.select().from(assets).where(eq(assets.taskId, taskId))).toHaveLength(0);
  });

  it('a crashing engine is retried once, then fails with generation_failed and is refunded', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/image',
      headers: authHeader(user.token),
      payload: { prompt: `a ${CRASH}`, size: '256x256', variations: 1 },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'generation_failed', error: MESSAGES.generation.imageFailed });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(100);
    const taskId = await taskOfLastDeduction(user.id);
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(task).toMatchObject({ status: 'failed', attempts: 2 });
    const runway = await t.app.inject({
      method: 'GET',
      url: STATUS_PATHS.runway(taskId),
      headers: authHeader(user.token),
    });
    expect(runway.json()).toMatchObject({ status: 'FAILED', failureCode: 'generation_failed' });
  });
});
