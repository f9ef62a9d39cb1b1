// Shared by the self-hosted image back ends (ComfyUI, AUTOMATIC1111): turns the PNG bytes a server
// answered into an ImageResult in the requested format, and picks the source image of a composition.
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { ComposeImageRequest, EngineMetadata, ImageOutputFormat, ImageResult, MediaBuffer } from '../types.ts';
import { VendorError } from '../vendor/http.ts';

const MIME: Record<ImageOutputFormat, string> = { png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' };

export async function imageResult(
  vendor: string,
  data: Buffer,
  format: ImageOutputFormat | undefined,
  metadata: EngineMetadata,
  seed?: number,
): Promise<ImageResult> {
  const target = format ?? 'png';
  let image: Sharp;
  let meta: Metadata;
  try {
    image = sharp(data);
    meta = await image.metadata();
  } catch {
    throw new VendorError(vendor, 'the server answered something that is not an image', true);
  }
  const same = meta.format === target;
  const out = same ? data : await image.toFormat(target).toBuffer();
  return {
    data: out,
    mimeType: MIME[target],
    width: meta.width ?? 0,
    height: meta.height ?? 0,
    ...(seed !== undefined ? { seed } : {}),
    metadata,
  };
}

/** Self-hosted back ends take one source image: the heaviest of a composition. */
export function heaviestImage(request: ComposeImageRequest): MediaBuffer {
  const first = request.images[0];
  if (!first) throw new VendorError('compose', 'no images to compose', false);
  return request.images.reduce((best, item) => (item.weight > best.weight ? item : best), first).image;
}

/** A seed for the server: the request's, or a random one we can report back. */
export function seedOf(seed: number | undefined): number {
  return seed ?? Math.floor(Math.random() * 2 ** 31);
}
