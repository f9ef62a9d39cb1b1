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
        expect(scene.heading.location).toMatch(/^(INT\.|EXT\.) /);
        expect(scene.elements.some((e: { type: string }) => e.type === 'action')).toBe(true);
        expect(scene.shots.length).toBeGreaterThan(0);
        for (const shot of scene.shots) {
          shots++;
          expect(shot).toMatchObject({
            id: expect.any(String),
            type: expect.any(String),
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
    expect(b.data.screenplay).toEqual({ ...a.data.screenplay, dateCreated: b.data.screenplay.dateCreated });
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

describe('the local film writer (no vendor LLM configured)', () => {
  const rich = () =>
    body(
      {
        description: 'An aging keeper guards the last lighthouse on a drowning coast',
        setting: { location: 'a storm-beaten island off Maine', timeperiod: 'the winter of 1962' },
        theme: 'duty, letting go',
      },
      [
        {
          id: 'c-angus',
          name: 'Angus',
          role: 'protagonist',
          demographics: { gender: 'male', occupation: 'lighthouse keeper' },
          personality: 'stubborn, loyal',
          goal: 'Keep the light burning until his daughter comes home',
          conflict: 'his failing eyesight',
          arc: 'learns to let others help',
          relationships: [],
        },
        {
          id: 'c-silas',
          name: 'Silas',
          role: 'antagonist',
          demographics: { gender: 'male' },
          goal: 'sell the island to a developer',
          relationships: [],
        },
        {
          id: 'c-nell',
          name: 'Nell',
          role: 'supporting',
          demographics: { gender: 'female' },
          relationships: [{ characterId: 'c-angus', relationship: 'daughter' }],
        },
      ],
    );

  type Element = { id: string; type: string; content: string; text: string; character?: string; formatting: object };
  type Shot = {
    id: string;
    type: string;
    description: string;
    duration: number;
    cameraMovement: string;
    characters: string[];
  };
  type Scene = {
    id: string;
    sceneNumber: number;
    heading: { location: string; timeOfDay: string; description: string };
    elements: Element[];
    shots: Shot[];
    mood: string;
    purpose: string;
    estimatedDuration: number;
  };
  type Act = {
    id: string;
    actNumber: number;
    description: string;
    plotPoints: string[];
    pageCount: number;
    scenes: Scene[];
  };
  const scenesOf = (screenplay: { acts: Act[] }) => screenplay.acts.flatMap((a) => a.scenes);
  const dialogueOf = (screenplay: { acts: Act[] }) =>
    scenesOf(screenplay).flatMap((s) => s.elements.filter((e) => e.type === 'dialogue'));

  /** A capitalised article after the first word, not opening a new sentence ('must overcome An aging …'). */
  const midArticle = /(?<![.!?:]) (A|An|The) /;

  it('never repeats a line of dialogue, and writes it from the characters’ goals and relationships', async () => {
    for (const payload of [rich(), body()]) {
      const res = await post(payload, user.token);
      expect(res.statusCode, res.body).toBe(200);
      const lines = dialogueOf(res.json().data.screenplay);
      expect(lines.length).toBeGreaterThan(15);
      const texts = lines.map((l) => l.content.toLowerCase());
      expect(new Set(texts).size).toBe(texts.length);
      for (const line of lines) {
        expect(line.character).toMatch(/^(ANGUS|SILAS|NELL|MARA|JONAH)$/);
        expect(line.content).toMatch(/^[A-Z"'].*[.?!]$/);
      }
    }
    const lines = dialogueOf((await post(rich(), user.token)).json().data.screenplay).map((l) => l.content);
    expect(lines.some((l) => /keep the light burning until (my|your) daughter comes home/.test(l))).toBe(true);
    expect(lines.some((l) => /daughter, Angus/.test(l) || /\bdaughter\b/.test(l))).toBe(true);
  });

  it('writes a grammatical logline that starts with the lead’s name', async () => {
    const withGoal = (await post(rich(), user.token)).json().data.screenplay.logline as string;
    expect(withGoal).toBe(
      'Angus, a stubborn lighthouse keeper, must keep the light burning until his daughter comes home before Silas can sell the island to a developer.',
    );
    // No goal given: the goal comes from the description's predicate, its article lowercased mid-sentence.
    const bare = (
      await post(
        body({ description: 'An aging keeper guards the last lighthouse on a drowning coast' }, [
          { name: 'Angus', role: 'protagonist', relationships: [] },
        ]),
        user.token,
      )
    ).json().data.screenplay.logline as string;
    for (const logline of [withGoal, bare]) {
      expect(logline.startsWith('Angus')).toBe(true);
      expect(logline).not.toMatch(midArticle);
      expect(logline).toMatch(/[a-z]\.$/);
    }
    expect(bare).toBe('Angus must guard the last lighthouse on a drowning coast.');
  });

  it('takes every heading from the concept’s setting, with a time of day and a description of the place', async () => {
    const { screenplay } = (await post(rich(), user.token)).json().data;
    const scenes = scenesOf(screenplay);
    for (const scene of scenes) {
      expect(scene.heading.location).toMatch(/^(INT|EXT)\. STORM-BEATEN ISLAND OFF MAINE( - [A-Z' ]+)?$/);
      expect(scene.heading.timeOfDay).toMatch(/^(DAY|NIGHT|DAWN|DUSK|MORNING|EVENING|AFTERNOON)$/);
      expect(scene.heading.description).toContain('storm-beaten island off Maine');
    }
    expect(new Set(scenes.map((s) => s.heading.timeOfDay)).size).toBeGreaterThan(2);
    expect(scenes.some((s) => s.heading.location.startsWith('INT.'))).toBe(true);
    expect(scenes.some((s) => s.heading.location.startsWith('EXT.'))).toBe(true);
  });

  it('fills every screenplay, act, scene, element and shot field of the film data (§3)', async () => {
    const { screenplay } = (await post(rich(), user.token)).json().data;
    expect(screenplay).toMatchObject({
      totalPageCount: 90,
      estimatedRuntime: 90,
      characters: [
        { id: 'c-angus', name: 'Angus', role: 'protagonist' },
        { id: 'c-silas', name: 'Silas', role: 'antagonist' },
        { id: 'c-nell', name: 'Nell', role: 'supporting' },
      ],
      themes: ['duty', 'letting go'],
      writtenBy: 'GenPro Film Agent (local writer)',
      version: '1.0',
    });
    expect(Date.parse(screenplay.dateCreated)).not.toBeNaN();
    const ids = new Set<string>();
    screenplay.acts.forEach((act: Act, a: number) => {
      expect(act).toMatchObject({ id: `act-${a + 1}`, actNumber: a + 1, pageCount: [23, 45, 22][a] });
      expect(act.description.length).toBeGreaterThan(20);
      expect(act.plotPoints.length).toBe(act.scenes.length);
      for (const point of act.plotPoints) expect(point).toMatch(/^[A-Z][^:]+: Angus .+\.$/);
      expect(act.scenes.reduce((n, s) => n + s.estimatedDuration, 0)).toBe(act.pageCount);
      for (const scene of act.scenes) {
        expect(scene.mood).toMatch(/^[a-z]+$/);
        expect(scene.purpose).toMatch(/^[A-Z].+\.$/);
        expect(scene.estimatedDuration).toBeGreaterThan(0);
        for (const element of scene.elements) {
          expect(ids.has(element.id)).toBe(false);
          ids.add(element.id);
          expect(element.content).toBe(element.text);
          expect(element.formatting).toMatchObject({
            alignment: expect.stringMatching(/^(left|center|right)$/),
            indentInches: expect.any(Number),
            widthInches: expect.any(Number),
            uppercase: expect.any(Boolean),
          });
        }
        for (const shot of scene.shots) {
          expect(shot).toMatchObject({
            type: expect.any(String),
            description: expect.any(String),
            cameraMovement: expect.any(String),
          });
          expect(shot.duration).toBeGreaterThan(0);
          for (const id of shot.characters) expect(['c-angus', 'c-silas', 'c-nell']).toContain(id);
        }
      }
    });
    const scenes = scenesOf(screenplay);
    expect(scenes.map((s) => s.sceneNumber)).toEqual(scenes.map((_, i) => i + 1));
    expect(scenes.some((s) => s.shots.some((shot) => shot.characters.includes('c-silas')))).toBe(true);
    // Ids in the order given when the studio sends none.
    const plain = (await post(body(), user.token)).json().data.screenplay;
    expect(plain.characters.map((c: { id: string }) => c.id)).toEqual(['character-1', 'character-2']);
  });

  it('writes a different screenplay for a different concept (seeded by the input)', async () => {
    const a = (await post(rich(), user.token)).json().data.screenplay;
    const b = (await post(body(), user.token)).json().data.screenplay;
    expect(dialogueOf(b).map((l) => l.content)).not.toEqual(dialogueOf(a).map((l) => l.content));
  });
});
