import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testToolConfig } from '../test-media.ts';
import type { MediaBuffer } from '../types.ts';
import { LocalUpscaleEngine } from './upscale.ts';

// The four image-enhance services are four different operations (docs/engines.md), told apart on
// decoded pixels: each is far from a plain Lanczos resize and from the others, and each has its own
// property (skin smoothing evens flat areas but keeps a hard edge; portrait sharpening is strongest in
// the centre; detailed has the most local contrast; image-upscaler sharpens moderately).

const engine = new LocalUpscaleEngine(testToolConfig);
const SRC = 240;
const OUT = 960;

/** A photo-like test picture: soft gradient, a hard-edged dark square, fine texture and noise. */
async function photo(): Promise<MediaBuffer> {
  const data = Buffer.alloc(SRC * SRC * 3);
  let s = 99;
  for (let y = 0; y < SRC; y++)
    for (let x = 0; x < SRC; x++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const noise = (s % 41) - 20;
      const inSquare = x >= 150 && x < 210 && y >= 40 && y < 100;
      const texture = x < 100 && y > 140 ? 25 * Math.sin(x * 0.9) * Math.sin(y * 0.7) : 0;
      const base = inSquare ? [30, 25, 35] : [190 + (x / SRC) * 30, 150 + (y / SRC) * 20, 130];
      for (let k = 0; k < 3; k++)
        data[(y * SRC + x) * 3 + k] = Math.max(0, Math.min(255, Math.round(base[k] + noise + texture)));
    }
  return {
    data: await sharp(data, { raw: { width: SRC, height: SRC, channels: 3 } })
      .png()
      .toBuffer(),
    mimeType: 'image/png',
  };
}

async function grey(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).greyscale().raw().toBuffer();
}

async function rgb(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).removeAlpha().raw().toBuffer();
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

/** Standard deviation of the grey image in a box of the output. */
function regionStd(g: Buffer, x0: number, y0: number, w: number, h: number): number {
  let s = 0;
  let q = 0;
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) {
      const v = g[y * OUT + x];
      s += v;
      q += v * v;
    }
  const n = w * h;
  return Math.sqrt(q / n - (s / n) ** 2);
}

/** Mean absolute Laplacian in a box: fine detail / sharpness. */
function regionLaplacian(g: Buffer, x0: number, y0: number, w: number, h: number): number {
  let sum = 0;
  for (let y = Math.max(1, y0); y < Math.min(OUT - 1, y0 + h); y++)
    for (let x = Math.max(1, x0); x < Math.min(OUT - 1, x0 + w); x++) {
      const i = y * OUT + x;
      sum += Math.abs(4 * g[i] - g[i - 1] - g[i + 1] - g[i - OUT] - g[i + OUT]);
    }
  return sum / (w * h);
}

/** Contrast of the hard edge: mean grey 2 source pixels outside the square minus 2 inside (left edge). */
function edgeContrast(g: Buffer): number {
  const scale = OUT / SRC;
  const edgeX = Math.round(150 * scale);
  let outside = 0;
  let inside = 0;
  let n = 0;
  for (let y = Math.round(50 * scale); y < Math.round(90 * scale); y++) {
    outside += g[y * OUT + edgeX - 8];
    inside += g[y * OUT + edgeX + 8];
    n++;
  }
  return (outside - inside) / n;
}

async function blurGrey(g: Buffer, sigma: number): Promise<Buffer> {
  return sharp(g, { raw: { width: OUT, height: OUT, channels: 1 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer();
}

/** Pixel-scale detail: the grey picture minus its blur (σ 1.5), offset by 128. */
async function fineDetail(g: Buffer): Promise<Buffer> {
  const soft = await blurGrey(g, 1.5);
  const out = Buffer.alloc(g.length);
  for (let i = 0; i < g.length; i++) out[i] = Math.max(0, Math.min(255, 128 + g[i] - soft[i]));
  return out;
}

describe('local image-enhance services', () => {
  it('are four distinct operations, each clearly different from a plain Lanczos resize', async () => {
    const image = await photo();
    const lanczos = await rgb(await sharp(image.data).resize(OUT, OUT, { kernel: 'lanczos3' }).png().toBuffer());
    const services = ['realistic-skin', 'portrait-upscaler', 'image-upscaler', 'detailed'] as const;
    const out: Record<string, Buffer> = {};
    for (const model of services) {
      const r = await engine.image({ model, image, targetWidth: OUT, targetHeight: OUT });
      expect([r.width, r.height]).toEqual([OUT, OUT]);
      out[model] = await rgb(r.data);
      expect(meanAbsDiff(out[model], lanczos), `${model} vs lanczos`).toBeGreaterThan(4.2);
    }
    for (let i = 0; i < services.length; i++)
      for (let j = i + 1; j < services.length; j++)
        expect(meanAbsDiff(out[services[i]], out[services[j]]), `${services[i]} vs ${services[j]}`).toBeGreaterThan(4);
  });

  it('realistic-skin evens flat areas and keeps a hard edge’s contrast', async () => {
    const image = await photo();
    const lanczos = await grey(await sharp(image.data).resize(OUT, OUT, { kernel: 'lanczos3' }).png().toBuffer());
    const skin = await grey(
      (await engine.image({ model: 'realistic-skin', image, targetWidth: OUT, targetHeight: OUT })).data,
    );
    // a flat (noisy) area: top left, away from the square and the texture
    const flat = [40, 40, 240, 240] as const;
    expect(regionStd(skin, ...flat)).toBeLessThan(regionStd(lanczos, ...flat) * 0.6);
    expect(edgeContrast(skin)).toBeGreaterThan(edgeContrast(lanczos) * 0.9);
  });

  it('portrait-upscaler sharpens the centre more than the corners; detailed has the most local contrast; image-upscaler sits between', async () => {
    const image = await photo();
    const lanczos = await grey(await sharp(image.data).resize(OUT, OUT, { kernel: 'lanczos3' }).png().toBuffer());
    const run = async (model: string) =>
      grey((await engine.image({ model, image, targetWidth: OUT, targetHeight: OUT })).data);
    const portrait = await run('portrait-upscaler');
    const centre = [OUT / 2 - 120, OUT / 2 - 120, 240, 240] as const;
    const corner = [20, 20, 240, 240] as const;
    const gainCentre = regionLaplacian(portrait, ...centre) / regionLaplacian(lanczos, ...centre);
    const gainCorner = regionLaplacian(portrait, ...corner) / regionLaplacian(lanczos, ...corner);
    expect(gainCentre).toBeGreaterThan(gainCorner * 1.3);

    const detailed = await run('detailed');
    const upscaler = await run('image-upscaler');
    const whole = [0, 0, OUT, OUT] as const;
    // local contrast: the spread of (picture − its wide blur)
    const localContrast = async (g: Buffer) => {
      const wide = await sharp(g, { raw: { width: OUT, height: OUT, channels: 1 } })
        .blur(12)
        .extractChannel(0)
        .raw()
        .toBuffer();
      let sum = 0;
      for (let i = 0; i < g.length; i++) sum += Math.abs(g[i] - wide[i]);
      return sum / g.length;
    };
    expect(await localContrast(detailed)).toBeGreaterThan((await localContrast(upscaler)) * 1.2);
    expect(await localContrast(detailed)).toBeGreaterThan((await localContrast(lanczos)) * 1.4);
    const edgeOf = (g: Buffer) => regionLaplacian(g, ...whole);
    expect(edgeOf(upscaler)).toBeLessThan(edgeOf(detailed));
  });

  it('realistic-skin evens blotches at the picture scale but keeps a fine grain (not plastic)', async () => {
    const image = await photo();
    const lanczos = await grey(await sharp(image.data).resize(OUT, OUT, { kernel: 'lanczos3' }).png().toBuffer());
    const skin = await grey(
      (await engine.image({ model: 'realistic-skin', image, targetWidth: OUT, targetHeight: OUT })).data,
    );
    const flat = [40, 40, 240, 240] as const;
    const fine = await fineDetail(skin);
    expect(regionStd(await blurGrey(skin, 3), ...flat), 'blotches').toBeLessThan(
      regionStd(await blurGrey(lanczos, 3), ...flat) * 0.5,
    );
    expect(regionStd(fine, ...flat), 'fine grain').toBeGreaterThan(2);
    expect(regionStd(fine, ...flat)).toBeGreaterThan(regionStd(await fineDetail(lanczos), ...flat));
  });

  it('image-upscaler raises the contrast of edges over Lanczos without raising the noise of flat areas', async () => {
    const image = await photo();
    const lanczos = await grey(await sharp(image.data).resize(OUT, OUT, { kernel: 'lanczos3' }).png().toBuffer());
    const up = await grey(
      (await engine.image({ model: 'image-upscaler', image, targetWidth: OUT, targetHeight: OUT })).data,
    );
    // the square's left edge (x 150 in the source, 4× here)
    const edge = [600 - 12, 200, 24, 160] as const;
    expect(regionLaplacian(up, ...edge)).toBeGreaterThan(regionLaplacian(lanczos, ...edge) * 1.3);
    const flat = [40, 40, 240, 240] as const;
    expect(regionStd(up, ...flat)).toBeLessThan(regionStd(lanczos, ...flat));
  });

  // How long each takes is a budget of `npm run bench -- speed`, not a test.
  it('brings a 1080p picture to 4K with every service, decodable', async () => {
    const big = {
      data: await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#886644' } })
        .png()
        .toBuffer(),
      mimeType: 'image/png',
    };
    for (const model of ['realistic-skin', 'portrait-upscaler', 'image-upscaler', 'detailed']) {
      const r = await engine.image({ model, image: big, targetWidth: 3840, targetHeight: 2160 });
      expect([r.width, r.height], model).toEqual([3840, 2160]);
      const meta = await sharp(r.data).metadata();
      expect([meta.format, meta.width, meta.height], model).toEqual(['png', 3840, 2160]);
    }
  }, 120_000);
});
