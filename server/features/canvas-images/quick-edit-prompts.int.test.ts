import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// Quick AI Edit on the local preview engine acts on what the prompt says that image operations can
// do, measured in pixels, and says in data.metadata.preview what it applied and what it could not.

let t: TestApp;
let user: TestUser;
let scene: Buffer;

interface Preview {
  applied: string[];
  notApplied: string[];
  note: string;
}

/** A mid-grey-blue scene with a yellow circle and some texture. */
async function scenePng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200">
    <rect width="320" height="200" fill="#7a8a90"/><rect y="120" width="320" height="80" fill="#5b7a4a"/>
    <circle cx="220" cy="70" r="36" fill="#f2d43a"/><rect x="40" y="90" width="60" height="60" fill="#8a5a3a"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function quickEdit(prompt: string): Promise<{ pixels: Buffer; preview: Preview; operations: string[] }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/nanobana/edit-image',
    payload: { prompt, imageBuffer: scene.toString('base64'), imageMimeType: 'image/png', quality: '1k' },
    headers: authHeader(user.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { url: string; metadata: { preview: Preview; operations: string[] } };
  const file = await t.app.inject({ method: 'GET', url: data.url, headers: authHeader(user.token) });
  expect(file.statusCode).toBe(200);
  return { pixels: file.rawPayload, preview: data.metadata.preview, operations: data.metadata.operations };
}

async function means(png: Buffer): Promise<{ r: number; g: number; b: number; luma: number }> {
  const { channels } = await sharp(png).resize(320, 200, { fit: 'fill' }).removeAlpha().stats();
  const [r, g, b] = channels.map((c) => c.mean) as [number, number, number];
  return { r, g, b, luma: 0.299 * r + 0.587 * g + 0.114 * b };
}

/** Mean yellowness ((r + g) / 2 − b) of the picture. */
const yellowness = (m: { r: number; g: number; b: number }) => (m.r + m.g) / 2 - m.b;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  scene = await scenePng();
});
afterAll(async () => {
  await t?.close();
});

describe('Quick AI Edit on the local preview listens to the prompt', () => {
  it('makes a snowy winter evening darker and bluer, a hot desert noon brighter and warmer', async () => {
    const original = await means(scene);
    const winter = await quickEdit('snowy winter evening');
    const desert = await quickEdit('hot desert noon');
    const w = await means(winter.pixels);
    const d = await means(desert.pixels);
    expect(w.luma).toBeLessThan(original.luma - 5);
    expect(w.b - w.r).toBeGreaterThan(original.b - original.r + 10);
    expect(d.luma).toBeGreaterThan(original.luma + 5);
    expect(d.r - d.b).toBeGreaterThan(original.r - original.b + 15);
    expect(d.luma - w.luma).toBeGreaterThan(20);
    expect(winter.preview.applied).toEqual(['snowy', 'winter', 'evening']);
    expect(winter.preview.note).toBe('Local preview applied: snowy, winter, evening.');
    expect(desert.preview.applied).toEqual(['hot', 'desert', 'noon']);
  });

  it('does not add yellow when asked to remove the yellow circle, and says it needs a marked region', async () => {
    const original = await means(scene);
    const removed = await quickEdit('remove the yellow circle');
    expect(yellowness(await means(removed.pixels))).toBeLessThanOrEqual(yellowness(original) + 1);
    expect(removed.operations).not.toContain('tint');
    expect(removed.preview.applied).toEqual([]);
    expect(removed.preview.notApplied).toEqual(['remove the yellow circle']);
    expect(removed.preview.note).toContain('mark the region with the Magic Selector');
  });

  it('lists "add a dog" as not applied (needs an AI engine) and still acts on the rest', async () => {
    const dog = await quickEdit('add a dog');
    expect(dog.preview.notApplied).toEqual(['add a dog']);
    expect(dog.preview.note).toContain('Not applied: "add a dog" — needs an AI engine');
    const mixed = await quickEdit('winter evening, add a dog');
    expect(mixed.preview.applied).toEqual(['winter', 'evening']);
    expect(mixed.preview.notApplied).toEqual(['add a dog']);
    const original = await means(scene);
    const m = await means(mixed.pixels);
    expect(m.luma).toBeLessThan(original.luma - 5);
    expect(m.b - m.r).toBeGreaterThan(original.b - original.r + 10);
  });

  it('crops on "zoom in" and blurs on "blurry"', async () => {
    const zoom = await quickEdit('zoom in');
    const { width, height } = await sharp(zoom.pixels).metadata();
    expect([width, height]).toEqual([1024, 640]);
    expect(zoom.operations).toContain('zoomIn');
    const base = await sharp(scene).resize(1024, 640).stats();
    const blurred = await sharp((await quickEdit('make it blurry')).pixels).stats();
    expect(blurred.sharpness).toBeLessThan(base.sharpness);
  });

  it('removes a region the user marked: a multi-composition step "remove the yellow circle" takes the yellow out', async () => {
    const region = { x: 180, y: 30, width: 80, height: 80 };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/multi-composition',
      payload: {
        baseImage: `data:image/png;base64,${scene.toString('base64')}`,
        compositionSteps: [{ id: 'circle', prompt: 'remove the yellow circle', regionMask: region }],
        mode: 'reference-chain',
        maxSteps: 10,
        consistencyStrength: 0.8,
        preserveOriginal: true,
      },
      headers: authHeader(user.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().data.finalImage as string;
    const file = await t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
    const crop = async (png: Buffer) =>
      means(await sharp(png).extract({ left: 190, top: 40, width: 60, height: 60 }).png().toBuffer());
    const before = await crop(scene);
    const after = await crop(file.rawPayload);
    expect(yellowness(before)).toBeGreaterThan(60);
    expect(yellowness(after)).toBeLessThan(yellowness(before) / 3);
  });
});
