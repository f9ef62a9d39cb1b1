import { createHash } from 'node:crypto';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import sharp, { type OutputInfo } from 'sharp';
import type { AppContext } from '../../context.ts';
import { mediaObjects } from '../../db/schema/index.ts';
import { withLocalFile } from '../../platform/media/local-file.ts';
import { imageInfo } from '../../platform/media/probe.ts';
import { MediaStore, mediaUrl } from '../../platform/media/store.ts';

// A network that takes JPEG only (Instagram) is handed a JPEG rendition of a PNG or WebP image: upright, flattened
// on white where it has transparency, sRGB, at most 1440 px wide (Instagram scales wider images down) and within
// 8 MB. The rendition is a temporary object of the media store (a day), owned by the poster and tagged with the file
// it was made from, so every process finds and serves the same bytes: the network's fetch may reach another API
// process than the one that published.

const SOURCE_TAG = 'jpeg-rendition';
/** Instagram's widest image; wider ones it scales down itself, so larger files gain nothing. */
const MAX_WIDTH = 1440;
const MAX_BYTES = 8 * 1024 * 1024;
const QUALITIES = [90, 80, 70, 60];
/** A rendition about to expire is not handed out: the network may fetch it a while later (retries, queues). */
const MIN_LIFE_LEFT_MS = 6 * 3600_000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface Rendition {
  key: string;
  /** The media route that serves it (`/api/images/<key>`). */
  path: string;
  contentType: 'image/jpeg';
  sizeBytes: number;
  width: number;
  height: number;
}

/** The source is no image sharp can read (corrupt or not what its type says). */
export class UndecodableImage extends Error {}

/** The JPEG made of `bytes` (see the top of the file). */
async function jpegOf(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  for (const quality of QUALITIES) {
    let out: { data: Buffer; info: OutputInfo };
    try {
      out = await sharp(bytes)
        .rotate()
        .resize({ width: MAX_WIDTH, withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .toColourspace('srgb')
        .jpeg({ quality })
        .toBuffer({ resolveWithObject: true });
    } catch (error) {
      throw new UndecodableImage(`the image cannot be converted to JPEG (${(error as Error).message})`);
    }
    if (out.data.length <= MAX_BYTES || quality === QUALITIES.at(-1)) {
      return { data: out.data, width: out.info.width, height: out.info.height };
    }
  }
  throw new Error('unreachable');
}

async function renditionsFor(ctx: AppContext, userId: string, origin: string) {
  return ctx.db
    .select({ key: mediaObjects.key, size: mediaObjects.size })
    .from(mediaObjects)
    .where(
      and(
        eq(mediaObjects.userId, userId),
        sql`${mediaObjects.tags}->>'Source' = ${SOURCE_TAG}`,
        sql`${mediaObjects.tags}->>'OriginalAssetId' = ${origin}`,
        gt(mediaObjects.expiresAt, new Date(ctx.clock.now().getTime() + MIN_LIFE_LEFT_MS)),
      ),
    )
    .orderBy(asc(mediaObjects.createdAt), asc(mediaObjects.key));
}

async function renditionOf(ctx: AppContext, row: { key: string; size: number }): Promise<Rendition> {
  const info = await withLocalFile(ctx.storage, row.key, imageInfo);
  const path = mediaUrl(row.key, 'image/jpeg');
  return { key: row.key, path, contentType: 'image/jpeg', sizeBytes: row.size, width: info.width, height: info.height };
}

/**
 * The JPEG rendition of an image, made once and shared: the stored file `key`'s, or (key null) the downloaded
 * bytes'. `read` gives the source's bytes when a rendition has to be made.
 */
export async function jpegRendition(
  ctx: AppContext,
  userId: string,
  source: { key: string | null; read: () => Promise<Buffer> },
): Promise<Rendition> {
  // A downloaded image has no key: its bytes name it.
  const bytes = source.key ? null : await source.read();
  const origin = source.key ?? `sha256:${sha256(bytes as Buffer)}`;
  const [found] = await renditionsFor(ctx, userId, origin);
  if (found) return renditionOf(ctx, found);

  const jpeg = await jpegOf(bytes ?? (await source.read()));
  const store = new MediaStore(ctx);
  const stored = await store.put({
    body: jpeg.data,
    contentType: 'image/jpeg',
    ext: 'jpg',
    storageClass: 'temporary',
    userId,
    source: SOURCE_TAG,
    tags: { OriginalAssetId: origin },
  });
  // Two processes may have made one at once: a maker that sees an older one drops its own (never handed out) and
  // hands out that one; one that sees none hands out its own. Either way nothing handed out is removed.
  const [oldest] = await renditionsFor(ctx, userId, origin);
  if (oldest && oldest.key !== stored.key) {
    await store.delete(stored.key).catch(() => undefined);
    return renditionOf(ctx, oldest);
  }
  const { key, url: path, size: sizeBytes } = stored;
  return { key, path, contentType: 'image/jpeg', sizeBytes, width: jpeg.width, height: jpeg.height };
}
