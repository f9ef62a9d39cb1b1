import { eq } from 'drizzle-orm';
import type { SocialPlatform } from '../../../common/api/social.ts';
import { checkPostMedia, type PostMediaFacts } from '../../../common/rules/social-media.ts';
import type { AppContext } from '../../context.ts';
import { mediaObjects, uploadedMedia } from '../../db/schema/index.ts';
import { storedKeyOf } from '../../platform/media/inputs.ts';
import { withLocalFile } from '../../platform/media/local-file.ts';
import { imageInfo, parseMediaFacts, probeMedia } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';

// What the studio knows of a post's media when it is scheduled or published, for the networks' rules
// (common/rules/social-media.ts):
//  - the studio's own files: the content type and size of their `media_objects` row; a video's dimensions and
//    duration from the ffprobe facts recorded on that row, probed now (and recorded) when it has none; an
//    image's dimensions from its `uploaded_media` row, else read from the file's header (sharp).
//  - a public URL: only what its address says (a video by its path or extension, the format by its
//    extension); its size, dimensions and duration are not known before the network fetches it, and are not
//    held against the post.
// A file that cannot be read or probed is checked on what is known of it.

const EXTENSION_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
};

const isVideoPath = (url: string) =>
  /\/api\/videos\/|\/api\/personas\/video\/|\.(mp4|m4v|mov|webm|avi)(\?|#|$)/i.test(url);

/** What a URL's address says of it: a video or an image, and its format by extension when it has one. */
export function factsOfAddress(url: string): PostMediaFacts {
  let pathname = url;
  try {
    pathname = new URL(url, 'http://x').pathname;
  } catch {
    // A URL the post checks already refused; the address is all there is.
  }
  const ext = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  const kind = isVideoPath(url) ? 'video' : 'image';
  const known = EXTENSION_TYPES[ext];
  return {
    kind,
    // A format the address does not say is taken as the network's usual one (not held against the post).
    contentType: known?.startsWith(`${kind}/`) ? known : kind === 'video' ? 'video/mp4' : 'image/jpeg',
    sizeBytes: null,
    width: null,
    height: null,
    durationSeconds: null,
  };
}

async function factsOfStored(ctx: AppContext, url: string, key: string): Promise<PostMediaFacts> {
  const [row] = await ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, key)).limit(1);
  if (!row) return factsOfAddress(url);
  const contentType = row.contentType.split(';')[0]?.trim().toLowerCase() ?? row.contentType;
  const kind = contentType.startsWith('video/') || contentType.startsWith('audio/') ? 'video' : 'image';
  const facts: PostMediaFacts = {
    kind,
    contentType,
    sizeBytes: row.size,
    width: null,
    height: null,
    durationSeconds: null,
  };
  if (kind === 'video') {
    let probe = parseMediaFacts(row.probe);
    if (!probe) {
      probe = await withLocalFile(ctx.storage, key, (file) => probeMedia(ctx.config, file)).catch((error) => {
        ctx.log.warn({ err: error, key }, 'post media could not be probed; checked on what is known');
        return null;
      });
      if (probe) await new MediaStore(ctx).saveFacts(key, probe);
    }
    if (probe) {
      facts.width = probe.video?.width ?? null;
      facts.height = probe.video?.height ?? null;
      facts.durationSeconds = probe.durationMs === null ? null : probe.durationMs / 1000;
    }
    return facts;
  }
  const [upload] = await ctx.db
    .select({ width: uploadedMedia.width, height: uploadedMedia.height })
    .from(uploadedMedia)
    .where(eq(uploadedMedia.key, key))
    .limit(1);
  if (upload?.width && upload.height) return { ...facts, width: upload.width, height: upload.height };
  const info = await withLocalFile(ctx.storage, key, imageInfo).catch((error) => {
    ctx.log.warn({ err: error, key }, 'post image could not be read; checked on what is known');
    return null;
  });
  return info ? { ...facts, width: info.width, height: info.height } : facts;
}

/** The facts of a post's media, in order (see the top of this file for where each comes from). */
async function postMediaFacts(ctx: AppContext, urls: readonly string[]): Promise<PostMediaFacts[]> {
  const out: PostMediaFacts[] = [];
  for (const url of urls) {
    const key = storedKeyOf(ctx.config, url);
    out.push(key ? await factsOfStored(ctx, url, key) : factsOfAddress(url));
  }
  return out;
}

/**
 * What the target networks would refuse in a post (its media against each network's published limits), one
 * message per problem naming the network and the limit. The caption's length is checked by the text rules
 * (posts.ts), which know whether it is shortened when posted.
 */
export async function postMediaProblems(
  ctx: AppContext,
  message: string,
  mediaUrls: readonly string[],
  platforms: readonly SocialPlatform[],
): Promise<string[]> {
  const facts = await postMediaFacts(ctx, mediaUrls);
  return platforms.flatMap((platform) => checkPostMedia(platform, message, facts, { mediaUrls, shortenCaption: true }));
}
