import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_POLICY } from '../../engines/policy.ts';
import { authHeader, createTestUser, creditsOf, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const FILTERED_TERM = CONTENT_POLICY.find((rule) => !rule.requiresAlso)?.terms[0] ?? '';
const URL = '/api/ai/film-agent';
let t: TestApp;
let user: TestUser;

function post(payload: object, token?: string) {
  return t.app.inject({ method: 'POST', url: URL, payload, headers: token ? authHeader(token) : {} });
}

function body(concept: object = {}, characters?: object[]) {
  return {
    concept: {
      title: 'The Last Lighthouse',
      description: 'A keeper guards the last lighthouse on a drowning coast',
      genre: 'drama',
      tone: 'dramatic',
      targetDuration: 90,
      ...concept,
    },
    characters: characters ?? [
      { name: 'Mara', role: 'protagonist', ageGroup: '36-45', description: 'the keeper', relationships: [] },
      {
        name: 'Jonah',
        role: 'antagonist',
        ageGroup: '46-55',
        relationships: [{ characterId: 'mara', relationship: 'brother' }],
      },
    ],
    generationType: 'screenplay',
  };
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 100 });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/ai/film-agent', () => {
  it('writes a three-act screenplay for 90 minutes, free of charge', async () => {
    const res = await post(body(), user.token);
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(json.success).toBe(true);
    const { screenplay, metadata } = json.data;
    expect(screenplay.title).toBe('The Last Lighthouse');
    expect(screenplay.logline).toBeTruthy();
    expect(screenplay.acts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3]);
    expect(screenplay.acts.map((a: { pages: number }) => a.pages)).toEqual([23, 45, 22]);
    expect(screenplay.runtimeMinutes).toBe(90);
    let scenes = 0;
    let shots = 0;
    for (const act of screenplay.acts) {
      expect(act.scenes.length).toBeGreaterThan(0);
      for (const scene of act.scenes) {
        scenes++;
        expect(scene.heading).toMatch(/^(INT\.|EXT\.) /);
        expect(scene.elements.some((e: { type: string }) => e.type === 'action')).toBe(true);
        expect(scene.shots.length).toBeGreaterThan(0);
        for (const shot of scene.shots) {
          shots++;
          expect(shot).toMatchObject({
            id: expect.any(String),
            shotType: expect.any(String),
            prompt: expect.any(String),
          });
          expect(shot.duration).toBeGreaterThan(0);
        }
      }
    }
    expect(metadata).toMatchObject({
      generator: 'film-agent',
      genre: 'drama',
      tone: 'dramatic',
      sceneCount: scenes,
      shotCount: shots,
    });
    expect(metadata.engine).toBeTruthy();
    expect(Date.parse(metadata.createdAt)).not.toBeNaN();
    expect(await creditsOf(t.ctx.db, user.id)).toBe(100);
  });

  it('scales the pages to 180 minutes and defaults the target to 90', async () => {
    const long = (await post(body({ targetDuration: 180 }), user.token)).json();
    expect(long.data.screenplay.acts.map((a: { pages: number }) => a.pages)).toEqual([45, 90, 45]);
    expect(long.data.screenplay.runtimeMinutes).toBe(180);
    const { targetDuration: _omit, ...rest } = body().concept;
    const dflt = await t.app.inject({
      method: 'POST',
      url: URL,
      payload: { concept: rest, characters: body().characters },
      headers: authHeader(user.token),
    });
    expect(dflt.statusCode).toBe(200);
    expect(dflt.json().data.screenplay.runtimeMinutes).toBe(90);
  });

  it('is deterministic for the same input', async () => {
    const a = (await post(body(), user.token)).json();
    const b = (await post(body(), user.token)).json();
    expect(b.data.screenplay).toEqual(a.data.screenplay);
  });

  it.each([
    ['a missing title', body({ title: '' })],
    ['a blank description', body({ description: '   ' })],
    ['no concept', { characters: body().characters, generationType: 'screenplay' }],
  ])('answers 400 for %s', async (_name, payload) => {
    const res = await post(payload, user.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'Please fill in the film title and description first' });
  });

  it('answers 400 without characters', async () => {
    for (const payload of [body({}, []), { concept: body().concept, generationType: 'screenplay' }]) {
      const res = await post(payload, user.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Please add at least one character first');
    }
  });

  it('answers 400 for a target duration outside 60–180', async () => {
    for (const targetDuration of [59, 181]) {
      const res = await post(body({ targetDuration }), user.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Target duration must be between 60 and 180 minutes');
    }
    expect((await post(body({ targetDuration: 60 }), user.token)).statusCode).toBe(200);
  });

  it('answers 400 for another generationType', async () => {
    const res = await post({ ...body(), generationType: 'sequences' }, user.token);
    expect(res.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    const res = await post(body());
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });

  it('refuses filtered content with 422', async () => {
    const res = await post(body({ description: `a film full of ${FILTERED_TERM}` }), user.token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, code: 'content_filtered' });
    const viaCharacter = await post(body({}, [{ name: 'Mara', description: `loves ${FILTERED_TERM}` }]), user.token);
    expect(viaCharacter.statusCode).toBe(422);
  });
});
