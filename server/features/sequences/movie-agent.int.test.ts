// The movie agent maps images to the script's scenes in order, keeps each scene's place and time of day,
// and describes what each image holds (measured from its pixels), within the prompt limit.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MovieAgentReply } from '../../../common/api/sequences.ts';
import { SEQUENCE_LIMITS } from '../../../common/rules/sequences.ts';
import { FakeGemini } from '../../engines/gemini/fake-gemini.ts';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from '../../engines/openai/fake-openai.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let grey: string;

async function agent(payload: object): Promise<MovieAgentReply> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/movie-agent',
    payload,
    headers: authHeader(user.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as MovieAgentReply;
}

const store = async (png: Buffer) => (await storeUpload(t.ctx, user.id, png, 'image/png', 'png')).url;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 10 });
  grey = await store(await solidPng(320, 180, '#808080'));
});
afterAll(async () => {
  await t?.close();
});

const THREE = `EXT. MOUNTAIN ROAD - DAY
A red car climbs the switchbacks. Dust rises behind it.

INT. FARMHOUSE KITCHEN - NIGHT
Anna drops the letter on the table. The kettle screams.

EXT. LAKE PIER - DUSK
Tom waits at the end of the pier. The water turns orange.`;

describe('POST /api/ai/movie-agent: scenes to images', () => {
  it('gives each of three images its own scene in order; the NIGHT kitchen is night, never daylight', async () => {
    const images = ['a', 'b', 'c'].map((id) => ({ id, imageUrl: grey, prompt: '' }));
    const reply = await agent({ movieScript: THREE, images });
    expect(reply.videoPrompts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    const [road, kitchen, pier] = reply.videoPrompts.map((p) => p.prompt.toLowerCase());
    expect(road).toContain('red car');
    expect(road).toContain('mountain road');
    expect(kitchen).toContain('anna drops the letter');
    expect(kitchen).toContain('kitchen');
    expect(kitchen).toContain('night');
    expect(kitchen).not.toContain('daylight');
    expect(kitchen).not.toContain('sunlit');
    expect(pier).toContain('tom waits');
    expect(pier).toContain('dusk');
    expect(pier).not.toContain('daylight');
  });

  it('uses every scene when there are as many images as scenes, and spreads fewer images over the script', async () => {
    const five = [1, 2, 3, 4, 5]
      .map((n) => `${n % 2 ? 'EXT.' : 'INT.'} PLACE${n} - ${n % 2 ? 'DAY' : 'NIGHT'}\nThing${n} happens here.`)
      .join('\n\n');
    const images = [1, 2, 3, 4, 5].map((n) => ({ id: `i${n}`, imageUrl: grey, prompt: '' }));
    const reply = await agent({ movieScript: five, images });
    expect(reply.analysis.sceneCount).toBe(5);
    reply.videoPrompts.forEach((p, i) => {
      expect(p.prompt.toLowerCase()).toContain(`thing${i + 1} happens`);
    });
    // Six images on three scenes: two each, in order; two images on three scenes: the first and the last.
    const six = await agent({ movieScript: THREE, images: [...images, { id: 'i6', imageUrl: grey }] });
    expect(
      six.videoPrompts.map((p) => (/red car|dust/i.test(p.prompt) ? 1 : /anna|kettle/i.test(p.prompt) ? 2 : 3)),
    ).toEqual([1, 1, 2, 2, 3, 3]);
    const two = await agent({ movieScript: THREE, images: images.slice(0, 2) });
    expect(two.videoPrompts[0]?.prompt).toMatch(/red car/i);
    expect(two.videoPrompts[1]?.prompt).toMatch(/tom waits/i);
  });

  it('describes what each image holds, measured from its pixels', async () => {
    const darkBlue = await store(await solidPng(1280, 720, '#0f1a5a'));
    const brightYellow = await store(await solidPng(600, 900, '#f5e050'));
    const reply = await agent({
      movieScript: THREE,
      images: [
        { id: 'blue', imageUrl: darkBlue },
        { id: 'yellow', imageUrl: brightYellow, prompt: 'Manually pinned: y.png' },
        { id: 'grey', imageUrl: grey, prompt: 'a lone heron' },
      ],
    });
    const [blue, yellow, g] = reply.videoPrompts.map((p) => p.prompt);
    expect(blue).toMatch(/1280×720 landscape frame/);
    expect(blue).toMatch(/\bdark\b/);
    expect(blue).toMatch(/dark blue/);
    expect(blue).not.toMatch(/yellow/);
    expect(yellow).toMatch(/600×900 portrait frame/);
    expect(yellow).toMatch(/\bbright\b/);
    expect(yellow).toMatch(/yellow/);
    expect(yellow).not.toContain('Manually pinned');
    expect(g).toMatch(/dominant grey/);
    expect(g).toContain('a lone heron');

    // A frame with a white square in the upper left: the composition says where the eye goes.
    const framed = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#202020' } })
      .composite([{ input: await solidPng(200, 150, '#ffffff'), top: 20, left: 20 }])
      .png()
      .toBuffer();
    const composed = await agent({ movieScript: THREE, images: [{ id: 'f', imageUrl: await store(framed) }] });
    expect(composed.videoPrompts[0]?.prompt).toContain('bright focal point in the upper left');
  });

  it('keeps every prompt within the sequence video prompt limit, keeping the setting and the image facts', async () => {
    const long = `INT. FARMHOUSE KITCHEN - NIGHT\n${'Anna paces by the stove and counts the seconds. '.repeat(200)}`;
    const reply = await agent({
      movieScript: long,
      images: [{ id: 'a', imageUrl: grey, prompt: 'x'.repeat(3900) }],
    });
    const prompt = reply.videoPrompts[0]?.prompt ?? '';
    expect(prompt.length).toBeLessThanOrEqual(SEQUENCE_LIMITS.videoPromptMaxChars);
    expect(prompt).toContain('The frame: 320×180 landscape frame');
    const plain = await agent({ movieScript: long });
    for (const p of plain.videoPrompts)
      expect(p.prompt.length).toBeLessThanOrEqual(SEQUENCE_LIMITS.videoPromptMaxChars);
  });
});

describe('POST /api/ai/movie-agent with a vendor LLM that sees', () => {
  let fake: FakeOpenAi;
  let vendor: TestApp;
  const plan = {
    scenes: [
      {
        sceneNumber: 1,
        heading: 'EXT. MOUNTAIN ROAD - DAY',
        summary: 'car',
        shots: [
          {
            shotType: 'wide shot',
            cameraMovement: 'crane up',
            prompt: 'a red car on the switchbacks, bright natural daylight',
            durationSeconds: 6,
          },
        ],
      },
      {
        sceneNumber: 2,
        heading: 'INT. FARMHOUSE KITCHEN - NIGHT',
        summary: 'letter',
        shots: [
          {
            shotType: 'close-up',
            cameraMovement: 'push-in',
            prompt: 'Anna drops the letter, bright natural daylight, steam from the kettle',
            durationSeconds: 5,
          },
        ],
      },
      {
        sceneNumber: 3,
        heading: 'EXT. LAKE PIER - DUSK',
        summary: 'pier',
        shots: [
          {
            shotType: 'wide shot',
            cameraMovement: 'dolly',
            prompt: 'Tom waits on the pier at dusk',
            durationSeconds: 7,
          },
        ],
      },
    ],
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.fallback = (body) => {
      const format = body.response_format as { json_schema?: { name?: string } } | undefined;
      return format?.json_schema?.name === 'movie_plan'
        ? chatReply(JSON.stringify(plan))
        : chatReply('A grey heron stands in still water under a flat, overcast sky.');
    };
    vendor = await createTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' } });
  });
  afterAll(async () => {
    await vendor?.close();
    await fake?.close();
  });

  it('shows each image to the vision model and writes what it saw, the measured facts and the scene’s time', async () => {
    const owner = await createTestUser(vendor.ctx.db, { credits: 10 });
    const url = (await storeUpload(vendor.ctx, owner.id, await solidPng(640, 360, '#777777'), 'image/png', 'png')).url;
    const res = await vendor.app.inject({
      method: 'POST',
      url: '/api/ai/movie-agent',
      headers: authHeader(owner.token),
      payload: { movieScript: THREE, images: ['a', 'b', 'c'].map((id) => ({ id, imageUrl: url })) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as MovieAgentReply;
    expect(reply.analysis.engine).toBe('openai');
    const [road, kitchen, pier] = reply.videoPrompts.map((p) => p.prompt);
    expect(road).toContain('a red car on the switchbacks, bright natural daylight');
    // The vendor lit the NIGHT kitchen with daylight: that phrase is dropped and the scene's night is said.
    expect(kitchen).toContain('Anna drops the letter');
    expect(kitchen).not.toContain('daylight');
    expect(kitchen).toContain('Setting: interior farmhouse kitchen at night');
    expect(pier).toContain('Tom waits on the pier at dusk');
    for (const prompt of [road, kitchen, pier]) {
      expect(prompt).toContain('The frame: A grey heron stands in still water under a flat, overcast sky');
      expect(prompt).toContain('640×360 landscape frame');
    }
    // One vision call for the one distinct image (a JPEG data URI after the text), then the plan.
    const vision = fake.requests.filter((r) => !r.body.response_format);
    expect(vision).toHaveLength(1);
    const content = ((vision[0]?.body.messages ?? []) as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === 'user',
    )?.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(content.map((c) => c.type)).toEqual(['text', 'image_url']);
    expect(content[1]?.image_url?.url).toMatch(/^data:image\/jpeg;base64,/);
    const planRequest = fake.requests.find((r) => r.body.response_format);
    const sent = JSON.stringify(planRequest?.body.messages);
    expect(sent).toContain('A grey heron stands in still water');
    expect(sent).toContain('interior farmhouse kitchen at night');
  });
});

describe('POST /api/ai/movie-agent with Gemini as the text model', () => {
  let gemini: FakeGemini;
  let app: TestApp;
  beforeAll(async () => {
    gemini = await new FakeGemini({ apiKey: 'k', video: Buffer.alloc(0) }).start();
    gemini.textReply = 'A lighthouse stands on black rocks under a violet sky.';
    gemini.jsonReply = {
      scenes: [1, 2, 3].map((n) => ({
        sceneNumber: n,
        heading: `SCENE ${n}`,
        summary: `scene ${n}`,
        shots: [{ shotType: 'wide shot', cameraMovement: 'static', prompt: `gemini shot ${n}`, durationSeconds: 5 }],
      })),
    };
    app = await createTestApp({ env: { GEMINI_API_KEY: 'k', GEMINI_API_BASE: gemini.base } });
  });
  afterAll(async () => {
    await app?.close();
    await gemini?.close();
  });

  it('sends the image to Gemini inline and writes what it saw into the prompt', async () => {
    const owner = await createTestUser(app.ctx.db, { credits: 10 });
    const url = (await storeUpload(app.ctx, owner.id, await solidPng(400, 400, '#553377'), 'image/png', 'png')).url;
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/ai/movie-agent',
      headers: authHeader(owner.token),
      payload: { movieScript: THREE, images: [{ id: 'a', imageUrl: url }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as MovieAgentReply;
    expect(reply.analysis.engine).toBe('gemini');
    expect(reply.videoPrompts[0]?.prompt).toContain('gemini shot 2');
    expect(reply.videoPrompts[0]?.prompt).toContain(
      'The frame: A lighthouse stands on black rocks under a violet sky (400×400 square frame',
    );
    const vision = gemini.requests.find((r) => {
      const parts = (r.body as { contents?: Array<{ parts: Array<Record<string, unknown>> }> })?.contents?.[0]?.parts;
      return parts?.some((p) => p.inlineData);
    });
    const sent = vision?.body as
      | { contents: Array<{ parts: Array<{ inlineData?: { mimeType: string } }> }> }
      | undefined;
    const parts = sent?.contents[0]?.parts;
    expect(parts?.[1]?.inlineData?.mimeType).toBe('image/jpeg');
  });
});
