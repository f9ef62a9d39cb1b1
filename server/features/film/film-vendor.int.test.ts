// The film agent with a vendor LLM (a fake OpenAI-compatible server): the screenplay, its dialogue included,
// is the LLM's own; an answer that does not follow the schema gets one repair call, then a clear 502.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FilmScreenplayDraft } from '../../../common/api/film.ts';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import { FILM_MESSAGES } from '../../../common/rules/film.ts';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from '../../engines/openai/fake-openai.ts';
import { authHeader, createTestUser, creditsOf } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let fake: FakeOpenAi;
let t: TestApp;

const LINES = [
  'The lamp has not missed a night in forty years.',
  'Then let it miss one, Mara. Come inside.',
  'Jonah, the fog horn is calling for you again.',
  'I hear it. I have always heard it.',
];

function draft(): FilmScreenplayDraft {
  return {
    logline: 'Mara, the last keeper, fights to keep the light alive while her brother Jonah sells the island.',
    themes: ['duty', 'letting go'],
    acts: ['Setup', 'Confrontation', 'Resolution'].map((title, a) => ({
      title,
      description: `${title} of the lighthouse story.`,
      plotPoints: [`${title}: the light flickers.`],
      scenes: [
        {
          heading: {
            location: 'EXT. LIGHTHOUSE GALLERY',
            timeOfDay: a === 1 ? 'DAWN' : 'NIGHT',
            description: 'The iron gallery around the lamp, rain on the glass.',
          },
          description: `Mara tends the lamp, part ${a + 1}.`,
          mood: 'brooding',
          purpose: 'Show what Mara guards.',
          elements: [
            { type: 'action', content: `Rain lashes the glass, part ${a + 1}.`, character: '' },
            { type: 'dialogue', content: LINES[(a * 2) % LINES.length] ?? '', character: a === 1 ? 'Jonah' : 'Mara' },
            { type: 'parenthetical', content: '(softly)', character: 'Jonah' },
            { type: 'dialogue', content: `${LINES[(a * 2 + 1) % LINES.length]} (${a + 1})`, character: 'Jonah' },
            { type: 'transition', content: 'CUT TO:', character: '' },
          ],
          shots: [
            {
              type: 'close-up',
              description: 'Mara’s hands on the brass.',
              prompt: `storm lashing the lighthouse, act ${a + 1}`,
              duration: 6,
              cameraMovement: 'dolly in',
              characters: ['Mara', 'Jonah', 'Nobody'],
            },
          ],
        },
      ],
    })),
  };
}

const payload = {
  concept: {
    title: 'The Last Lighthouse',
    description: 'A keeper guards the last lighthouse on a drowning coast',
    genre: 'drama',
    tone: 'dramatic',
    targetDuration: 90,
    setting: { location: 'a drowning coast' },
  },
  characters: [
    { id: 'mara', name: 'Mara', role: 'protagonist', goal: 'keep the light burning', relationships: [] },
    { id: 'jonah', name: 'Jonah', role: 'antagonist', relationships: [] },
  ],
  generationType: 'screenplay',
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.replies.length = 0;
  fake.fallback = () => chatReply(JSON.stringify(draft()));
});

async function call() {
  const user = await createTestUser(t.ctx.db, { credits: 10 });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/film-agent',
    headers: authHeader(user.token),
    payload,
  });
  return { res, user };
}

describe('POST /api/ai/film-agent with a vendor LLM', () => {
  it('answers with the LLM’s screenplay: its dialogue, headings and shots, with the service’s ids and formatting', async () => {
    const { res, user } = await call();
    expect(res.statusCode, res.body).toBe(200);
    const { screenplay, metadata } = res.json().data;
    expect(metadata.engine).toBe('openai');
    expect(screenplay.writtenBy).toBe('GenPro Film Agent (openai: fake-model)');
    expect(screenplay.themes).toEqual(['duty', 'letting go']);
    const scenes = screenplay.acts.flatMap((a: { scenes: unknown[] }) => a.scenes) as Array<{
      heading: { location: string; timeOfDay: string };
      elements: Array<{
        id: string;
        type: string;
        content: string;
        character?: string;
        formatting: { alignment: string };
      }>;
      shots: Array<{ prompt: string; characters: string[] }>;
    }>;
    const sent = draft().acts.flatMap((a) => a.scenes);
    expect(scenes.map((s) => s.elements.filter((e) => e.type === 'dialogue').map((e) => e.content))).toEqual(
      sent.map((s) => s.elements.filter((e) => e.type === 'dialogue').map((e) => e.content)),
    );
    expect(scenes[1]?.heading).toEqual(sent[1]?.heading);
    expect(scenes[0]?.elements.map((e) => e.character ?? '')).toEqual(['', 'MARA', 'JONAH', 'JONAH', '']);
    expect(scenes[0]?.elements.map((e) => e.formatting.alignment)).toEqual(['left', 'left', 'left', 'left', 'right']);
    expect(scenes[2]?.shots[0]).toMatchObject({
      prompt: 'storm lashing the lighthouse, act 3',
      characters: ['mara', 'jonah'],
    });
    expect(screenplay.acts.map((a: { pageCount: number }) => a.pageCount)).toEqual([23, 45, 22]);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(10 - TEXT_AGENTS.creditsPerCall);

    // The request: the draft schema, and the whole concept and cast in the context.
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]?.body as {
      response_format: {
        json_schema: { name: string; strict: boolean; schema: { properties: Record<string, unknown> } };
      };
      messages: Array<{ role: string; content: string }>;
    };
    expect(body.response_format.json_schema).toMatchObject({ name: 'screenplay', strict: true });
    expect(Object.keys(body.response_format.json_schema.schema.properties)).toEqual(['logline', 'themes', 'acts']);
    const user0 = body.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user0).toContain('keep the light burning');
    expect(user0).toContain('a drowning coast');
  });

  it('sends an answer that breaks the schema back once with its issues, and uses the repaired one', async () => {
    const broken = { ...draft(), acts: draft().acts.slice(0, 2) };
    fake.replies.push(chatReply(JSON.stringify(broken)));
    const { res } = await call();
    expect(res.statusCode, res.body).toBe(200);
    expect(fake.requests).toHaveLength(2);
    const retry = ((fake.requests[1]?.body.messages ?? []) as Array<{ role: string; content: string }>).find(
      (m) => m.role === 'user',
    );
    expect(retry?.content).toContain('acts: the screenplay must have exactly three acts');
    expect(res.json().data.screenplay.acts).toHaveLength(3);
  });

  it('answers 502 with the issues when the repaired answer is still wrong, and refunds the credit', async () => {
    const noSlug = draft();
    const scene = noSlug.acts[0]?.scenes[0];
    if (scene) scene.heading.location = 'SEA';
    fake.fallback = () => chatReply(JSON.stringify(noSlug));
    const { res, user } = await call();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, error: FILM_MESSAGES.screenplayFailed });
    expect(JSON.stringify(res.json())).toContain('acts.0.scenes.0.heading.location');
    expect(fake.requests).toHaveLength(2);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(10);
  });
});
