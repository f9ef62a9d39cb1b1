import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { SocialPlatform } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { convertedImageType } from '../../../common/rules/social-media.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';
import { PermanentTaskError } from '../../platform/jobs/types.ts';
import { extensionOf, parseMediaRef, resolveMediaInput } from '../../platform/media/inputs.ts';
import { withLocalFile } from '../../platform/media/local-file.ts';
import { imageInfo, type MediaProbe, parseMediaFacts, probeMedia } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { makeWorkDir } from '../../platform/media/work-dir.ts';
import type { PostMedia } from './connectors/types.ts';
import { jpegRendition, UndecodableImage } from './renditions.ts';

// A post's media as the live connectors upload it (issue 28: media is uploaded, not linked). Each media URL of a
// post is resolved to its file: the studio's own stored media from storage (its row gives the type and size,
// sharp the image's size, ffprobe the video's size and duration, kept on the row), or a public URL a post was
// scheduled with, downloaded once through safeFetch (public addresses only, at most REMOTE_MEDIA_MAX_BYTES, the
// type sniffed from the bytes). `url` is what the network is sent when it pulls media itself: our signed post URL
// for stored media, the public URL as it is for the other.

/** The largest public (not stored) media file a post may carry to a network that uploads: kept in memory. */
const REMOTE_MEDIA_MAX_BYTES = 64 * 1024 * 1024;
const REMOTE_TIMEOUT_MS = 60_000;

const M = MESSAGES.social;

function kindOf(contentType: string): PostMedia['kind'] {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  throw new PermanentTaskError('bad_media', M.mediaUrlInvalid('media_urls'));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function videoFacts(probe: MediaProbe | null) {
  return {
    width: probe?.video?.width ?? null,
    height: probe?.video?.height ?? null,
    durationSeconds: probe?.durationMs == null ? null : probe.durationMs / 1000,
  };
}

async function storedMedia(ctx: AppContext, key: string, url: string, signal?: AbortSignal): Promise<PostMedia> {
  const store = new MediaStore(ctx);
  const row = await store.get(key);
  // The post's media were checked when it was created (the poster's own, or the campaign's material); a file
  // removed since cannot be posted.
  if (!row) throw new PermanentTaskError('bad_media', M.mediaUrlInvalid('media_urls'));
  const kind = kindOf(row.contentType);
  const read = async () => readAll(await ctx.storage.read(key));
  let dims: { width: number | null; height: number | null; durationSeconds: number | null };
  if (kind === 'image') {
    const info = await withLocalFile(ctx.storage, key, imageInfo, signal).catch(() => null);
    dims = { width: info?.width ?? null, height: info?.height ?? null, durationSeconds: null };
  } else {
    let facts = parseMediaFacts(row.probe);
    if (!facts) {
      facts = await withLocalFile(ctx.storage, key, (file) => probeMedia(ctx.config, file, signal), signal).catch(
        () => null,
      );
      if (facts) await store.saveFacts(key, facts);
    }
    dims = videoFacts(facts);
  }
  return { kind, contentType: row.contentType, sizeBytes: row.size, ...dims, url, read };
}

async function remoteMedia(ctx: AppContext, userId: string, url: string, signal?: AbortSignal): Promise<PostMedia> {
  let input: Awaited<ReturnType<typeof resolveMediaInput>>;
  try {
    input = await resolveMediaInput(ctx, userId, url, {
      maxBytes: REMOTE_MEDIA_MAX_BYTES,
      allowed: ['image', 'video'],
      timeoutMs: REMOTE_TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    // Unfetchable, too large or not an image or video: the post cannot go out with it; retrying will not help.
    if (error instanceof AppError && error.status < 500) {
      throw new PermanentTaskError('bad_media', `${M.publishFailed}: ${url}: ${error.message}`);
    }
    throw error;
  }
  const { data, mimeType } = input;
  const kind = kindOf(mimeType);
  let dims: { width: number | null; height: number | null; durationSeconds: number | null };
  if (kind === 'image') {
    const meta = await sharp(data)
      .metadata()
      .catch(() => null);
    const sideways = (meta?.orientation ?? 0) >= 5;
    dims = {
      width: (sideways ? meta?.height : meta?.width) ?? null,
      height: (sideways ? meta?.width : meta?.height) ?? null,
      durationSeconds: null,
    };
  } else {
    const dir = await makeWorkDir('post-media');
    try {
      const file = path.join(dir, `media.${extensionOf(mimeType)}`);
      await writeFile(file, data);
      dims = videoFacts(await probeMedia(ctx.config, file, signal).catch(() => null));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { kind, contentType: mimeType, sizeBytes: data.length, ...dims, url, read: async () => data };
}

/**
 * What a network that takes only some image formats is sent instead (Instagram: JPEG): the JPEG rendition of a PNG
 * or WebP image (renditions.ts), with its own post-bound URL. Other media are sent as they are.
 */
async function inNetworkFormat(
  ctx: AppContext,
  post: PostRef,
  media: PostMedia,
  sourceKey: string | null,
  networkUrl: (url: string) => string,
): Promise<PostMedia> {
  if (media.kind !== 'image') return media;
  const target = convertedImageType(post.platform, media.contentType);
  if (!target) return media;
  if (target !== 'image/jpeg') throw new Error(`no conversion to ${target}`);
  const rendition = await jpegRendition(ctx, post.userId, { key: sourceKey, read: media.read }).catch((error) => {
    // An image sharp cannot decode will not convert on a later attempt either.
    if (error instanceof UndecodableImage)
      throw new PermanentTaskError('bad_media', `${M.publishFailed}: ${error.message}`);
    throw error;
  });
  return {
    kind: 'image',
    contentType: rendition.contentType,
    sizeBytes: rendition.sizeBytes,
    width: rendition.width,
    height: rendition.height,
    durationSeconds: null,
    url: networkUrl(rendition.path),
    read: async () => readAll(await ctx.storage.read(rendition.key)),
  };
}

interface PostRef {
  userId: string;
  platform: SocialPlatform;
}

/**
 * The post's media files in order, for a live connector. `urls` are the post's media URLs as stored;
 * `networkUrl` gives a stored file's URL as the network is sent it (signed for the post). Images in a format the
 * network does not take but the studio converts are given as their converted copy.
 */
export async function postMediaOf(
  ctx: AppContext,
  post: PostRef,
  urls: readonly string[],
  networkUrl: (url: string) => string,
  signal?: AbortSignal,
): Promise<PostMedia[]> {
  const media: PostMedia[] = [];
  for (const url of urls) {
    const ref = parseMediaRef(ctx.config, url);
    let file: PostMedia;
    if (ref.kind === 'stored') file = await storedMedia(ctx, ref.key, networkUrl(url), signal);
    else if (ref.kind === 'remote') file = await remoteMedia(ctx, post.userId, ref.url, signal);
    else throw new PermanentTaskError('bad_media', M.mediaUrlInvalid('media_urls'));
    media.push(await inNetworkFormat(ctx, post, file, ref.kind === 'stored' ? ref.key : null, networkUrl));
  }
  return media;
}
