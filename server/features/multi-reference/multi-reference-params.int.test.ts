import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// Every documented Multi-Reference parameter changes the local preview's output (mean absolute pixel
// difference), and the reply's metadata.preview says what the preview did with the prompt.

let t: TestApp;
let user: TestUser;
let warm: string;
let cool: string;

interface Preview {
  applied: string[];
  notApplied: string[];
  note: string;
}

/** A textured reference: stripes and a square in the given colours. */
async function reference(a: string, b: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">
    <rect width="128" height="128" fill="${a}"/>
    ${Array.from({ length: 8 }, (_, i) => `<rect x="${i * 16}" width="6" height="128" fill="${b}"/>`).join('')}
    <rect x="40" y="40" width="48" height="48" fill="#f0f0f0"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

function body(extra: Record<string, unknown> = {}, secondType = 'style') {
  return {
    service: 'nanobana',
    type: 'image-to-image',
    prompt: 'blend the references',
    referenceImages: [
      { url: warm, weight: 0.6, type: 'character' },
      { url: cool, weight: 0.4, type: secondType },
    ],
    blendMode: 'weighted',
    strength: 0.75,
    numImages: 1,
    aspectRatio: '1:1',
    quality: 'draft',
    compositionMode: 'multi-image-composition',
    preserveDetails: true,
    seed: 11,
    ...extra,
  };
}

async function generate(payload: object): Promise<{ pixels: Buffer; preview: Preview }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/multi-reference',
    payload,
    headers: authHeader(user.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { url: string; metadata: { preview: Preview } };
  const file = await t.app.inject({ method: 'GET', url: data.url, headers: authHeader(user.token) });
  expect(file.statusCode).toBe(200);
  return { pixels: await sharp(file.rawPayload).removeAlpha().raw().toBuffer(), preview: data.metadata.preview };
}

/** Mean absolute difference per colour sample (0–255). */
function difference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

async function sharpness(raw: Buffer): Promise<number> {
  const side = Math.round(Math.sqrt(raw.length / 3));
  return (await sharp(raw, { raw: { width: side, height: side, channels: 3 } }).stats()).sharpness;
}

const THRESHOLD = 3;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 5000 });
  warm = await reference('#c0502a', '#e8b040');
  cool = await reference('#2a50c0', '#30a0a0');
});
afterAll(async () => {
  await t?.close();
});

describe('Multi-Reference: every parameter changes the local preview', () => {
  it('strength, seed (weighted mode), reference type and layered vs weighted', async () => {
    const base = (await generate(body())).pixels;
    expect(difference(base, (await generate(body({ strength: 0.2 }))).pixels)).toBeGreaterThan(THRESHOLD);
    expect(difference(base, (await generate(body({ seed: 12345 }))).pixels)).toBeGreaterThan(THRESHOLD);
    expect(difference(base, (await generate(body({}, 'composition'))).pixels)).toBeGreaterThan(THRESHOLD);
    expect(difference(base, (await generate(body({}, 'lighting'))).pixels)).toBeGreaterThan(THRESHOLD);
    expect(difference(base, (await generate(body({ blendMode: 'layered' }))).pixels)).toBeGreaterThan(THRESHOLD);
    // The same call twice gives the same picture: the differences above come from the parameters.
    expect(difference(base, (await generate(body())).pixels)).toBe(0);
  });

  it('a non-colour negative prompt acts: "blurry" makes the result sharper, and the reply says so', async () => {
    const plain = await generate(body({ preserveDetails: false }));
    const notBlurry = await generate(body({ preserveDetails: false, negativePrompt: 'blurry, people' }));
    expect(await sharpness(notBlurry.pixels)).toBeGreaterThan((await sharpness(plain.pixels)) * 1.2);
    expect(notBlurry.preview.applied).toContain('not blurry');
    expect(notBlurry.preview.notApplied).toContain('people');
  });

  it('the prompt acts and metadata.preview lists what it could not do', async () => {
    const plain = await generate(body());
    const evening = await generate(body({ prompt: 'a snowy evening, add a dog' }));
    expect(difference(plain.pixels, evening.pixels)).toBeGreaterThan(THRESHOLD);
    expect(evening.preview.applied).toEqual(['snowy', 'evening']);
    expect(evening.preview.notApplied).toEqual(['add a dog']);
    expect(evening.preview.note).toBe(
      'Local preview applied: snowy, evening. Not applied: "add a dog" — needs an AI engine.',
    );
  });
});
