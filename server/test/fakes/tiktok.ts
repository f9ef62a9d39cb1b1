import { createHash, randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bearerOf,
  closeServer,
  formFields,
  listenLocally,
  matchRoute,
  type Route,
  readBody,
  sendEmpty,
  sendJson,
} from './fake-http.ts';

// A local fake of TikTok's API v2 as documented (developers.tiktok.com): Login Kit for Web (authorize → code,
// /v2/oauth/token/ code and refresh grants, OAuth error bodies), the Content Posting API's Direct Post (creator
// info, video init with FILE_UPLOAD and its chunk rules, chunk PUTs with Content-Range, status fetch), user info
// and video query, and photo posts (content init, PULL_FROM_URL from verified URL prefixes). Errors are
// {data:{}, error:{code,message,log_id}} with TikTok's HTTP statuses; the video and photo inits are limited to 6
// calls a minute per access token (429 rate_limit_exceeded, no Retry-After, as TikTok).

const MB = 1024 * 1024;
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];

interface TiktokUpload {
  kind: 'video' | 'photo';
  publishId: string;
  /** A photo post's images, pulled from their URLs. */
  photoImages: string[];
  accessToken: string;
  postInfo: Record<string, unknown>;
  sourceInfo: { video_size: number; chunk_size: number; total_chunk_count: number };
  /** Chunks received: their Content-Range, Content-Type and length. */
  chunks: Array<{ range: string; contentType: string; length: number }>;
  received: number;
  sha256: string | null;
  status: 'PROCESSING_UPLOAD' | 'PUBLISH_COMPLETE' | 'FAILED';
  /** Status fetches left before processing finishes. */
  pollsLeft: number;
  postId: string | null;
  failReason: string | null;
  hash: ReturnType<typeof createHash>;
  /** The bytes received, chunk by chunk. */
  parts: Buffer[];
}

export interface TiktokFake {
  server: Server;
  base: string;
  clientKey: string;
  clientSecret: string;
  /** code → redirect_uri it was issued for. */
  codes: Map<string, string>;
  access: Map<string, string>;
  refresh: Set<string>;
  tokenCalls: Array<Record<string, string>>;
  /** Every request: method, path and headers. */
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: string }>;
  user: { openId: string; username: string; displayName: string; followers: number; videos: number };
  creator: {
    privacy_level_options: string[];
    comment_disabled: boolean;
    duet_disabled: boolean;
    stitch_disabled: boolean;
    max_video_post_duration_sec: number;
  };
  /** URL prefixes verified for the app (PULL_FROM_URL sources must start with one). */
  verifiedPrefixes: string[];
  /** Whether the app passed TikTok's audit (else only SELF_ONLY posts are allowed). */
  audited: boolean;
  /** Status fetches a publish takes before it is complete. */
  processingPolls: number;
  /** The next complete upload is taken, but its reply is lost (the connection is dropped). */
  dropLastChunkReply: boolean;
  /** The next publish fails with this reason. */
  failNext: string | null;
  /** The next N calls to the named path answer this error. */
  errors: Array<{ path: string; status: number; code: string; times: number; retryAfter?: string }>;
  uploads: Map<string, TiktokUpload>;
  /** Published posts (PUBLISH_COMPLETE): what TikTok shows. */
  published: Array<{
    kind: 'video' | 'photo';
    postId: string | null;
    publishId: string;
    title: string;
    description: string | null;
    privacyLevel: string;
    bytes: number;
    /** The video file as TikTok received it. */
    video: Buffer | null;
    photoImages: string[];
  }>;
  metrics: Map<string, { views: number; likes: number; comments: number; shares: number }>;
  /** Video init calls by token in the last minute. */
  inits: Map<string, number[]>;
  close(): Promise<void>;
}

const logId = () => `2026${randomBytes(10).toString('hex').toUpperCase()}`;

interface TiktokRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  raw: Buffer;
}

/** A call to the API with a valid access token. */
interface ApiCall extends TiktokRequest {
  bearer: string;
  /** The JSON body of a POST ({} otherwise). */
  body: Record<string, unknown>;
}

type Handler<R> = (fake: TiktokFake, r: R, params: string[]) => unknown;

const ok = (res: ServerResponse, data: unknown) =>
  sendJson(res, 200, { data, error: { code: 'ok', message: '', log_id: logId() } });

const fail = (
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) => sendJson(res, status, { data: {}, error: { code, message, log_id: logId() } }, headers);

const failUnaudited = (res: ServerResponse) =>
  fail(
    res,
    403,
    'unaudited_client_can_only_post_to_private_accounts',
    'Unaudited clients can only post with SELF_ONLY.',
  );

// ---- OAuth (Login Kit, v2) ----

/** POST /v2/oauth/token/: the code and refresh grants, form-encoded, with the client key and secret. */
const token: Handler<TiktokRequest> = (fake, { req, res, raw }) => {
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'invalid_request', error_description: 'POST only' });
  if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
    return sendJson(res, 400, { error: 'invalid_request', error_description: 'Content-Type must be form-urlencoded.' });
  }
  const form = formFields(raw);
  fake.tokenCalls.push(form);
  const oauthError = (error: string, description: string) =>
    sendJson(res, 400, { error, error_description: description, log_id: logId() });
  if (form.client_key !== fake.clientKey || form.client_secret !== fake.clientSecret) {
    return oauthError('invalid_client', 'Client key or secret is incorrect.');
  }
  if (form.grant_type === 'authorization_code') {
    const redirect = fake.codes.get(form.code ?? '');
    fake.codes.delete(form.code ?? '');
    if (!redirect) return oauthError('invalid_grant', 'Authorization code is expired.');
    if (redirect !== form.redirect_uri) return oauthError('invalid_grant', 'Redirect URI mismatch.');
    return issueTokens(fake, res);
  }
  if (form.grant_type === 'refresh_token') {
    if (!fake.refresh.delete(form.refresh_token ?? '')) {
      return oauthError('invalid_grant', 'Refresh token is invalid or expired.');
    }
    return issueTokens(fake, res);
  }
  return oauthError('unsupported_grant_type', 'Grant type is not supported.');
};

function issueTokens(fake: TiktokFake, res: ServerResponse) {
  const access = `act.${randomBytes(16).toString('hex')}`;
  const refresh = `rft.${randomBytes(16).toString('hex')}`;
  fake.access.set(access, fake.user.openId);
  fake.refresh.add(refresh);
  return sendJson(res, 200, {
    access_token: access,
    expires_in: 86400,
    open_id: fake.user.openId,
    refresh_expires_in: 31536000,
    refresh_token: refresh,
    scope: 'user.info.basic,user.info.profile,user.info.stats,video.publish,video.list',
    token_type: 'Bearer',
  });
}

// ---- Chunk upload to upload_url (no bearer: the URL is the credential) ----

const uploadChunk: Handler<TiktokRequest> = (fake, { req, res, raw }, [publishId]) => {
  const upload = fake.uploads.get(publishId as string);
  if (!upload || req.method !== 'PUT') return fail(res, 404, 'invalid_params', 'Upload URL not found or expired.');
  const contentType = String(req.headers['content-type'] ?? '');
  if (!VIDEO_TYPES.includes(contentType)) {
    return fail(res, 400, 'invalid_file_upload', `Unsupported Content-Type: ${contentType || 'none'}.`);
  }
  const { video_size, chunk_size, total_chunk_count } = upload.sourceInfo;
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
  if (!m) return fail(res, 400, 'invalid_params', 'Content-Range is missing or malformed.');
  const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const index = upload.chunks.length;
  const expected = index === total_chunk_count - 1 ? video_size - index * chunk_size : chunk_size;
  if (total !== video_size) return fail(res, 400, 'invalid_params', 'Content-Range total does not match video_size.');
  if (index >= total_chunk_count) return fail(res, 400, 'invalid_params', 'All chunks were already uploaded.');
  // Chunks go in order, each of the size the chunk plan says.
  if (first !== upload.received || last - first + 1 !== expected || raw.length !== expected) {
    return fail(
      res,
      400,
      'invalid_params',
      `Chunk ${index} must be bytes ${upload.received}-${upload.received + expected - 1}.`,
    );
  }
  if (Number(req.headers['content-length']) !== raw.length) {
    return fail(res, 400, 'invalid_params', 'Content-Length does not match the body.');
  }
  if (index === 0 && contentType !== 'video/webm' && raw.subarray(4, 8).toString('latin1') !== 'ftyp') {
    return fail(res, 400, 'invalid_file_upload', 'The file is not a valid MP4/MOV video.');
  }
  upload.chunks.push({ range: String(req.headers['content-range']), contentType, length: raw.length });
  upload.received += raw.length;
  upload.hash.update(raw);
  upload.parts.push(raw);
  if (upload.chunks.length < total_chunk_count) {
    return sendEmpty(res, 206, { 'content-range': `bytes 0-${upload.received - 1}/${video_size}` });
  }
  upload.sha256 = upload.hash.digest('hex');
  if (fake.dropLastChunkReply) {
    fake.dropLastChunkReply = false;
    return req.socket.destroy();
  }
  return sendEmpty(res, 201);
};

// ---- The API, as the user ----

const userInfo: Handler<ApiCall> = (fake, { res, url }) => {
  const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  if (fields.length === 0) return fail(res, 400, 'invalid_params', 'fields is required.');
  const all: Record<string, unknown> = {
    open_id: fake.user.openId,
    union_id: 'union-1',
    display_name: fake.user.displayName,
    username: fake.user.username,
    follower_count: fake.user.followers,
    video_count: fake.user.videos,
  };
  return ok(res, { user: Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])) });
};

const creatorInfo: Handler<ApiCall> = (fake, { res }) =>
  ok(res, {
    creator_avatar_url: 'https://p16.tiktokcdn.example/avatar.jpeg',
    creator_username: fake.user.username,
    creator_nickname: fake.user.displayName,
    ...fake.creator,
  });

/** Whether the token may init another post (at most 6 a minute); counts this one when it may. */
function allowInit(fake: TiktokFake, bearer: string): boolean {
  const now = Date.now();
  const recent = (fake.inits.get(bearer) ?? []).filter((t) => now - t < 60_000);
  if (recent.length >= 6) return false;
  fake.inits.set(bearer, [...recent, now]);
  return true;
}

/** TikTok's chunk rules (Media Transfer Guide): what is wrong with the plan, or null. */
function chunkPlanError(size: number, chunk: number, count: number): string | null {
  const lastChunk = size - (count - 1) * chunk;
  if (count !== Math.floor(size / chunk)) return 'total_chunk_count must be video_size / chunk_size rounded down';
  if (count > 1000) return 'at most 1000 chunks';
  if (size < 5 * MB && chunk !== size) return 'a video under 5 MB is uploaded whole';
  if (size > 64 * MB && count < 2) return 'a video over 64 MB is uploaded in several chunks';
  if (count > 1 && (chunk < 5 * MB || chunk > 64 * MB)) return 'chunks are 5 MB to 64 MB';
  if (count === 1 && chunk > 64 * MB) return 'a single chunk is at most 64 MB';
  if (lastChunk > 128 * MB) return 'the last chunk is at most 128 MB';
  return null;
}

/** Records a new upload (taking the pending `failNext`) under its publish id. */
function addUpload(
  fake: TiktokFake,
  upload: Pick<TiktokUpload, 'kind' | 'photoImages' | 'publishId' | 'accessToken' | 'postInfo' | 'sourceInfo'>,
) {
  fake.uploads.set(upload.publishId, {
    ...upload,
    chunks: [],
    received: 0,
    sha256: null,
    status: 'PROCESSING_UPLOAD',
    pollsLeft: fake.processingPolls,
    postId: null,
    failReason: fake.failNext,
    hash: createHash('sha256'),
    parts: [],
  });
  fake.failNext = null;
}

/** POST /v2/post/publish/video/init/: Direct Post of a video by FILE_UPLOAD; answers the upload URL. */
const videoInit: Handler<ApiCall> = (fake, { res, bearer, body }) => {
  if (!allowInit(fake, bearer)) return fail(res, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
  const post = (body.post_info ?? {}) as Record<string, unknown>;
  const source = (body.source_info ?? {}) as Record<string, unknown>;
  const privacy = String(post.privacy_level ?? '');
  if (!PRIVACY.includes(privacy)) return fail(res, 400, 'invalid_params', 'privacy_level is invalid.');
  if (!fake.creator.privacy_level_options.includes(privacy)) {
    return fail(res, 400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator options.');
  }
  if (!fake.audited && privacy !== 'SELF_ONLY') return failUnaudited(res);
  if (typeof post.title === 'string' && [...post.title].length > 2200) {
    return fail(res, 400, 'invalid_params', 'title is longer than 2200 characters.');
  }
  for (const flag of ['disable_comment', 'disable_duet', 'disable_stitch'] as const) {
    if (post[flag] !== undefined && typeof post[flag] !== 'boolean') {
      return fail(res, 400, 'invalid_params', `${flag} must be a boolean.`);
    }
  }
  if (source.source === 'PULL_FROM_URL') {
    return fail(res, 403, 'url_ownership_unverified', 'The domain or URL prefix of video_url is not verified.');
  }
  if (source.source !== 'FILE_UPLOAD') return fail(res, 400, 'invalid_params', 'source_info.source is invalid.');
  const size = Number(source.video_size);
  const chunk = Number(source.chunk_size);
  const count = Number(source.total_chunk_count);
  if (![size, chunk, count].every((n) => Number.isInteger(n) && n > 0)) {
    return fail(res, 400, 'invalid_params', 'video_size, chunk_size and total_chunk_count are required integers.');
  }
  const chunkError = chunkPlanError(size, chunk, count);
  if (chunkError) return fail(res, 400, 'invalid_params', `Invalid chunk plan: ${chunkError}.`);
  const publishId = `v_pub_file~v2-1.${randomBytes(8).toString('hex')}`;
  addUpload(fake, {
    kind: 'video',
    photoImages: [],
    publishId,
    accessToken: bearer,
    postInfo: post,
    sourceInfo: { video_size: size, chunk_size: chunk, total_chunk_count: count },
  });
  const address = fake.server.address() as AddressInfo;
  return ok(res, { publish_id: publishId, upload_url: `http://127.0.0.1:${address.port}/upload/${publishId}` });
};

/** POST /v2/post/publish/content/init/: photo posts, PULL_FROM_URL from a verified prefix only. */
const photoInit: Handler<ApiCall> = (fake, { res, bearer, body }) => {
  if (!allowInit(fake, bearer)) return fail(res, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
  const post = (body.post_info ?? {}) as Record<string, unknown>;
  const source = (body.source_info ?? {}) as Record<string, unknown>;
  if (body.media_type !== 'PHOTO') return fail(res, 400, 'invalid_params', 'media_type must be PHOTO.');
  if (body.post_mode !== 'DIRECT_POST' && body.post_mode !== 'MEDIA_UPLOAD') {
    return fail(res, 400, 'invalid_params', 'post_mode is invalid.');
  }
  const privacy = String(post.privacy_level ?? '');
  if (body.post_mode === 'DIRECT_POST' && !fake.creator.privacy_level_options.includes(privacy)) {
    return fail(res, 400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator options.');
  }
  if (!fake.audited && privacy !== 'SELF_ONLY') return failUnaudited(res);
  if (typeof post.title === 'string' && [...post.title].length > 90) {
    return fail(res, 400, 'invalid_params', 'title is longer than 90 characters.');
  }
  if (typeof post.description === 'string' && [...post.description].length > 4000) {
    return fail(res, 400, 'invalid_params', 'description is longer than 4000 characters.');
  }
  if (source.source !== 'PULL_FROM_URL') return fail(res, 400, 'invalid_params', 'Photos are PULL_FROM_URL only.');
  const images = source.photo_images;
  if (!Array.isArray(images) || images.length === 0 || images.length > 35) {
    return fail(res, 400, 'invalid_params', 'photo_images must have 1 to 35 URLs.');
  }
  const cover = Number(source.photo_cover_index);
  if (!Number.isInteger(cover) || cover < 0 || cover >= images.length) {
    return fail(res, 400, 'invalid_params', 'photo_cover_index is out of range.');
  }
  if (!images.every((u) => typeof u === 'string' && fake.verifiedPrefixes.some((p) => u.startsWith(p)))) {
    return fail(res, 403, 'url_ownership_unverified', 'The domain or URL prefix of photo_images is not verified.');
  }
  const publishId = `p_pub_url~v2.${randomBytes(8).toString('hex')}`;
  addUpload(fake, {
    kind: 'photo',
    photoImages: images as string[],
    publishId,
    accessToken: bearer,
    postInfo: post,
    sourceInfo: { video_size: 0, chunk_size: 0, total_chunk_count: 0 },
  });
  return ok(res, { publish_id: publishId });
};

/** One status fetch of an upload whose bytes are all in: a step of processing, then published or failed. */
function advanceProcessing(fake: TiktokFake, upload: TiktokUpload) {
  if (upload.pollsLeft > 0) upload.pollsLeft--;
  else if (upload.failReason) upload.status = 'FAILED';
  else {
    upload.status = 'PUBLISH_COMPLETE';
    const privacy = String(upload.postInfo.privacy_level);
    // Private posts get no public id; public ones get one once moderated.
    upload.postId = privacy === 'SELF_ONLY' ? null : String(7300000000000000000n + BigInt(fake.published.length + 1));
    fake.published.push({
      kind: upload.kind,
      postId: upload.postId,
      publishId: upload.publishId,
      title: String(upload.postInfo.title ?? ''),
      description: typeof upload.postInfo.description === 'string' ? upload.postInfo.description : null,
      privacyLevel: privacy,
      bytes: upload.received,
      video: upload.kind === 'video' ? Buffer.concat(upload.parts) : null,
      photoImages: upload.photoImages,
    });
  }
}

/** POST /v2/post/publish/status/fetch/ */
const publishStatus: Handler<ApiCall> = (fake, { res, body }) => {
  const upload = fake.uploads.get(String(body.publish_id ?? ''));
  if (!upload || upload.accessToken.length === 0) return fail(res, 400, 'invalid_params', 'publish_id is invalid.');
  if (upload.status === 'PROCESSING_UPLOAD' && (upload.sha256 || upload.kind === 'photo')) {
    advanceProcessing(fake, upload);
  }
  // The post id is an int64: written as a bare JSON number, as TikTok does.
  const ids = upload.postId ? `[${upload.postId}]` : '[]';
  const data = `{"status":"${upload.status}"${upload.status === 'FAILED' ? `,"fail_reason":"${upload.failReason}"` : ''},"publicaly_available_post_id":${ids},"uploaded_bytes":${upload.received}}`;
  res.writeHead(200, { 'content-type': 'application/json' });
  return res.end(`{"data":${data},"error":{"code":"ok","message":"","log_id":"${logId()}"}}`);
};

/** POST /v2/video/query/: the fields asked for of the known videos among filters.video_ids. */
const videoQuery: Handler<ApiCall> = (fake, { res, url, body }) => {
  const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  const ids = ((body.filters as { video_ids?: unknown } | undefined)?.video_ids ?? []) as unknown[];
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20) {
    return fail(res, 400, 'invalid_params', 'filters.video_ids must have 1 to 20 ids.');
  }
  const videos = ids
    .map(String)
    .filter((id) => fake.metrics.has(id))
    .map((id) => {
      const m = fake.metrics.get(id) as { views: number; likes: number; comments: number; shares: number };
      const all: Record<string, unknown> = {
        id,
        view_count: m.views,
        like_count: m.likes,
        comment_count: m.comments,
        share_count: m.shares,
      };
      return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
    });
  return ok(res, { videos, cursor: 0, has_more: false });
};

/** What needs no access token. */
const OPEN: ReadonlyArray<Route<Handler<TiktokRequest>>> = [
  { method: '*', path: '/v2/oauth/token/', handle: token },
  { method: '*', path: /^\/upload\/(.*)$/s, handle: uploadChunk },
];

const API: ReadonlyArray<Route<Handler<ApiCall>>> = [
  { method: 'GET', path: '/v2/user/info/', handle: userInfo },
  { method: 'POST', path: '/v2/post/publish/creator_info/query/', handle: creatorInfo },
  { method: 'POST', path: '/v2/post/publish/video/init/', handle: videoInit },
  { method: 'POST', path: '/v2/post/publish/content/init/', handle: photoInit },
  { method: 'POST', path: '/v2/post/publish/status/fetch/', handle: publishStatus },
  { method: 'POST', path: '/v2/video/query/', handle: videoQuery },
];

/** An API call: an injected error first, then the access token, the JSON body of a POST, and the route. */
function handleApi(fake: TiktokFake, r: TiktokRequest) {
  const { req, res, url, raw } = r;
  const bearer = bearerOf(req);
  const injected = fake.errors.find((e) => e.path === url.pathname && e.times > 0);
  if (injected) {
    injected.times--;
    return fail(
      res,
      injected.status,
      injected.code,
      `Injected ${injected.code}.`,
      injected.retryAfter ? { 'retry-after': injected.retryAfter } : {},
    );
  }
  if (!fake.access.has(bearer)) {
    return fail(res, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
  }
  let body: Record<string, unknown> = {};
  if (req.method === 'POST') {
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      return fail(res, 400, 'invalid_params', 'Content-Type must be application/json.');
    }
    try {
      body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      return fail(res, 400, 'invalid_params', 'The request body is not valid JSON.');
    }
  }
  const route = matchRoute(API, req.method ?? '', url.pathname);
  if (!route) return fail(res, 404, 'invalid_params', `Unknown endpoint ${req.method} ${url.pathname}.`);
  return route.handle(fake, { ...r, bearer, body }, route.params);
}

async function handleRequest(fake: TiktokFake, req: IncomingMessage, res: ServerResponse) {
  const raw = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://fake');
  fake.requests.push({
    method: req.method ?? '',
    path: url.pathname + url.search,
    headers: req.headers,
    body: url.pathname.startsWith('/upload/') ? '' : raw.toString('utf8'),
  });
  const r: TiktokRequest = { req, res, url, raw };
  const route = matchRoute(OPEN, req.method ?? '', url.pathname);
  if (route) return route.handle(fake, r, route.params);
  return handleApi(fake, r);
}

export async function startTiktokFake(
  client = { key: 'tiktok-key-1', secret: 'tiktok-secret-2' },
): Promise<TiktokFake> {
  const fake: TiktokFake = {
    clientKey: client.key,
    clientSecret: client.secret,
    codes: new Map(),
    access: new Map(),
    refresh: new Set(),
    tokenCalls: [],
    requests: [],
    user: { openId: '-000ABCdef_open', username: 'genpro.tt', displayName: 'Gen Pro', followers: 77, videos: 3 },
    creator: {
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: false,
      duet_disabled: true,
      stitch_disabled: false,
      max_video_post_duration_sec: 600,
    },
    audited: true,
    verifiedPrefixes: ['https://studio.example.com/'],
    processingPolls: 2,
    dropLastChunkReply: false,
    failNext: null,
    errors: [],
    uploads: new Map(),
    published: [],
    metrics: new Map(),
    inits: new Map(),
  } as unknown as TiktokFake;
  fake.server = createServer((req, res) => handleRequest(fake, req, res));
  fake.base = await listenLocally(fake.server);
  fake.close = () => closeServer(fake.server);
  return fake;
}

/** What TikTok's authorize page does when the user approves: a code for the redirect URI, back with the state. */
export function approveTiktok(fake: TiktokFake, authUrl: string): { code: string; state: string } {
  const u = new URL(authUrl);
  if (u.pathname !== '/v2/auth/authorize/' || u.searchParams.get('client_key') !== fake.clientKey) {
    throw new Error('TikTok: invalid client_key or authorize path');
  }
  if (u.searchParams.get('response_type') !== 'code' || !u.searchParams.get('scope')?.includes('video.publish')) {
    throw new Error('TikTok: response_type must be code and the scope must include video.publish');
  }
  const code = randomBytes(8).toString('hex');
  fake.codes.set(code, u.searchParams.get('redirect_uri') ?? '');
  return { code, state: u.searchParams.get('state') ?? '' };
}

/** A minimal MP4 of `size` bytes (an ftyp box, then filler) for upload tests. */
export function fakeMp4(size: number): Buffer {
  const buf = Buffer.alloc(size, 0x2a);
  buf.writeUInt32BE(24, 0);
  buf.write('ftypisom', 4, 'latin1');
  return buf;
}
