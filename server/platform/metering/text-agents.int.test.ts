// Issue 17: the four text agents are rate-limited per user, capped in size, free on the local writer
// and charged (with a refund on failure) when a vendor LLM — here the fake OpenAI-compatible server — writes.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, subscriptions } from '../../db/schema/index.ts';
import { chatReply, type FakeOpenAi, type FakeReply, startFakeOpenAi } from '../../engines/openai/fake-openai.ts';
import { authHeader, createTestUser, creditsOf, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { creditMoney } from '../money/ledger.ts';

const shot = (prompt: string) => ({ shotType: 'wide', cameraMovement: 'dolly in', prompt, durationSeconds: 6 });

/** One valid call per agent: [url, body]. */
const CALLS = {
  movieAgent: [
    '/api/ai/movie-agent',
    { movieScript: 'INT. LIGHTHOUSE - NIGHT\nThe keeper climbs the stairs. He lights the lamp.', images: [] },
  ],
  imageAgent: ['/api/ai/image-agent', { prompt: 'a lighthouse at dusk' }],
  filmAgent: [
    '/api/ai/film-agent',
    {
      concept: { title: 'The Last Lighthouse', description: 'A keeper guards the last lighthouse', targetDuration: 90 },
      characters: [{ name: 'Mara', role: 'protagonist' }],
      generationType: 'screenplay',
    },
  ],
  campaignPlan: [
    '/api/campaigns/plan',
    {
      objective: 'Awareness for the spring running shoe',
      targetAudience: { ageMin: 18, ageMax: 35 },
      budget: 10,
      duration: 7,
      platforms: ['instagram'],
      contentTypes: ['video'],
    },
  ],
} as const satisfies Record<string, readonly [string, object]>;
type Agent = keyof typeof CALLS;
const AGENTS = Object.keys(CALLS) as Agent[];
const LEDGER_TYPE: Record<Agent, string> = {
  movieAgent: 'movie-agent',
  imageAgent: 'image-agent',
  filmAgent: 'film-agent',
  campaignPlan: 'campaign-plan',
};

/** What the fake vendor answers, by the structured-output schema the adapter asked for. */
function vendorAnswer(body: Record<string, unknown>): FakeReply {
  const format = body.response_format as { json_schema?: { name?: string } } | undefined;
  switch (format?.json_schema?.name) {
    case 'prompt_enhancement':
      return chatReply(JSON.stringify({ enhanced_prompt: 'a lighthouse at dusk, golden hour, 35 mm', additions: [] }));
    case 'movie_plan':
      return chatReply(
        JSON.stringify({
          scenes: [{ sceneNumber: 1, heading: 'INT. LIGHTHOUSE - NIGHT', summary: 'The lamp', shots: [shot('lamp')] }],
        }),
      );
    case 'screenplay':
      return chatReply(
        // The film agent's draft (common/api/film.ts filmScreenplayDraft).
        JSON.stringify({
          logline: 'A keeper holds the light.',
          themes: ['duty'],
          acts: [1, 2, 3].map((n) => ({
            title: `Act ${n}`,
            description: 'storm',
            plotPoints: ['storm'],
            scenes: [
              {
                heading: { location: 'EXT. GALLERY', timeOfDay: 'NIGHT', description: 'the gallery' },
                description: 'storm',
                mood: 'tense',
                purpose: 'storm',
                elements: [{ type: 'action', content: 'Rain.' }],
                shots: [
                  {
                    type: 'wide shot',
                    description: 'storm',
                    prompt: 'storm',
                    duration: 5,
                    cameraMovement: 'static',
                    characters: [],
                  },
                ],
              },
            ],
          })),
        }),
      );
    case 'campaign_plan':
      return chatReply(
        JSON.stringify({
          title: 'Spring run',
          phases: [],
          schedule: [{ platform: 'instagram', posts: 2, bestTime: '18:00', items: [] }],
          kpis: [],
        }),
      );
    default:
      return { status: 400, body: { error: { message: 'unexpected request', type: 'invalid_request_error' } } };
  }
}

/** A brand (campaign plans are for brands) with `credits` and €100 in the wallet for the plan's budget. */
async function brand(t: TestApp, options: { credits?: number; subscription?: false } = {}): Promise<TestUser> {
  const user = await createTestUser(t.ctx.db, { role: 'brand', ...options });
  await creditMoney(t.ctx.db, {
    userId: user.id,
    account: 'wallet',
    amountCents: 10_000,
    source: 'topup',
    referenceId: randomUUID(),
    description: 'test top-up',
  });
  return user;
}

function call(t: TestApp, user: TestUser, agent: Agent, body?: object) {
  const [url, payload] = CALLS[agent];
  return t.app.inject({ method: 'POST', url, payload: body ?? payload, headers: authHeader(user.token) });
}

function ledgerOf(t: TestApp, userId: string) {
  return t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
}

describe('text agents on the local writer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('share one per-user limit: a burst of 150 calls over the four meets 429 with retryAfterSeconds', async () => {
    const user = await brand(t);
    const limit = t.config.RATE_LIMIT_TEXT_AGENTS_PER_MINUTE;
    expect(limit).toBe(TEXT_AGENTS.perUserPerMinute);
    const replies = [];
    for (let i = 0; i < 150; i++) replies.push(await call(t, user, AGENTS[i % AGENTS.length]));
    const allowed = replies.slice(0, limit);
    for (const res of allowed) expect(res.statusCode, res.body).toBe(200);
    for (const res of replies.slice(limit)) {
      expect(res.statusCode).toBe(429);
      const reply = res.json() as { code: string; error: string; details: { retryAfterSeconds: number } };
      expect(reply).toMatchObject({ code: 'rate_limited', error: MESSAGES.generic.rateLimited });
      expect(reply.details.retryAfterSeconds).toBeGreaterThan(0);
      expect(reply.details.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(Number(res.headers['retry-after'])).toBe(reply.details.retryAfterSeconds);
    }
    // Per user: someone else still gets through.
    expect((await call(t, await brand(t), 'imageAgent')).statusCode).toBe(200);
  });

  it('are free: no ledger row and the balance unchanged', async () => {
    const user = await brand(t, { credits: 5 });
    for (const agent of AGENTS) expect((await call(t, user, agent)).statusCode).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(5);
    expect(await ledgerOf(t, user.id)).toHaveLength(0);
  });

  it('cap their inputs with clear messages, and each route has a small body limit', async () => {
    const user = await brand(t);
    const tooLongScript = await call(t, user, 'movieAgent', {
      movieScript: 'a'.repeat(TEXT_AGENTS.movieScriptMaxChars + 1),
    });
    expect(tooLongScript.statusCode).toBe(400);
    expect(tooLongScript.json().error).toBe(
      MESSAGES.generic.textTooLong('The movie script', TEXT_AGENTS.movieScriptMaxChars),
    );
    const inlineImage = await call(t, user, 'movieAgent', {
      movieScript: 'A keeper lights the lamp.',
      images: [{ id: 'a', imageUrl: `data:image/png;base64,${'A'.repeat(TEXT_AGENTS.imageUrlMaxChars)}` }],
    });
    expect(inlineImage.statusCode).toBe(400);
    expect(inlineImage.json().error).toBe(MESSAGES.generic.textTooLong('An image URL', TEXT_AGENTS.imageUrlMaxChars));
    const tooManyImages = await call(t, user, 'movieAgent', {
      movieScript: 'A keeper lights the lamp.',
      images: Array.from({ length: TEXT_AGENTS.movieAgentMaxImages + 1 }, (_, i) => ({ id: `i${i}` })),
    });
    expect(tooManyImages.statusCode).toBe(400);
    expect(tooManyImages.json().error).toBe(MESSAGES.generic.tooManyItems('images', TEXT_AGENTS.movieAgentMaxImages));
    const longPrompt = await call(t, user, 'imageAgent', { prompt: 'b'.repeat(4001) });
    expect(longPrompt.json().error).toBe(MESSAGES.generic.textTooLong('The prompt', 4000));
    const longBackstory = await call(t, user, 'filmAgent', {
      ...CALLS.filmAgent[1],
      characters: [{ name: 'Mara', backstory: 'c'.repeat(5001) }],
    });
    expect(longBackstory.json().error).toBe(MESSAGES.generic.textTooLong('A backstory', 5000));

    // Over a route's byte limit the body is refused before it is parsed.
    for (const agent of AGENTS) {
      const padding = 'd'.repeat(TEXT_AGENTS.bodyLimitBytes[agent] + 1);
      const res = await call(t, user, agent, { ...CALLS[agent][1], padding });
      expect(res.statusCode, agent).toBe(413);
    }
  });
});

describe('text agents on a vendor LLM (the fake OpenAI-compatible server)', () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.fallback = vendorAnswer;
    t = await createTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' } });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it(`charge ${TEXT_AGENTS.creditsPerCall} credit per call on each of the four routes, through the ledger`, async () => {
    const user = await brand(t, { credits: 10 });
    for (const agent of AGENTS) {
      const res = await call(t, user, agent);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(fake.requests).toHaveLength(AGENTS.length);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(10 - AGENTS.length * TEXT_AGENTS.creditsPerCall);
    const rows = await ledgerOf(t, user.id);
    expect(rows.map((r) => `${r.type}:${r.amount}:${r.source}:${r.generationType}`).sort()).toEqual(
      AGENTS.map((agent) => `deduction:${TEXT_AGENTS.creditsPerCall}:generation:${LEDGER_TYPE[agent]}`).sort(),
    );
  });

  it('answer 402 with the insufficient-credits message when short, without asking the vendor', async () => {
    const user = await brand(t, { credits: 0 });
    fake.requests.length = 0;
    for (const agent of AGENTS) {
      const res = await call(t, user, agent);
      expect(res.statusCode, agent).toBe(402);
      expect(res.json()).toMatchObject({ code: 'insufficient_credits', error: MESSAGES.credits.insufficient });
    }
    expect(fake.requests).toHaveLength(0);
    expect(await ledgerOf(t, user.id)).toHaveLength(0);
  });

  it('refund the credit when the vendor call fails', async () => {
    const user = await brand(t, { credits: 3 });
    fake.replies.push({ status: 400, body: { error: { message: 'model not found', type: 'invalid_request_error' } } });
    const res = await call(t, user, 'movieAgent');
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(3);
    const rows = await ledgerOf(t, user.id);
    expect(rows.map((r) => `${r.type}:${r.source}:${r.generationType}`).sort()).toEqual([
      'addition:refund:movie-agent',
      'deduction:generation:movie-agent',
    ]);
  });

  it('answer 403 subscription_required for a user whose subscription ended, without asking the vendor', async () => {
    const user = await brand(t, { credits: 10 });
    await t.ctx.db
      .update(subscriptions)
      .set({ status: 'canceled', trialEnd: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, user.id));
    fake.requests.length = 0;
    for (const agent of AGENTS) {
      const res = await call(t, user, agent);
      expect(res.statusCode, agent).toBe(403);
      expect(res.json()).toMatchObject({ code: 'subscription_required', error: MESSAGES.subscription.required });
    }
    expect(fake.requests).toHaveLength(0);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(10);
    const spent = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, user.id), eq(creditTransactions.type, 'deduction')));
    expect(spent).toHaveLength(0);
  });
});
