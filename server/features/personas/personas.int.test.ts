import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { Persona, PersonaImageReply, PersonaTaskReply } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { PERSONA_IMAGE_TYPES, PERSONA_VIDEO, type PersonaImageType } from '../../../common/rules/personas.ts';
import { mediaObjects, personas, tasks, users } from '../../db/schema/index.ts';
import { createEngineRegistry, createLocalEngines } from '../../engines/registry.ts';
import type { ImageEngine } from '../../engines/types.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const M = MESSAGES.personas;
const ADMIN_EMAIL = 'persona-admin@example.com';

// Which image type a pipeline prompt asks for (the pipeline's per-type direction opens with these words).
const TYPE_MARKERS: Record<PersonaImageType, string> = {
  face_only: 'Close-up headshot',
  portrait: 'Head-and-shoulders portrait',
  full_body: 'Full-body photograph',
  action_shot: 'Dynamic action shot',
  environment: 'Wide environmental photograph',
};
const typeOf = (prompt: string) => PERSONA_IMAGE_TYPES.find((type) => prompt.includes(TYPE_MARKERS[type])) ?? null;

/** Image types the engine refuses while set, and what each pipeline call received. */
const failTypes = new Set<PersonaImageType>();
const calls: Array<{ type: PersonaImageType | null; references: number; width: number }> = [];

function recordingImageEngine(real: ImageEngine): ImageEngine {
  return {
    name: real.name,
    textToImage: async (request, options) => {
      const type = typeOf(request.prompt);
      calls.push({ type, references: request.referenceImages?.length ?? 0, width: request.width });
      if (type && failTypes.has(type)) throw new Error(`engine refused ${type}`);
      return real.textToImage(request, options);
    },
    edit: (request, options) => real.edit(request, options),
    compose: (request, options) => real.compose(request, options),
    inpaint: (request, options) => real.inpaint(request, options),
  };
}

let t: TestApp;
let user: TestUser;
let other: TestUser;
let admin: TestUser;
let broke: TestUser;
let png: Buffer;

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function getPersona(id: string, token = user.token): Promise<Persona> {
  const res = await call('GET', `/api/personas/${id}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Persona }).data;
}

/** Creates a persona and waits for its image task to end. */
async function createAndWait(
  payload: object,
  token = user.token,
): Promise<{ reply: PersonaTaskReply; persona: Persona }> {
  const res = await call('POST', '/api/personas', token, payload);
  expect(res.statusCode, res.body).toBe(200);
  const reply = res.json() as PersonaTaskReply;
  await waitForTask(t.ctx.db, reply.taskId, { timeoutMs: 90_000 });
  return { reply, persona: await getPersona(reply.data.id, token) };
}

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_PERSONA_ADMIN_EMAIL: ADMIN_EMAIL.toUpperCase() },
    engines: (config) => {
      const local = createLocalEngines(config);
      return createEngineRegistry(config, { local: { image: recordingImageEngine(local.image) } });
    },
  });
  user = await createTestUser(t.ctx.db, { credits: 500 });
  other = await createTestUser(t.ctx.db, { credits: 500 });
  admin = await createTestUser(t.ctx.db, { credits: 500, role: 'admin' });
  await t.ctx.db.update(users).set({ email: ADMIN_EMAIL }).where(eq(users.id, admin.id));
  broke = await createTestUser(t.ctx.db, { credits: 5 * LOCAL_PREVIEW_PRICES.personaImage - 1 });
  png = await solidPng(320, 320, '#cc8844');
});
afterAll(async () => {
  await t?.close();
});

const base = { name: 'Lina Hart', description: 'A calm yoga teacher who films sunrise routines on the beach' };

describe('without a session', () => {
  it('every persona route answers 401', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: Array<['GET' | 'POST' | 'DELETE', string]> = [
      ['GET', '/api/personas'],
      ['GET', `/api/personas/${id}`],
      ['POST', '/api/personas'],
      ['POST', `/api/personas/${id}/update-images`],
      ['POST', `/api/personas/${id}/regenerate`],
      ['DELETE', `/api/personas/${id}`],
      ['POST', `/api/personas/${id}/video`],
      ['POST', `/api/personas/${id}/image`],
      ['POST', `/api/personas/${id}/ugc-video`],
    ];
    for (const [method, url] of routes) {
      const res = await call(method, url, undefined, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('POST /api/personas validation', () => {
  it('needs a name and a description', async () => {
    for (const payload of [{ description: 'x' }, { name: 'x' }, { name: '  ', description: 'x' }]) {
      const res = await call('POST', '/api/personas', user.token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Please fill in the required fields: Name and Description');
    }
  });

  it('allows at most 4 character images, each an image the user uploaded', async () => {
    const mine = await Promise.all(
      [1, 2, 3, 4, 5].map(
        async (i) => (await storeUpload(t.ctx, user.id, await solidPng(64 + i, 64, '#123456'), 'image/png', 'png')).url,
      ),
    );
    const five = await call('POST', '/api/personas', user.token, { ...base, custom_images: mine });
    expect(five.statusCode).toBe(400);
    expect(five.json().error).toBe(M.tooManyCharacterImages(4));
    const merged = await call('POST', '/api/personas', user.token, {
      ...base,
      custom_images: mine.slice(0, 3),
      characterImages: mine.slice(3, 5),
    });
    expect(merged.statusCode).toBe(400);
    expect(merged.json().error).toBe(M.tooManyCharacterImages(4));

    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    const foreign = await call('POST', '/api/personas', user.token, { ...base, characterImages: [theirs.url] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe(M.characterImageNotOwn);
    const outside = await call('POST', '/api/personas', user.token, {
      ...base,
      characterImages: ['https://example.com/a.png'],
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toBe(M.characterImageNotOwn);
  });

  it('checks the option lists and the license price', async () => {
    const cases: Array<[object, string]> = [
      [{ nationality: 'Martian' }, M.nationalityUnknown],
      [{ language: 'Klingon' }, M.languageUnknown],
      [{ personality: 'Grumpy' }, M.personalityUnknown],
      [{ license_type: 'rented' }, M.licenseTypeUnknown],
      [{ license_type: 'premium', license_price: -1 }, M.licensePriceInvalid],
      [{ license_type: 'premium', license_price: 1.234 }, M.licensePriceInvalid],
    ];
    for (const [extra, message] of cases) {
      const res = await call('POST', '/api/personas', user.token, { ...base, ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });

  it('refuses a public persona for anyone but the designated admin account (403)', async () => {
    const res = await call('POST', '/api/personas', user.token, { ...base, isPublic: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(M.publicNotAllowed);
    // Another admin is not the designated account either.
    const otherAdmin = await createTestUser(t.ctx.db, { role: 'admin', credits: 100 });
    expect((await call('POST', '/api/personas', otherAdmin.token, { ...base, isPublic: true })).statusCode).toBe(403);
    expect(await t.ctx.db.select().from(personas).where(eq(personas.userId, user.id))).toHaveLength(0);
    // The list tells the web whether to offer the public switch.
    expect((await call('GET', '/api/personas', user.token)).json().permissions).toEqual({ canCreatePublic: false });
    expect((await call('GET', '/api/personas', admin.token)).json().permissions).toEqual({ canCreatePublic: true });
  });

  it('answers 402 when the credits are short and keeps no persona', async () => {
    const res = await call('POST', '/api/personas', broke.token, base);
    expect(res.statusCode).toBe(402);
    expect(await t.ctx.db.select().from(personas).where(eq(personas.userId, broke.id))).toHaveLength(0);
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(5 * LOCAL_PREVIEW_PRICES.personaImage - 1);
  });
});

let lina: Persona;

describe('the creation pipeline', () => {
  it('writes the persona first, then makes five images conditioned on face_only, and ends ready at 100', async () => {
    const upload = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const before = await creditsOf(t.ctx.db, user.id);
    calls.length = 0;
    const res = await call('POST', '/api/personas', user.token, {
      ...base,
      personality: 'Friendly & Approachable',
      targetAudience: 'busy parents',
      nationality: 'Portuguese',
      characterImages: [upload.url],
      tags: [' Yoga ', 'wellness', 'yoga', '', 'Wellness'],
      license_type: 'premium',
      license_price: 49.5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as PersonaTaskReply;
    expect(reply.data).toMatchObject({
      name: 'Lina Hart',
      status: 'generating',
      generation_progress: 0,
      personality: 'Friendly & Approachable',
      target_audience: 'busy parents',
      targetAudience: 'busy parents',
      nationality: 'Portuguese',
      language: 'English',
      tags: ['Yoga', 'wellness'],
      isPublic: false,
      isOwner: true,
      license_type: 'premium',
      license_price: 49.5,
      usage_count: 0,
      totalReach: null,
      total_engagement: null,
      characterImages: [upload.url],
    });
    expect(reply.creditsReserved).toBe(5 * LOCAL_PREVIEW_PRICES.personaImage);
    expect(reply.statusUrl).toBe(`/api/tasks/${reply.taskId}`);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 5 * LOCAL_PREVIEW_PRICES.personaImage);

    const task = await waitForTask(t.ctx.db, reply.taskId, { timeoutMs: 90_000 });
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    lina = await getPersona(reply.data.id);
    expect(lina.status).toBe('ready');
    expect(lina.generation_progress).toBe(100);
    expect(lina.generation_error).toBeNull();
    expect(lina.images.map((i) => [i.type, i.status])).toEqual(PERSONA_IMAGE_TYPES.map((type) => [type, 'ready']));
    expect(lina.avatar).toBe(lina.ai_generated_images.face_only);

    // Base first, then the other four, each conditioned on the face (plus the character image).
    expect(calls.map((c) => c.type)).toEqual([...PERSONA_IMAGE_TYPES]);
    expect(calls[0].references).toBe(1);
    for (const c of calls.slice(1)) expect(c.references).toBe(2);

    for (const image of lina.images) {
      const url = image.url as string;
      expect(url.startsWith('/api/personas/image/')).toBe(true);
      const key = url.slice('/api/personas/image/'.length);
      expect(key.startsWith(`persona/${lina.id}/`)).toBe(true);
      const meta = await sharp(await readAll(await t.ctx.storage.read(key))).metadata();
      expect(meta.width).toBe(1024);
      expect(meta.height).toBe(1024);
      const [object] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, key));
      expect(object).toMatchObject({ personaId: lina.id, userId: user.id, storageClass: 'persona' });
      const served = await call('GET', url, user.token);
      expect(served.statusCode).toBe(200);
      expect(image.thumbnail_url).toMatch(/^\/api\/images\//);
    }

    const assetsRes = await call('GET', `/api/ai/assets?persona_id=${lina.id}`, user.token);
    const list = (assetsRes.json() as { data: Asset[] }).data;
    expect(list).toHaveLength(5);
    for (const asset of list) {
      expect(asset.persona_id).toBe(lina.id);
      expect(asset.credits_used).toBe(LOCAL_PREVIEW_PRICES.personaImage);
      expect(PERSONA_IMAGE_TYPES).toContain(asset.metadata.persona_image_type);
    }
    expect(new Set(list.map((a) => a.id))).toEqual(new Set(lina.images.map((i) => i.asset_id)));
  }, 120_000);

  it('searches own and public personas by name, description and tags', async () => {
    const search = async (q: string, token = user.token) => {
      const res = await call('GET', `/api/personas?search=${encodeURIComponent(q)}`, token);
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: Persona[] }).data.map((p) => p.id);
    };
    expect(await search('lina')).toEqual([lina.id]);
    expect(await search('SUNRISE')).toEqual([lina.id]);
    expect(await search('wellness')).toEqual([lina.id]);
    expect(await search('nobody-like-this')).toEqual([]);
    expect(await search('100%')).toEqual([]);
    expect(await search('lina', other.token)).toEqual([]);
    const ready = await call('GET', '/api/personas?status=ready', user.token);
    expect((ready.json() as { data: Persona[] }).data.map((p) => p.id)).toEqual([lina.id]);
    expect((await call('GET', `/api/personas/${lina.id}`, other.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/personas/not-a-uuid', user.token)).statusCode).toBe(404);
  });

  it('lets the designated admin create a public persona everyone sees but only the admin changes', async () => {
    const res = await call('POST', '/api/personas', admin.token, {
      name: 'Public Pat',
      description: 'A friendly city guide',
      isPublic: true,
      tags: ['travel'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as PersonaTaskReply;
    expect(reply.data.isPublic).toBe(true);
    await waitForTask(t.ctx.db, reply.taskId, { timeoutMs: 90_000 });
    const seen = await call('GET', '/api/personas?search=travel', other.token);
    const found = (seen.json() as { data: Persona[] }).data;
    expect(found.map((p) => p.id)).toEqual([reply.data.id]);
    expect(found[0]).toMatchObject({ isOwner: false, status: 'ready' });
    // Its images are public objects: another user can load them.
    const face = found[0].ai_generated_images.face_only as string;
    expect((await call('GET', face, other.token)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', `/api/personas/${reply.data.id}/regenerate`, {}],
      ['POST', `/api/personas/${reply.data.id}/update-images`, { ai_generated_images: { portrait: face } }],
      ['DELETE', `/api/personas/${reply.data.id}`, undefined],
    ] as const) {
      expect((await call(method, url, other.token, payload)).statusCode, url).toBe(404);
    }
  }, 120_000);
});

describe('failures in the pipeline', () => {
  it('an image that fails becomes a placeholder (refunded), the persona is still ready, and it can be regenerated', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    failTypes.add('environment');
    const { reply, persona } = await createAndWait({ name: 'Omar Reyes', description: 'A street food reviewer' });
    failTypes.clear();
    expect(persona.status).toBe('ready');
    expect(persona.generation_progress).toBe(100);
    expect(persona.generation_error).toBe(M.imagesSaveFailed);
    const env = persona.images.find((i) => i.type === 'environment');
    expect(env).toMatchObject({
      status: 'placeholder',
      url: null,
      asset_id: null,
      error: MESSAGES.generation.imageFailed,
    });
    expect(persona.ai_generated_images.environment).toBeNull();
    expect(persona.images.filter((i) => i.status === 'ready')).toHaveLength(4);
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, reply.taskId));
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({
      placeholders: ['environment'],
      creditsRefunded: LOCAL_PREVIEW_PRICES.personaImage,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 4 * LOCAL_PREVIEW_PRICES.personaImage);

    const regen = await call('POST', `/api/personas/${persona.id}/regenerate`, user.token, {
      imageType: 'environment',
    });
    expect(regen.statusCode, regen.body).toBe(200);
    const regenReply = regen.json() as PersonaTaskReply;
    expect(regenReply.creditsReserved).toBe(LOCAL_PREVIEW_PRICES.personaImage);
    expect(regenReply.data.status).toBe('generating');
    // Still generating: a second regeneration or an image update must wait.
    expect((await call('POST', `/api/personas/${persona.id}/regenerate`, user.token, {})).statusCode).toBe(409);
    await waitForTask(t.ctx.db, regenReply.taskId, { timeoutMs: 60_000 });
    const after = await getPersona(persona.id);
    expect(after.status).toBe('ready');
    expect(after.generation_progress).toBe(100);
    expect(after.generation_error).toBeNull();
    expect(after.images.every((i) => i.status === 'ready')).toBe(true);
    // The other four are untouched.
    for (const type of ['face_only', 'portrait', 'full_body', 'action_shot'] as const) {
      expect(after.ai_generated_images[type]).toBe(persona.ai_generated_images[type]);
    }
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 5 * LOCAL_PREVIEW_PRICES.personaImage);
  }, 120_000);

  it('a base face_only failure ends the task with the spec message, placeholders everywhere and a full refund', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    failTypes.add('face_only');
    const { reply, persona } = await createAndWait({ name: 'Nadia Stone', description: 'A climbing coach' });
    failTypes.clear();
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, reply.taskId));
    expect(task.status).toBe('failed');
    expect(task.error).toEqual({ code: 'persona_base_failed', message: 'Failed to generate base face_only image.' });
    expect(persona.status).toBe('failed');
    expect(persona.generation_error).toBe('Failed to generate base face_only image.');
    expect(persona.images.every((i) => i.status === 'placeholder' && i.url === null)).toBe(true);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    // The directory (ready only) does not list it.
    const ready = await call('GET', '/api/personas?status=ready&search=Nadia', user.token);
    expect((ready.json() as { data: Persona[] }).data).toEqual([]);

    // Regenerating one image of a persona without a base makes the base too.
    const regen = await call('POST', `/api/personas/${persona.id}/regenerate`, user.token, { imageType: 'portrait' });
    const regenReply = regen.json() as PersonaTaskReply;
    expect(regenReply.creditsReserved).toBe(2 * LOCAL_PREVIEW_PRICES.personaImage);
    await waitForTask(t.ctx.db, regenReply.taskId, { timeoutMs: 60_000 });
    const fixed = await getPersona(persona.id);
    expect(fixed.status).toBe('ready');
    expect(fixed.images.filter((i) => i.status === 'ready').map((i) => i.type)).toEqual(['face_only', 'portrait']);
  }, 120_000);

  it('a regeneration where no image succeeds fails with the spec message and keeps the old image', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    failTypes.add('portrait');
    const regen = await call('POST', `/api/personas/${lina.id}/regenerate`, user.token, { imageType: 'portrait' });
    expect(regen.statusCode).toBe(200);
    const task = await waitForTask(t.ctx.db, (regen.json() as PersonaTaskReply).taskId, { timeoutMs: 60_000 });
    failTypes.clear();
    expect(task.status).toBe('failed');
    expect(task.error).toEqual({ code: 'persona_no_images', message: 'Failed to generate any images.' });
    const after = await getPersona(lina.id);
    expect(after.status).toBe('ready');
    expect(after.generation_error).toBe('Failed to generate any images.');
    expect(after.ai_generated_images.portrait).toBe(lina.ai_generated_images.portrait);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  }, 60_000);
});

describe('POST /api/personas/{id}/update-images', () => {
  it('sets images from the user’s library and refuses others’ media', async () => {
    const mine = await storeUpload(t.ctx, user.id, await solidPng(200, 300, '#225588'), 'image/png', 'png');
    const res = await call('POST', `/api/personas/${lina.id}/update-images`, user.token, {
      ai_generated_images: { action_shot: mine.url },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = (res.json() as { data: Persona }).data;
    expect(updated.ai_generated_images.action_shot).toBe(mine.url);
    expect(updated.ai_generated_images.portrait).toBe(lina.ai_generated_images.portrait);

    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    const foreign = await call('POST', `/api/personas/${lina.id}/update-images`, user.token, {
      ai_generated_images: { portrait: theirs.url },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe(M.imageNotOwn);
    const empty = await call('POST', `/api/personas/${lina.id}/update-images`, user.token, { ai_generated_images: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(M.imagesRequired);
    const unknownType = await call('POST', `/api/personas/${lina.id}/update-images`, user.token, {
      ai_generated_images: { selfie: mine.url },
    });
    expect(unknownType.statusCode).toBe(400);
    expect(
      (
        await call('POST', `/api/personas/${lina.id}/update-images`, other.token, {
          ai_generated_images: { portrait: theirs.url },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('persona video, image and UGC video', () => {
  it('validates the video request with the spec messages', async () => {
    const cases: Array<[object, string]> = [
      [{ imageType: 'portrait' }, M.videoPromptRequired],
      [{ prompt: '   ', imageType: 'portrait' }, M.videoPromptRequired],
      [{ prompt: 'x'.repeat(501), imageType: 'portrait' }, M.videoPromptTooLong(500)],
      [{ prompt: 'Wave at the camera' }, M.imageTypeRequired],
      [{ prompt: 'Wave', imageType: 'portrait', duration: 6 }, M.durationInvalid],
      [{ prompt: 'Wave', imageType: 'portrait', aspectRatio: '1:1' }, M.aspectRatioInvalid],
      [{ prompt: 'Wave', imageType: 'portrait', product_images: ['a', 'b', 'c'] }, M.tooManyProductImages(2)],
      [{ prompt: 'Wave', imageType: 'portrait', productPrompt: 'p'.repeat(301) }, M.productPromptTooLong(300)],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', `/api/personas/${lina.id}/video`, user.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const ok500 = { prompt: 'x'.repeat(500), imageType: 'portrait' };
    expect((await call('POST', `/api/personas/${lina.id}/video`, other.token, ok500)).statusCode).toBe(404);
  });

  it('starts a Veo video with the spec parameters for the persona video price and saves it with persona_id', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const product = await storeUpload(t.ctx, user.id, await solidPng(128, 128, '#ffffff'), 'image/png', 'png');
    const res = await call('POST', `/api/personas/${lina.id}/video`, user.token, {
      prompt: 'Lina waves and smiles at the camera',
      imageType: 'portrait',
      duration: 5,
      aspectRatio: '9:16',
      product_images: [product.url],
      productPrompt: 'She holds the water bottle',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      data: { taskId: string; statusUrl: string } & Record<string, unknown>;
      creditsUsed: number;
    };
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.personaVideo);
    expect(body.data).toMatchObject({
      status: 'processing',
      creditsReserved: LOCAL_PREVIEW_PRICES.personaVideo,
      statusUrl: '/api/proxy/google/veo/status',
      personaId: lina.id,
      imageType: 'portrait',
      model: 'veo-3.0-generate-001',
      duration: 5,
      aspectRatio: '9:16',
      resolution: '1080p',
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.personaVideo);
    const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, body.data.taskId));
    const input = row.input as {
      params: Record<string, unknown>;
      plan: Record<string, unknown>;
      generateAudio: boolean;
    };
    expect(input.params).toMatchObject({
      model: PERSONA_VIDEO.model,
      duration: 5,
      aspectRatio: '9:16',
      resolution: '1080p',
      creativity: 0.6,
      styleStrength: 0.85,
      motionIntensity: 0.5,
      generateAudio: true,
      personGeneration: 'allow_adult',
      persona_id: lina.id,
      original_prompt: 'Lina waves and smiles at the camera',
    });
    expect(String(input.params.prompt)).toContain('She holds the water bottle');
    expect(input.generateAudio).toBe(true);
    expect(input.plan).toMatchObject({ mode: 'image-to-video', firstFrame: lina.ai_generated_images.portrait });
    expect(input.plan.references).toEqual([lina.ai_generated_images.face_only, product.url]);

    const done = await waitForTask(t.ctx.db, body.data.taskId, { timeoutMs: 180_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const status = await call('POST', body.data.statusUrl, user.token, { taskId: body.data.taskId });
    expect(status.json().data).toMatchObject({ status: 'completed', progress: 100 });
    // The spec's client polls without a session or with its placeholder token: here both are refused
    // (docs/decisions.md, 'The five calls the spec sends without a session').
    for (const token of [undefined, '{secret}']) {
      const anonymous = await call('POST', body.data.statusUrl, token, { taskId: body.data.taskId });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.body).not.toContain(body.data.taskId);
    }
    const videos = await call('GET', `/api/ai/assets?persona_id=${lina.id}&type=video`, user.token);
    const [video] = (videos.json() as { data: Asset[] }).data;
    expect(video).toMatchObject({
      type: 'video',
      persona_id: lina.id,
      credits_used: LOCAL_PREVIEW_PRICES.personaVideo,
      model: 'veo-3.0-generate-001',
    });
    expect(video.metadata).toMatchObject({ width: 1080, height: 1920, hasAudio: true });
  }, 240_000);

  it('makes a prompt image of the persona conditioned on its face', async () => {
    const empty = await call('POST', `/api/personas/${lina.id}/image`, user.token, { prompt: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Please select a persona and enter an image prompt');
    const res = await call('POST', `/api/personas/${lina.id}/image`, user.token, { prompt: 'Lina reading in a cafe' });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as PersonaImageReply;
    expect(reply.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.image);
    expect(reply.data.status).toBe('completed');
    expect(reply.data.media).toHaveLength(1);
    const asset = await call('GET', `/api/ai/assets/${reply.data.media[0].id}`, user.token);
    expect(asset.json().data).toMatchObject({ persona_id: lina.id, type: 'image' });
    expect(asset.json().data.metadata.referenceCount).toBe(1);
  }, 60_000);

  it('starts a vertical UGC video with the spoken line and the product images', async () => {
    const missing = await call('POST', `/api/personas/${lina.id}/ugc-video`, user.token, { script: 'Hi there' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(M.productImageRequired);
    const noScript = await call('POST', `/api/personas/${lina.id}/ugc-video`, user.token, { product_images: ['x'] });
    expect(noScript.statusCode).toBe(400);
    expect(noScript.json().error).toBe(M.ugcScriptRequired);

    const product = await storeUpload(t.ctx, user.id, await solidPng(128, 128, '#00aa00'), 'image/png', 'png');
    const res = await call('POST', `/api/personas/${lina.id}/ugc-video`, user.token, {
      script: 'This bottle keeps my tea hot all morning!',
      product_images: [product.url],
      duration: 5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      data: { taskId: string; aspectRatio: string; imageType: string };
      creditsUsed: number;
    };
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.personaVideo);
    expect(body.data).toMatchObject({ aspectRatio: '9:16', imageType: 'portrait' });
    const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, body.data.taskId));
    const params = (row.input as { params: Record<string, unknown> }).params;
    expect(String(params.prompt)).toContain('This bottle keeps my tea hot all morning!');
    expect(String(params.audio_description)).toContain('This bottle keeps my tea hot all morning!');
    expect(params).toMatchObject({ generateAudio: true, persona_id: lina.id, aspectRatio: '9:16' });
    const done = await waitForTask(t.ctx.db, body.data.taskId, { timeoutMs: 180_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
  }, 240_000);
});

describe('DELETE /api/personas/{id}', () => {
  it('removes the persona and its generated images; another user gets 404', async () => {
    const { persona } = await createAndWait({ name: 'Temp Tom', description: 'Short-lived' });
    expect((await call('DELETE', `/api/personas/${persona.id}`, other.token)).statusCode).toBe(404);
    const res = await call('DELETE', `/api/personas/${persona.id}`, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.deleted);
    expect((await call('GET', `/api/personas/${persona.id}`, user.token)).statusCode).toBe(404);
    const left = await call('GET', `/api/ai/assets?persona_id=${persona.id}`, user.token);
    expect((left.json() as { data: Asset[] }).data).toEqual([]);
    expect((await call('GET', persona.ai_generated_images.face_only as string, user.token)).statusCode).toBe(404);
  }, 120_000);
});
