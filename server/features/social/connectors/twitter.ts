import {
  type AuthCallback,
  type Authenticated,
  type Connector,
  ConnectorError,
  callApi,
  countOf,
  type PostInput,
  type PostMedia,
  type PostMetrics,
  pkceCodeFlow,
} from './types.ts';
import { callRaw, pause } from './upload.ts';

// X (Twitter) API v2: OAuth 2.0 authorization code with PKCE (confidential client, Basic auth on the token
// endpoint), GET /2/users/me (public_metrics.followers_count), POST /2/tweets, and GET /2/tweets?ids= with
// tweet.fields=public_metrics (impression_count, like_count, reply_count, retweet_count, quote_count).
// Media is uploaded with the v2 chunked media upload (scope media.write): POST /2/media/upload/initialize
// {media_type, total_bytes, media_category} → data.id; POST /2/media/upload/{id}/append (multipart `media`,
// `segment_index`) per segment; POST /2/media/upload/{id}/finalize; while data.processing_info is pending or
// in_progress, GET /2/media/upload?command=STATUS&media_id= after check_after_secs; then POST /2/tweets with
// media.media_ids. Images go the same way in one segment.

export interface TwitterOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  authBase: string;
}

const SCOPES = 'tweet.read tweet.write users.read media.write offline.access';
/** Segments of at most 4 MiB (X takes up to 5 MB a segment, 1000 segments). */
const SEGMENT_BYTES = 4 * 1024 * 1024;
/** X's published limits: images 5 MB, animated GIFs 15 MB, videos 512 MB; 4 images or one video/GIF a post. */
const MAX_BYTES = { image: 5 * 1024 * 1024, gif: 15 * 1024 * 1024, video: 512 * 1024 * 1024 };
const X_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
const X_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
/** The longest a video is waited for X's processing before the attempt is retried later. */
const PROCESSING_WAIT_SECONDS = 240;

function categoryOf(media: PostMedia): 'tweet_image' | 'tweet_gif' | 'tweet_video' {
  if (media.kind === 'video') return 'tweet_video';
  return media.contentType === 'image/gif' ? 'tweet_gif' : 'tweet_image';
}

/** Refuses media X does not take, before anything is uploaded. */
function checkMedia(media: readonly PostMedia[]): void {
  if (media.length === 0) return;
  const single = media.filter((m) => categoryOf(m) !== 'tweet_image');
  if (single.length > 0 && media.length > 1) {
    throw new ConnectorError('bad-body', 'X takes one video or GIF a post, or up to 4 images');
  }
  if (media.length > 4) throw new ConnectorError('bad-body', 'X takes up to 4 images a post');
  for (const m of media) {
    const types = m.kind === 'video' ? X_VIDEO_TYPES : X_IMAGE_TYPES;
    if (!types.has(m.contentType)) throw new ConnectorError('bad-body', `X does not take ${m.contentType} files`);
    const category = categoryOf(m);
    const limit = MAX_BYTES[category === 'tweet_video' ? 'video' : category === 'tweet_gif' ? 'gif' : 'image'];
    if (m.sizeBytes > limit) {
      throw new ConnectorError('bad-body', `X takes ${m.kind} files up to ${Math.round(limit / 1024 / 1024)} MB`);
    }
  }
}
/** GET /2/tweets takes at most 100 ids a call. */
const IDS_PER_LOOKUP = 100;

interface TwitterContext extends TwitterOptions {
  oauth: ReturnType<typeof pkceCodeFlow>;
}

export function twitterConnector(options: TwitterOptions): Connector {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64')}`;
  const oauth = pkceCodeFlow({
    authorizeUrl: `${options.authBase}/i/oauth2/authorize`,
    clientId: options.clientId,
    scope: SCOPES,
    token: (form) =>
      callApi(`${options.apiBase}/2/oauth2/token`, {
        headers: { authorization: basic },
        form: { ...form, client_id: options.clientId },
      }),
  });
  const o: TwitterContext = { ...options, oauth };
  return {
    platform: 'twitter',
    mode: 'live',
    generateAuthUrl: oauth.generateAuthUrl,
    authenticate: (input) => authenticate(o, input),
    fetchProfile: (accessToken) => fetchProfile(o, accessToken),
    fetchPostMetrics: (accessToken, externalIds) => fetchPostMetrics(o, accessToken, externalIds),
    refreshToken: oauth.refreshToken,
    post: (accessToken, input, signal) => post(o, accessToken, input, signal),
  };
}

const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

async function usersMe(o: TwitterContext, accessToken: string) {
  const me = await callApi(`${o.apiBase}/2/users/me?user.fields=public_metrics`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const data = (me.body.data ?? {}) as { id?: string; username?: string; public_metrics?: Record<string, unknown> };
  return { id: data.id, username: data.username, followerCount: countOf(data.public_metrics?.followers_count) };
}

/** One file through the chunked upload; answers its media id once X may attach it. */
async function upload(o: TwitterContext, accessToken: string, media: PostMedia, signal?: AbortSignal): Promise<string> {
  const bytes = await media.read();
  const init = await callApi(
    `${o.apiBase}/2/media/upload/initialize`,
    {
      headers: bearer(accessToken),
      json: { media_type: media.contentType, total_bytes: bytes.length, media_category: categoryOf(media) },
    },
    signal,
  );
  const id = (init.body.data as { id?: string } | undefined)?.id;
  if (!id) throw new ConnectorError('bad-body', 'no media id in the upload initialize reply');
  for (let offset = 0, index = 0; offset < bytes.length; offset += SEGMENT_BYTES, index++) {
    const form = new FormData();
    form.set('segment_index', String(index));
    form.set('media', new Blob([new Uint8Array(bytes.subarray(offset, offset + SEGMENT_BYTES))]), 'media');
    await callRaw(
      `${o.apiBase}/2/media/upload/${id}/append`,
      { method: 'POST', headers: bearer(accessToken), body: form },
      signal,
    );
  }
  const finalized = await callApi(
    `${o.apiBase}/2/media/upload/${id}/finalize`,
    { method: 'POST', headers: bearer(accessToken) },
    signal,
  );
  let info = (finalized.body.data as { processing_info?: ProcessingInfo } | undefined)?.processing_info;
  let waited = 0;
  // Video and GIFs are processed after finalize: pending → in_progress → succeeded | failed.
  while (info && info.state !== 'succeeded') {
    if (info.state === 'failed') {
      throw new ConnectorError('bad-body', `X could not process the ${media.kind}: ${info.error?.message ?? 'failed'}`);
    }
    const after = Math.max(1, Math.min(30, Number(info.check_after_secs) || 1));
    if (waited + after > PROCESSING_WAIT_SECONDS) {
      throw new ConnectorError('retry', `X is still processing the ${media.kind}`, 60);
    }
    await pause(after, signal);
    waited += after;
    const status = await callApi(
      `${o.apiBase}/2/media/upload?command=STATUS&media_id=${id}`,
      { headers: bearer(accessToken) },
      signal,
    );
    info = (status.body.data as { processing_info?: ProcessingInfo } | undefined)?.processing_info;
  }
  return id;
}

async function authenticate(o: TwitterContext, input: AuthCallback): Promise<Authenticated> {
  const tokens = await o.oauth.exchangeCode(input);
  const me = await usersMe(o, tokens.accessToken);
  if (!me.id || !me.username) throw new ConnectorError('bad-body', 'no user in /2/users/me');
  return {
    tokens,
    profile: { externalId: me.id, username: me.username, followerCount: me.followerCount },
  };
}

async function fetchProfile(o: TwitterContext, accessToken: string): Promise<{ followerCount: number }> {
  const me = await usersMe(o, accessToken);
  if (me.followerCount === null) throw new ConnectorError('bad-body', 'no public_metrics in /2/users/me');
  return { followerCount: me.followerCount };
}

async function fetchPostMetrics(
  o: TwitterContext,
  accessToken: string,
  externalIds: readonly string[],
): Promise<Map<string, PostMetrics>> {
  const out = new Map<string, PostMetrics>();
  for (let i = 0; i < externalIds.length; i += IDS_PER_LOOKUP) {
    const ids = externalIds.slice(i, i + IDS_PER_LOOKUP).join(',');
    const { body } = await callApi(`${o.apiBase}/2/tweets?ids=${ids}&tweet.fields=public_metrics`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    // Deleted or protected tweets come back under `errors`, not `data`: left out.
    for (const tweet of (body.data ?? []) as Array<{ id?: string; public_metrics?: Record<string, unknown> }>) {
      const m = tweet.public_metrics;
      if (!tweet.id || !m) continue;
      const retweets = countOf(m.retweet_count);
      const quotes = countOf(m.quote_count);
      out.set(tweet.id, {
        views: countOf(m.impression_count),
        likes: countOf(m.like_count),
        comments: countOf(m.reply_count),
        shares: retweets === null && quotes === null ? null : (retweets ?? 0) + (quotes ?? 0),
      });
    }
  }
  return out;
}

async function post(o: TwitterContext, accessToken: string, input: PostInput, signal?: AbortSignal) {
  // The message was fitted to X's limit before (common/rules/post-text.ts). The files are uploaded and
  // attached; only a caller that gives no files (URLs alone) has them linked, 23 characters each.
  checkMedia(input.media);
  const mediaIds: string[] = [];
  for (const media of input.media) mediaIds.push(await upload(o, accessToken, media, signal));
  const text = mediaIds.length > 0 ? input.message : [input.message, ...input.mediaUrls].join('\n');
  const { body } = await callApi(
    `${o.apiBase}/2/tweets`,
    {
      headers: bearer(accessToken),
      json: { ...(text ? { text } : {}), ...(mediaIds.length > 0 ? { media: { media_ids: mediaIds } } : {}) },
    },
    signal,
  );
  const id = (body.data as { id?: string } | undefined)?.id;
  if (!id) throw new ConnectorError('bad-body', 'no tweet id in the reply');
  return { externalId: id, shareUrl: `https://x.com/i/web/status/${id}`, views: null };
}

interface ProcessingInfo {
  state?: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  error?: { message?: string };
}
