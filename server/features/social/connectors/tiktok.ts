import { randomBytes } from 'node:crypto';
import { MESSAGES } from '../../../../common/messages.ts';
import { type JournaledPublish, journaledPublish, type PublishJournal } from './journal.ts';
import {
  type AuthCallback,
  type Authenticated,
  type AuthRequest,
  type Connector,
  ConnectorError,
  countOf,
  type PostInput,
  type PostMedia,
  type PostMetrics,
  type PostOutcome,
  sleepUnlessStopped,
  type TokenSet,
} from './types.ts';

// TikTok (API v2, open.tiktokapis.com). Login Kit for Web: the authorize page www.tiktok.com/v2/auth/authorize/
// (client_key, comma-separated scopes, state; web apps use no PKCE, the state binds the browser) and the token
// endpoint /v2/oauth/token/ (form-encoded client_key/client_secret, authorization_code or refresh_token grant).
// Content Posting API, Direct Post of a video: POST /v2/post/publish/creator_info/query/ (privacy options, the
// longest video, interactions the creator turned off) → POST /v2/post/publish/video/init/ (post_info, source_info
// FILE_UPLOAD with the chunk plan) → PUT the chunks to upload_url (Content-Range) → POST
// /v2/post/publish/status/fetch/ until PUBLISH_COMPLETE. Photos: POST /v2/post/publish/content/init/ (PULL_FROM_URL
// from a verified URL prefix), then the same status fetch. Figures: GET /v2/user/info/ (follower_count) and POST
// /v2/video/query/ (view/like/comment/share counts). Errors are {error:{code,message,log_id}} with the HTTP status.

export interface TiktokOptions {
  clientKey: string;
  clientSecret: string;
  apiBase: string;
  authBase: string;
  /** Between two status fetches (ms; TikTok allows 30 fetches a minute). */
  pollIntervalMs?: number;
  /** How long one post() waits for PUBLISH_COMPLETE before it gives up with `retry` (ms). */
  pollTimeoutMs?: number;
  /** Where publishes are recorded (a retry in any process resumes them). */
  journal: PublishJournal;
}

const M = MESSAGES.social;
/** user.info.profile carries the username, user.info.stats the follower count; video.publish needs app review. */
const SCOPES = 'user.info.basic,user.info.profile,user.info.stats,video.publish,video.list';
const USER_FIELDS = 'open_id,union_id,display_name,username,follower_count,video_count';
const VIDEO_FIELDS = 'id,view_count,like_count,comment_count,share_count';
/** POST /v2/video/query/ takes at most 20 ids a call. */
const IDS_PER_QUERY = 20;
const MB = 1024 * 1024;
/** TikTok's chunk rules: 5–64 MB chunks (the last up to 128 MB), a file up to 64 MB in one, at most 1000 chunks. */
const SINGLE_CHUNK_MAX = 64 * MB;
const CHUNK_SIZE = 10 * MB;
/** The most open privacy level the creator allows, in this order (TikTok lists only those it allows). */
const PRIVACY_PREFERENCE = ['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
/** TikTok's answer to a non-private post from an app that has not passed its audit. */
const UNAUDITED = 'unaudited_client_can_only_post_to_private_accounts';
/** Photo posts: 1 to 35 JPEG or WebP photos (TikTok takes no PNG), a title of at most 90 characters. */
const PHOTO_TYPES = ['image/jpeg', 'image/webp'];
const PHOTOS_MAX = 35;
const PHOTO_TITLE_MAX = 90;
/** TikTok's rate limits are per one-minute sliding window; it sends no Retry-After. */
const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The chunk plan of a video of `size` bytes under TikTok's chunk rules. */
export function chunkPlan(size: number): { chunkSize: number; totalChunkCount: number } {
  if (size <= SINGLE_CHUNK_MAX) return { chunkSize: size, totalChunkCount: 1 };
  // The trailing bytes ride on the last chunk (under 2 × 10 MB, so within 128 MB).
  return { chunkSize: CHUNK_SIZE, totalChunkCount: Math.floor(size / CHUNK_SIZE) };
}

/**
 * A TikTok id (int64: post ids exceed 2^53) kept as a string: long integer literals are quoted before parsing.
 */
function parseJson(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"')) as Record<string, unknown>;
  } catch {
    return { raw: text.slice(0, 500) };
  }
}

interface TiktokReply {
  status: number;
  body: Record<string, unknown>;
  data: Record<string, unknown>;
}

/** A TikTok API error ({error:{code,message,log_id}}) as a ConnectorError of its class. */
function apiError(status: number, headers: Headers, body: Record<string, unknown>): ConnectorError {
  const error = (body.error ?? {}) as { code?: unknown; message?: unknown; log_id?: unknown };
  const code = typeof error.code === 'string' ? error.code : `http_${status}`;
  const text = `${status} ${code}: ${typeof error.message === 'string' ? error.message : ''}`.trim();
  // An invalid token is refreshed; a scope the user did not grant needs a new consent (reconnect).
  if (code === 'access_token_invalid' || code === 'scope_not_authorized' || (status === 401 && !body.error)) {
    return new ConnectorError('refresh-token', text, undefined, status);
  }
  if (code === 'rate_limit_exceeded' || status === 429) {
    const after = Number(headers.get('retry-after'));
    return new ConnectorError(
      'retry',
      text,
      Number.isFinite(after) && after > 0 ? after : RATE_LIMIT_WINDOW_SECONDS,
      status,
    );
  }
  if (status >= 500 || code === 'internal_error') return new ConnectorError('retry', text, undefined, status);
  return new ConnectorError('bad-body', text, undefined, status);
}

async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Buffer },
  signal?: AbortSignal,
): Promise<{ res: Response; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, body: init.body as BodyInit | undefined, signal });
  } catch (error) {
    throw new ConnectorError('retry', `network error: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { res, body: parseJson(await res.text()) };
}

/** A call to TikTok's API as the user; a non-ok error code (even on HTTP 200) becomes a ConnectorError. */
async function api(
  url: string,
  accessToken: string,
  json: unknown,
  signal?: AbortSignal,
  method = json === undefined ? 'GET' : 'POST',
): Promise<TiktokReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
  if (method === 'POST') headers['content-type'] = 'application/json; charset=UTF-8';
  const { res, body } = await send(
    url,
    { method, headers, body: json === undefined ? undefined : JSON.stringify(json) },
    signal,
  );
  const code = (body.error as { code?: unknown } | undefined)?.code;
  if (!res.ok || (typeof code === 'string' && code !== 'ok')) throw apiError(res.status, res.headers, body);
  return { status: res.status, body, data: (body.data ?? {}) as Record<string, unknown> };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  sleepUnlessStopped(ms, signal, 'publish aborted while waiting for TikTok');

/**
 * What the publish journal keeps of a publish (by account and our post id): a retried publish whose video TikTok
 * already has resumes the status polling of that publish_id instead of posting again, and a finished one answers
 * its outcome again.
 */
type PublishState = {
  kind: 'video' | 'photo';
  publishId: string;
  /** All chunks were sent (photos: the init answered): TikTok will publish this publish_id, never init again. */
  uploaded: boolean;
  /** The video's size while its last chunk is on its way (whether TikTok got it is asked on a retry). */
  sendingLast: number | null;
  username: string;
  privacyLevel: string;
  outcome?: PostOutcome;
};

/** What the steps of one TikTok connector share: its options, with the polling defaults applied. */
type TiktokContext = Required<TiktokOptions>;

export function tiktokConnector(options: TiktokOptions): Connector {
  const o: TiktokContext = {
    ...options,
    pollIntervalMs: options.pollIntervalMs ?? 3000,
    pollTimeoutMs: options.pollTimeoutMs ?? 120_000,
  };
  return {
    platform: 'tiktok',
    mode: 'live',
    generateAuthUrl: (redirectUri) => authUrl(o, redirectUri),
    authenticate: (input) => authenticate(o, input),
    refreshToken: (refreshToken) => refresh(o, refreshToken),
    fetchProfile: (accessToken) => fetchProfile(o, accessToken),
    fetchPostMetrics: (accessToken, externalIds) => fetchPostMetrics(o, accessToken, externalIds),
    post: (accessToken, input, signal) => post(o, accessToken, input, signal),
  };
}

async function token(o: TiktokContext, form: Record<string, string>): Promise<TokenSet & { openId: string | null }> {
  const { res, body } = await send(`${o.apiBase}/v2/oauth/token/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'cache-control': 'no-cache',
      accept: 'application/json',
    },
    body: new URLSearchParams({ client_key: o.clientKey, client_secret: o.clientSecret, ...form }).toString(),
  });
  const accessToken = body.access_token;
  if (!res.ok || typeof body.error === 'string' || typeof accessToken !== 'string' || !accessToken) {
    const text = `${res.status} ${String(body.error ?? 'no access_token')}: ${String(body.error_description ?? '')}`;
    if (res.status >= 500 || res.status === 429) throw new ConnectorError('retry', text, undefined, res.status);
    // A refresh token TikTok no longer accepts: only reconnecting helps.
    if (form.grant_type === 'refresh_token') throw new ConnectorError('refresh-token', text, undefined, res.status);
    throw new ConnectorError('bad-body', text, undefined, res.status);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : (form.refresh_token ?? null),
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
    openId: typeof body.open_id === 'string' ? body.open_id : null,
  };
}

async function userInfo(o: TiktokContext, accessToken: string) {
  const { data } = await api(`${o.apiBase}/v2/user/info/?fields=${USER_FIELDS}`, accessToken, undefined);
  const user = (data.user ?? {}) as Record<string, unknown>;
  return {
    openId: typeof user.open_id === 'string' ? user.open_id : null,
    username:
      typeof user.username === 'string' && user.username
        ? user.username
        : typeof user.display_name === 'string'
          ? user.display_name
          : null,
    followerCount: countOf(user.follower_count),
  };
}

/** Creator info, the duration check and the privacy level: everything TikTok asks before a Direct Post. */
async function prepare(o: TiktokContext, accessToken: string, video: PostMedia | null, signal?: AbortSignal) {
  const { data } = await api(`${o.apiBase}/v2/post/publish/creator_info/query/`, accessToken, {}, signal);
  const options = Array.isArray(data.privacy_level_options) ? (data.privacy_level_options as string[]) : [];
  const privacyLevel = PRIVACY_PREFERENCE.find((level) => options.includes(level));
  if (!privacyLevel) throw new ConnectorError('bad-body', 'TikTok offers this account no privacy level to post with');
  const max = countOf(data.max_video_post_duration_sec);
  if (max !== null && video?.durationSeconds != null && video.durationSeconds > max) {
    throw new ConnectorError('bad-body', M.tiktokVideoTooLong(Math.ceil(video.durationSeconds), max));
  }
  return {
    username: typeof data.creator_username === 'string' ? data.creator_username : '',
    options,
    privacyLevel,
    disable: {
      // What the creator turned off in TikTok stays off; the rest stays on.
      disable_comment: data.comment_disabled === true,
      disable_duet: data.duet_disabled === true,
      disable_stitch: data.stitch_disabled === true,
    },
  };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

async function upload(
  uploadUrl: string,
  video: PostMedia,
  bytes: Buffer,
  beforeLast: () => Promise<void>,
  signal?: AbortSignal,
) {
  const { chunkSize, totalChunkCount } = chunkPlan(bytes.length);
  for (let i = 0; i < totalChunkCount; i++) {
    if (i === totalChunkCount - 1) await beforeLast();
    const first = i * chunkSize;
    const last = i === totalChunkCount - 1 ? bytes.length - 1 : first + chunkSize - 1;
    const chunk = bytes.subarray(first, last + 1);
    const { res, body } = await send(
      uploadUrl,
      {
        method: 'PUT',
        headers: {
          'content-type': video.contentType,
          'content-length': String(chunk.length),
          'content-range': `bytes ${first}-${last}/${bytes.length}`,
        },
        body: chunk,
      },
      signal,
    );
    if (!res.ok) throw apiError(res.status, res.headers, body);
  }
}

/**
 * POST an init (video or photo) with the privacy level chosen from the creator's options. An app before
 * TikTok's audit may post only privately: then the post goes out as SELF_ONLY (only the creator sees it until
 * they change it in TikTok).
 */
async function init(
  o: TiktokContext,
  path: string,
  accessToken: string,
  prepared: Prepared,
  body: (privacyLevel: string) => unknown,
  signal?: AbortSignal,
) {
  try {
    const { data } = await api(`${o.apiBase}${path}`, accessToken, body(prepared.privacyLevel), signal);
    return { data, privacyLevel: prepared.privacyLevel };
  } catch (error) {
    if (
      error instanceof ConnectorError &&
      error.message.includes(UNAUDITED) &&
      prepared.privacyLevel !== 'SELF_ONLY' &&
      prepared.options.includes('SELF_ONLY')
    ) {
      const { data } = await api(`${o.apiBase}${path}`, accessToken, body('SELF_ONLY'), signal);
      return { data, privacyLevel: 'SELF_ONLY' };
    }
    throw error;
  }
}

/**
 * Status fetches until PUBLISH_COMPLETE (bounded, abortable); FAILED is TikTok refusing the video, and that
 * publish_id is `forget`-ten (it will never be published: a republish starts a new one).
 */
async function waitPublished(
  o: TiktokContext,
  accessToken: string,
  state: PublishState,
  forget: () => Promise<void>,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  const publishId = state.publishId;
  const deadline = Date.now() + o.pollTimeoutMs;
  let complete = false;
  for (;;) {
    const { data } = await api(
      `${o.apiBase}/v2/post/publish/status/fetch/`,
      accessToken,
      { publish_id: publishId },
      signal,
    );
    const status = String(data.status ?? '');
    if (status === 'FAILED') {
      await forget();
      throw new ConnectorError('bad-body', `TikTok did not publish the video: ${String(data.fail_reason ?? status)}`);
    }
    const ids = Array.isArray(data.publicaly_available_post_id)
      ? (data.publicaly_available_post_id as unknown[]).map(String).filter((id) => /^\d+$/.test(id))
      : [];
    complete = status === 'PUBLISH_COMPLETE';
    const id = ids[0];
    if (complete && id) {
      return { externalId: id, shareUrl: `https://www.tiktok.com/@${state.username}/${state.kind}/${id}`, views: 0 };
    }
    // A private post never gets a public id; a public one gets it after TikTok's moderation (minutes).
    if (complete && (state.privacyLevel === 'SELF_ONLY' || Date.now() + o.pollIntervalMs > deadline)) {
      return { externalId: publishId, shareUrl: `https://www.tiktok.com/@${state.username}`, views: 0 };
    }
    if (Date.now() + o.pollIntervalMs > deadline) {
      throw new ConnectorError('retry', `TikTok is still processing the video (${status || 'no status'})`);
    }
    await sleep(o.pollIntervalMs, signal);
  }
}

/** A video: init with FILE_UPLOAD, then the chunks; TikTok publishes once the last chunk is in. */
async function startVideo(
  o: TiktokContext,
  accessToken: string,
  message: string,
  video: PostMedia,
  record: (state: PublishState) => Promise<void>,
  signal?: AbortSignal,
) {
  const prepared = await prepare(o, accessToken, video, signal);
  const bytes = await video.read();
  if (bytes.length === 0) throw new ConnectorError('bad-body', 'the video file is empty');
  const { chunkSize, totalChunkCount } = chunkPlan(bytes.length);
  const { data, privacyLevel } = await init(
    o,
    '/v2/post/publish/video/init/',
    accessToken,
    prepared,
    (privacy_level) => ({
      post_info: { title: message, privacy_level, ...prepared.disable },
      source_info: {
        source: 'FILE_UPLOAD',
        video_size: bytes.length,
        chunk_size: chunkSize,
        total_chunk_count: totalChunkCount,
      },
    }),
    signal,
  );
  const publishId = typeof data.publish_id === 'string' ? data.publish_id : null;
  const uploadUrl = typeof data.upload_url === 'string' ? data.upload_url : null;
  if (!publishId || !uploadUrl) throw new ConnectorError('bad-body', 'no publish_id or upload_url in the reply');
  // Until every chunk is in TikTok publishes nothing: a retry before the last chunk starts a new upload; one
  // after it (the reply lost) first asks TikTok whether it got the whole video.
  const started = { kind: 'video' as const, publishId, username: prepared.username, privacyLevel };
  await upload(
    uploadUrl,
    video,
    bytes,
    () => record({ ...started, uploaded: false, sendingLast: bytes.length }),
    signal,
  );
  return started;
}

/**
 * Photos: TikTok pulls them from their URLs (PULL_FROM_URL only), which must be on a domain or URL prefix
 * verified for the app in TikTok's developer portal (the studio's PUBLIC_URL). TikTok starts publishing at init.
 */
async function startPhotos(
  o: TiktokContext,
  accessToken: string,
  message: string,
  photos: PostMedia[],
  signal?: AbortSignal,
) {
  const prepared = await prepare(o, accessToken, null, signal);
  const { data, privacyLevel } = await init(
    o,
    '/v2/post/publish/content/init/',
    accessToken,
    prepared,
    (privacy_level) => ({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: {
        // A photo post's title is at most 90 characters: the first line; the message is the description.
        title: [...(message.split('\n')[0] ?? '')].slice(0, PHOTO_TITLE_MAX).join(''),
        description: message,
        privacy_level,
        disable_comment: prepared.disable.disable_comment,
        auto_add_music: true,
      },
      source_info: {
        source: 'PULL_FROM_URL',
        photo_cover_index: 0,
        photo_images: photos.map((p) => p.url),
      },
    }),
    signal,
  );
  const publishId = typeof data.publish_id === 'string' ? data.publish_id : null;
  if (!publishId) throw new ConnectorError('bad-body', 'no publish_id in the reply');
  return { kind: 'photo' as const, publishId, username: prepared.username, privacyLevel };
}

async function publish(
  o: TiktokContext,
  { recorded, record }: JournaledPublish<PublishState>,
  accessToken: string,
  message: string,
  media: { video: PostMedia } | { photos: PostMedia[] },
  signal?: AbortSignal,
) {
  let state = recorded;
  if (state?.outcome) return state.outcome;
  if (state && !state.uploaded && state.sendingLast !== null) {
    const { data } = await api(
      `${o.apiBase}/v2/post/publish/status/fetch/`,
      accessToken,
      { publish_id: state.publishId },
      signal,
    );
    const got = Number(data.uploaded_bytes);
    if ((Number.isFinite(got) && got >= state.sendingLast) || String(data.status) === 'PUBLISH_COMPLETE') {
      state = { ...state, uploaded: true, sendingLast: null };
      await record(state);
    }
  }
  if (!state?.uploaded) {
    const started =
      'video' in media
        ? await startVideo(o, accessToken, message, media.video, record, signal)
        : await startPhotos(o, accessToken, message, media.photos, signal);
    state = { ...started, uploaded: true, sendingLast: null };
    // Photos: TikTok publishes from the init on, so its publish_id is recorded as soon as it answers.
    await record(state);
  }
  const outcome = await waitPublished(o, accessToken, state, () => record(null).catch(() => undefined), signal);
  // Not recorded (the database unreachable): the retry polls the same publish_id again.
  await record({ ...state, outcome }).catch(() => undefined);
  return outcome;
}

function authUrl(o: TiktokContext, redirectUri: string): AuthRequest {
  const state = randomBytes(24).toString('base64url');
  const query = new URLSearchParams({
    client_key: o.clientKey,
    scope: SCOPES,
    response_type: 'code',
    redirect_uri: redirectUri,
    state,
  });
  // Login Kit for Web takes no PKCE; the verifier is kept for the connector shape only.
  return {
    url: `${o.authBase}/v2/auth/authorize/?${query}`,
    codeVerifier: randomBytes(32).toString('base64url'),
    state,
  };
}

async function authenticate(o: TiktokContext, input: AuthCallback): Promise<Authenticated> {
  const { openId, ...tokens } = await token(o, {
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
  });
  const me = await userInfo(o, tokens.accessToken);
  const externalId = me.openId ?? openId;
  if (!externalId) throw new ConnectorError('bad-body', 'no open_id in /v2/user/info/');
  return {
    tokens,
    profile: { externalId, username: me.username ?? externalId, followerCount: me.followerCount },
  };
}

async function refresh(o: TiktokContext, refreshToken: string): Promise<TokenSet> {
  const { openId: _, ...tokens } = await token(o, { grant_type: 'refresh_token', refresh_token: refreshToken });
  return tokens;
}

async function fetchProfile(o: TiktokContext, accessToken: string): Promise<{ followerCount: number }> {
  const me = await userInfo(o, accessToken);
  if (me.followerCount === null) throw new ConnectorError('bad-body', 'no follower_count in /v2/user/info/');
  return { followerCount: me.followerCount };
}

async function fetchPostMetrics(
  o: TiktokContext,
  accessToken: string,
  externalIds: readonly string[],
): Promise<Map<string, PostMetrics>> {
  const out = new Map<string, PostMetrics>();
  // A private post is known by its publish_id only: TikTok reports no figures for it.
  const ids = externalIds.filter((id) => /^\d+$/.test(id));
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const { data } = await api(`${o.apiBase}/v2/video/query/?fields=${VIDEO_FIELDS}`, accessToken, {
      filters: { video_ids: ids.slice(i, i + IDS_PER_QUERY) },
    });
    // A deleted video is not in the reply: left out.
    for (const v of (data.videos ?? []) as Array<Record<string, unknown>>) {
      if (v.id === undefined || v.id === null) continue;
      out.set(String(v.id), {
        views: countOf(v.view_count),
        likes: countOf(v.like_count),
        comments: countOf(v.comment_count),
        shares: countOf(v.share_count),
      });
    }
  }
  return out;
}

async function post(o: TiktokContext, accessToken: string, input: PostInput, signal?: AbortSignal) {
  // TikTok posts a video, or photos; never text alone. A post with a video posts the video.
  const video = input.media.find((m) => m.kind === 'video');
  const photos = input.media.filter((m) => m.kind === 'image');
  if (!video && photos.length === 0) throw new ConnectorError('bad-body', M.tiktokNeedsVideo);
  if (!video && (photos.length > PHOTOS_MAX || photos.some((p) => !PHOTO_TYPES.includes(p.contentType)))) {
    throw new ConnectorError('bad-body', M.tiktokPhotoRules);
  }
  const key = { platform: 'tiktok' as const, accountId: input.authorId, idempotencyKey: input.idempotencyKey };
  return journaledPublish<PublishState>(o.journal, key, (run) =>
    publish(o, run, accessToken, input.message, video ? { video } : { photos }, signal),
  );
}
