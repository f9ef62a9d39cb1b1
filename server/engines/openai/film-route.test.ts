// The film agent route writing its screenplay through a fake OpenAI-compatible server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authHeader, createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from './fake-openai.ts';

let fake: FakeOpenAi;
let t: TestApp;

// The film agent's draft (common/api/film.ts filmScreenplayDraft).
const shot = (prompt: string) => ({
  type: 'close-up',
  description: 'the lamp',
  cameraMovement: 'dolly in',
  prompt,
  duration: 6,
  characters: ['Mara'],
});
const screenplay = {
  logline: 'A keeper holds the light against the sea.',
  themes: ['duty'],
  acts: ['Setup', 'Confrontation', 'Resolution'].map((title, i) => ({
    title,
    description: `${title} of the story.`,
    plotPoints: [`${title} beat`],
    scenes: [
      {
        heading: { location: 'EXT. LIGHTHOUSE GALLERY', timeOfDay: `NIGHT ${i + 1}`, description: 'The gallery.' },
        description: `Mara faces the storm, part ${i + 1}.`,
        mood: 'tense',
        purpose: 'Test the keeper.',
        elements: [
          { type: 'action', content: 'Rain.', character: '' },
          { type: 'dialogue', content: `Hold, part ${i + 1}.`, character: 'Mara' },
        ],
        shots: [shot(`storm lashing the lighthouse, act ${i + 1}`)],
      },
    ],
  })),
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.fallback = () => chatReply(JSON.stringify(screenplay));
  t = await createTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

it('POST /api/ai/film-agent writes the screenplay the OpenAI-compatible server answered', async () => {
  const user = await createTestUser(t.ctx.db, { credits: 10 });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/film-agent',
    headers: authHeader(user.token),
    payload: {
      concept: {
        title: 'The Last Lighthouse',
        description: 'A keeper guards the last lighthouse on a drowning coast',
        genre: 'drama',
        tone: 'dramatic',
        targetDuration: 90,
      },
      characters: [{ name: 'Mara', role: 'protagonist', ageGroup: '36-45', relationships: [] }],
      generationType: 'screenplay',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { screenplay: written, metadata } = res.json().data;
  expect(metadata.engine).toBe('openai');
  expect(written.acts).toHaveLength(3);
  expect(written.acts[0].scenes[0].heading.location).toBe('EXT. LIGHTHOUSE GALLERY');
  expect(written.acts[2].scenes[0].shots[0].prompt).toBe('storm lashing the lighthouse, act 3');

  expect(fake.requests).toHaveLength(1);
  const sent = fake.requests[0].body;
  expect(sent.model).toBe('fake-model');
  expect((sent.response_format as { json_schema: { name: string; strict: boolean } }).json_schema).toMatchObject({
    name: 'screenplay',
    strict: true,
  });
  const user0 = (sent.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user');
  expect(user0?.content).toContain('Mara');
});
