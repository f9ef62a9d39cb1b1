import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

// A local fake of Google's OAuth 2.0 endpoints and the YouTube Data API v3 parts the connector uses, speaking
// their documented shapes: the consent page (/o/oauth2/v2/auth, approving at once with a redirect), the token
// endpoint (/token: authorization_code with PKCE, refresh_token; invalid_grant / invalid_client), channels.list
// mine=true, videos.list part=statistics, and videos.insert as a resumable upload (session POST → Location,
// PUT bytes with Content-Range, status query `bytes */total` → 308 Range or the finished video). Errors carry
// Google's body {error:{code,message,errors:[{message,domain,reason}],status}}. It keeps what was uploaded.

const UPLOAD_SCOPE = 'https://www.googleapis.com/auth/youtube.upload';
const READONLY_SCOPE = 'https://www.googleapis.com/auth/youtube.readonly';
const PRIVACY = new Set(['private', 'unlisted', 'public']);

interface FakeYoutubeVideo {
  id: string;
  snippet: { title: string; description: string };
  status: { privacyStatus: string; selfDeclaredMadeForKids?: boolean };
  contentType: string;
  bytes: Buffer;
  /** The authorization of the session start. */
  accessToken: string;
}

interface Session {
  id: string;
  accessToken: string;
  metadata: { snippet: { title: string; description: string }; status: FakeYoutubeVideo['status'] };
  contentType: string;
  total: number;
  received: Buffer[];
  receivedBytes: number;
  /** Every byte PUT: its Content-Range and length. */
  puts: Array<{ range: string; length: number }>;
  video?: FakeYoutubeVideo;
}

/** A failure the next matching request answers with. */
type Injected =
  | 'quotaExceeded'
  | 'rateLimitExceeded'
  | 'userRateLimitExceeded'
  | 'uploadLimitExceeded'
  | 'backendError'
  | 'unavailable';

export interface FakeYoutube {
  server: Server;
  base: string;
  /** What the fake's token endpoint URL is (the connector's tokenUrl). */
  tokenUrl: string;
  client: { id: string; secret: string };
  channel: { id: string; title: string; customUrl: string; subscribers: number; hidden: boolean };
  /** code → the consent it was issued for. */
  codes: Map<string, { challenge: string; redirectUri: string; scope: string }>;
  access: Map<string, { scope: string; expiresAt: number }>;
  refresh: Map<string, string>;
  tokenCalls: Array<Record<string, string>>;
  sessions: Map<string, Session>;
  /** Finished uploads in order. */
  videos: FakeYoutubeVideo[];
  /** Figures by video id, as videos.list reports them. */
  statistics: Map<string, { viewCount: number; likeCount: number; commentCount: number }>;
  /** The next session start answers this failure (then it is cleared). */
  failNextStart: Injected | null;
  /** Retry-After on an injected 503 (seconds), when set. */
  retryAfter: number | null;
  /** The next byte PUT keeps only this many bytes, then the connection answers 503 (an interrupted upload). */
  breakNextPutAfter: number | null;
  /** After an upload completes, this many following requests to its session answer 503 (a lost reply). */
  dropRepliesAfterFinish: number;
  /** Every request, method and path (with query). */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

function googleError(
  res: ServerResponse,
  code: number,
  reason: string,
  message: string,
  domain = 'youtube.video',
  headers: Record<string, string> = {},
) {
  const status =
    code === 401
      ? 'UNAUTHENTICATED'
      : code === 403
        ? 'PERMISSION_DENIED'
        : code === 404
          ? 'NOT_FOUND'
          : code >= 500
            ? 'UNAVAILABLE'
            : 'INVALID_ARGUMENT';
  json(res, code, { error: { code, message, errors: [{ message, domain, reason }], status } }, headers);
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  sendJson(res, status, body, { 'content-type': 'application/json; charset=UTF-8', ...headers });
}

function injected(res: ServerResponse, fake: FakeYoutube, kind: Injected) {
  switch (kind) {
    case 'quotaExceeded':
      return googleError(
        res,
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
        'youtube.quota',
      );
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
      return googleError(res, 403, kind, 'Rate Limit Exceeded', 'usageLimits');
    case 'uploadLimitExceeded':
      return googleError(
        res,
        400,
        'uploadLimitExceeded',
        'The user has exceeded the number of videos they may upload.',
      );
    case 'backendError':
      return googleError(res, 500, 'backendError', 'Backend Error', 'global');
    case 'unavailable':
      return googleError(
        res,
        503,
        'backendError',
        'The service is currently unavailable.',
        'global',
        fake.retryAfter ? { 'retry-after': String(fake.retryAfter) } : {},
      );
  }
}

interface YoutubeRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  raw: Buffer;
}

type Handler = (fake: FakeYoutube, r: YoutubeRequest) => unknown;

/** Google's token reply for a new access token (and a refresh token with it when asked). */
function issue(fake: FakeYoutube, scope: string, withRefresh: boolean) {
  const access = `ya29.${randomBytes(24).toString('base64url')}`;
  fake.access.set(access, { scope, expiresAt: Date.now() + 3599_000 });
  const reply: Record<string, unknown> = {
    access_token: access,
    expires_in: 3599,
    scope,
    token_type: 'Bearer',
  };
  if (withRefresh) {
    const refresh = `1//${randomBytes(24).toString('base64url')}`;
    fake.refresh.set(refresh, scope);
    reply.refresh_token = refresh;
  }
  return reply;
}

/** The bearer's grant, or a 401 answered (expired or unknown token) / 403 (scope missing). */
function authorize(fake: FakeYoutube, { req, res }: YoutubeRequest, scope: string): string | null {
  const bearer = bearerOf(req);
  const grant = fake.access.get(bearer);
  if (!grant || grant.expiresAt < Date.now()) {
    googleError(
      res,
      401,
      'authError',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      'global',
      { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    );
    return null;
  }
  const scopes = grant.scope.split(' ');
  // channels.list / videos.list take youtube.readonly (or the full youtube scope); videos.insert youtube.upload.
  const accepted = [scope, 'https://www.googleapis.com/auth/youtube'];
  if (!accepted.some((s) => scopes.includes(s))) {
    googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
    return null;
  }
  return bearer;
}

// ---- Google OAuth ----

/** The consent page: approves at once and redirects with a code (the user said yes). */
const consentPage: Handler = (fake, { res, url }) => {
  const q = url.searchParams;
  const missing = ['client_id', 'redirect_uri', 'response_type', 'scope'].find((k) => !q.get(k));
  const bad =
    missing ??
    (q.get('client_id') !== fake.client.id
      ? 'client_id'
      : q.get('response_type') !== 'code'
        ? 'response_type'
        : q.get('code_challenge') && q.get('code_challenge_method') !== 'S256'
          ? 'code_challenge_method'
          : null);
  if (bad) {
    res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
    return res.end(`<h1>Error 400: invalid_request</h1><p>Missing or invalid parameter: ${bad}</p>`);
  }
  const code = `4/${randomBytes(16).toString('base64url')}`;
  fake.codes.set(code, {
    challenge: q.get('code_challenge') ?? '',
    redirectUri: q.get('redirect_uri') as string,
    scope: q.get('scope') as string,
  });
  const back = new URL(q.get('redirect_uri') as string);
  back.searchParams.set('code', code);
  if (q.get('state')) back.searchParams.set('state', q.get('state') as string);
  back.searchParams.set('scope', q.get('scope') as string);
  return sendEmpty(res, 302, { location: back.toString() });
};

/** The token endpoint: authorization_code (PKCE checked when the consent had a challenge) and refresh_token. */
const token: Handler = (fake, { req, res, raw }) => {
  if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
    return json(res, 400, { error: 'invalid_request', error_description: 'Invalid content type' });
  }
  const form = formFields(raw);
  fake.tokenCalls.push(form);
  if (form.client_id !== fake.client.id || form.client_secret !== fake.client.secret) {
    return json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
  }
  if (form.grant_type === 'authorization_code') {
    const consent = fake.codes.get(form.code ?? '');
    fake.codes.delete(form.code ?? '');
    if (!consent) return json(res, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
    if (consent.redirectUri !== form.redirect_uri) {
      return json(res, 400, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' });
    }
    if (consent.challenge) {
      const verified = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (verified !== consent.challenge) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' });
      }
    }
    return json(res, 200, issue(fake, consent.scope, true));
  }
  if (form.grant_type === 'refresh_token') {
    const scope = fake.refresh.get(form.refresh_token ?? '');
    if (!scope)
      return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    // Google keeps the refresh token: the reply carries none.
    return json(res, 200, issue(fake, scope, false));
  }
  return json(res, 400, {
    error: 'unsupported_grant_type',
    error_description: `Invalid grant_type: ${form.grant_type}`,
  });
};

// ---- The Data API ----

const CHANNEL_PARTS = ['id', 'snippet', 'statistics', 'contentDetails', 'status', 'brandingSettings'];

/** channels.list mine=true */
const channelsList: Handler = (fake, r) => {
  const { res, url } = r;
  if (!authorize(fake, r, READONLY_SCOPE)) return;
  const parts = (url.searchParams.get('part') ?? '').split(',').filter(Boolean);
  if (parts.length === 0) {
    return googleError(res, 400, 'required', 'Required parameter: part', 'global');
  }
  if (parts.some((p) => !CHANNEL_PARTS.includes(p))) {
    return googleError(res, 400, 'invalidPart', `'${url.searchParams.get('part')}'`, 'youtube.part');
  }
  if (url.searchParams.get('mine') !== 'true') {
    return googleError(
      res,
      400,
      'missingRequiredParameter',
      'No filter selected. Expected one of: mine, id, forHandle, forUsername',
      'youtube.parameter',
    );
  }
  const c = fake.channel;
  const item: Record<string, unknown> = { kind: 'youtube#channel', etag: 'e', id: c.id };
  if (parts.includes('snippet')) item.snippet = { title: c.title, description: '', customUrl: c.customUrl };
  if (parts.includes('statistics')) {
    item.statistics = {
      viewCount: '5000',
      hiddenSubscriberCount: c.hidden,
      ...(c.hidden ? {} : { subscriberCount: String(c.subscribers) }),
      videoCount: String(fake.videos.length),
    };
  }
  return json(res, 200, {
    kind: 'youtube#channelListResponse',
    etag: 'e',
    pageInfo: { totalResults: 1, resultsPerPage: 5 },
    items: [item],
  });
};

/** videos.list part=statistics */
const videosList: Handler = (fake, r) => {
  const { res, url } = r;
  if (!authorize(fake, r, READONLY_SCOPE)) return;
  if (url.searchParams.get('part') !== 'statistics') {
    return googleError(res, 400, 'invalidPart', `'${url.searchParams.get('part')}'`, 'youtube.part');
  }
  const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
  if (ids.length > 50) return googleError(res, 400, 'invalidValue', 'Too many ids', 'youtube.parameter');
  const items = ids
    .filter((id) => fake.statistics.has(id))
    .map((id) => {
      const s = fake.statistics.get(id) as { viewCount: number; likeCount: number; commentCount: number };
      return {
        kind: 'youtube#video',
        etag: 'e',
        id,
        statistics: {
          viewCount: String(s.viewCount),
          likeCount: String(s.likeCount),
          favoriteCount: '0',
          commentCount: String(s.commentCount),
        },
      };
    });
  return json(res, 200, {
    kind: 'youtube#videoListResponse',
    etag: 'e',
    items,
    pageInfo: { totalResults: items.length, resultsPerPage: items.length },
  });
};

/** videos.insert, resumable: start a session (the metadata as JSON, the file's size and type in headers). */
const startUpload: Handler = (fake, r) => {
  const { req, res, url, raw } = r;
  const token = authorize(fake, r, UPLOAD_SCOPE);
  if (!token) return;
  if (url.searchParams.get('uploadType') !== 'resumable') {
    return googleError(res, 400, 'invalidUploadType', 'Invalid upload type', 'global');
  }
  const parts = (url.searchParams.get('part') ?? '').split(',');
  if (!parts.includes('snippet') || !parts.includes('status')) {
    return googleError(res, 400, 'invalidPart', `'${url.searchParams.get('part')}'`, 'youtube.part');
  }
  if (fake.failNextStart) {
    const kind = fake.failNextStart;
    fake.failNextStart = null;
    return injected(res, fake, kind);
  }
  if (!String(req.headers['content-type']).startsWith('application/json')) {
    return googleError(res, 400, 'badContent', 'Media type not supported for the metadata', 'global');
  }
  const total = Number(req.headers['x-upload-content-length']);
  const type = String(req.headers['x-upload-content-type'] ?? '');
  if (!Number.isInteger(total) || total <= 0) {
    return googleError(res, 400, 'invalidVideoMetadata', 'X-Upload-Content-Length is required', 'youtube.video');
  }
  if (!type.startsWith('video/') && type !== 'application/octet-stream') {
    return googleError(res, 400, 'mediaBodyRequired', `Media type '${type}' is not supported.`, 'youtube.video');
  }
  let body: {
    snippet?: { title?: unknown; description?: unknown };
    status?: { privacyStatus?: unknown; selfDeclaredMadeForKids?: unknown };
  };
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return googleError(res, 400, 'parseError', 'Parse Error', 'global');
  }
  const title = body.snippet?.title;
  if (typeof title !== 'string' || !title.trim() || Array.from(title).length > 100 || /[<>]/.test(title)) {
    return googleError(res, 400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.');
  }
  const description = body.snippet?.description ?? '';
  if (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) {
    return googleError(res, 400, 'invalidDescription', 'The request metadata specifies an invalid video description.');
  }
  const privacyStatus = body.status?.privacyStatus ?? 'public';
  if (typeof privacyStatus !== 'string' || !PRIVACY.has(privacyStatus)) {
    return googleError(res, 400, 'invalidVideoMetadata', 'The request metadata is invalid.');
  }
  const id = randomBytes(12).toString('base64url');
  fake.sessions.set(id, {
    id,
    accessToken: token,
    metadata: {
      snippet: { title, description },
      status: {
        privacyStatus,
        ...(typeof body.status?.selfDeclaredMadeForKids === 'boolean'
          ? { selfDeclaredMadeForKids: body.status.selfDeclaredMadeForKids }
          : {}),
      },
    },
    contentType: type,
    total,
    received: [],
    receivedBytes: 0,
    puts: [],
  });
  return sendEmpty(res, 200, {
    location: `${fake.base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=${id}`,
    'x-guploader-uploadid': id,
    'content-length': '0',
  });
};

const unavailable = (res: ServerResponse) =>
  googleError(res, 503, 'backendError', 'The service is currently unavailable.', 'global');

/** videos.insert, resumable: the bytes (a chunk at the next byte), or a status query (a Content-Range of `*`). */
const putBytes: Handler = (fake, { req, res, url, raw }) => {
  const session = fake.sessions.get(url.searchParams.get('upload_id') ?? '');
  if (!session) return googleError(res, 404, 'notFound', 'The upload session was not found.', 'global');
  if (session.video && fake.dropRepliesAfterFinish > 0) {
    fake.dropRepliesAfterFinish--;
    return unavailable(res);
  }
  const range = String(req.headers['content-range'] ?? '');
  if (/^bytes \*\/(\d+)$/.test(range)) {
    if (raw.length !== 0) return googleError(res, 400, 'badRequest', 'A status query has no body', 'global');
    if (session.video) return json(res, 200, videoResource(session.video));
    const headers: Record<string, string> = { 'content-length': '0' };
    if (session.receivedBytes > 0) headers.range = `bytes=0-${session.receivedBytes - 1}`;
    return sendEmpty(res, 308, headers);
  }
  if (session.video) return json(res, 200, videoResource(session.video));
  let start = 0;
  if (range) {
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!m || Number(m[3]) !== session.total || Number(m[2]) - Number(m[1]) + 1 !== raw.length) {
      return googleError(res, 400, 'badRequest', 'Invalid Content-Range', 'global');
    }
    start = Number(m[1]);
  }
  if (start !== session.receivedBytes) {
    return googleError(
      res,
      400,
      'badRequest',
      `Expected the upload to continue at byte ${session.receivedBytes}`,
      'global',
    );
  }
  if (start + raw.length > session.total) {
    return googleError(res, 400, 'badRequest', 'More bytes than X-Upload-Content-Length', 'global');
  }
  // Chunks are multiples of 256 KiB, except the one that ends the file.
  if (start + raw.length < session.total && raw.length % (256 * 1024) !== 0 && fake.breakNextPutAfter === null) {
    return googleError(res, 400, 'badRequest', 'The chunk size must be a multiple of 256 KiB', 'global');
  }
  session.puts.push({ range, length: raw.length });
  if (fake.breakNextPutAfter !== null) {
    const kept = raw.subarray(0, fake.breakNextPutAfter);
    fake.breakNextPutAfter = null;
    session.received.push(kept);
    session.receivedBytes += kept.length;
    return unavailable(res);
  }
  session.received.push(raw);
  session.receivedBytes += raw.length;
  if (session.receivedBytes < session.total) {
    return sendEmpty(res, 308, { range: `bytes=0-${session.receivedBytes - 1}`, 'content-length': '0' });
  }
  const video = finishVideo(fake, session);
  if (fake.dropRepliesAfterFinish > 0) {
    fake.dropRepliesAfterFinish--;
    return unavailable(res);
  }
  return json(res, 201, videoResource(video));
};

/** The video a session's last byte makes. */
function finishVideo(fake: FakeYoutube, session: Session): FakeYoutubeVideo {
  const video: FakeYoutubeVideo = {
    id: randomBytes(8).toString('base64url').slice(0, 11),
    snippet: session.metadata.snippet,
    status: session.metadata.status,
    contentType: session.contentType,
    bytes: Buffer.concat(session.received),
    accessToken: session.accessToken,
  };
  session.video = video;
  fake.videos.push(video);
  fake.statistics.set(video.id, { viewCount: 0, likeCount: 0, commentCount: 0 });
  return video;
}

const ROUTES: ReadonlyArray<Route<Handler>> = [
  { method: 'GET', path: '/o/oauth2/v2/auth', handle: consentPage },
  { method: 'POST', path: '/token', handle: token },
  { method: 'GET', path: '/youtube/v3/channels', handle: channelsList },
  { method: 'GET', path: '/youtube/v3/videos', handle: videosList },
  { method: 'POST', path: '/upload/youtube/v3/videos', handle: startUpload },
  { method: 'PUT', path: '/upload/youtube/v3/videos', handle: putBytes },
];

async function handleRequest(fake: FakeYoutube, req: IncomingMessage, res: ServerResponse) {
  const raw = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://fake');
  fake.requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, headers: req.headers });
  const route = matchRoute(ROUTES, req.method ?? '', url.pathname);
  if (!route) return googleError(res, 404, 'notFound', 'Not Found', 'global');
  return route.handle(fake, { req, res, url, raw });
}

export async function startFakeYoutube(client = { id: 'yt-client.apps.googleusercontent.com', secret: 'yt-secret' }) {
  const fake = {
    client,
    channel: {
      id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
      title: 'GenPro Films',
      customUrl: '@genprofilms',
      subscribers: 1200,
      hidden: false,
    },
    codes: new Map(),
    access: new Map(),
    refresh: new Map(),
    tokenCalls: [],
    sessions: new Map(),
    videos: [],
    statistics: new Map(),
    failNextStart: null,
    retryAfter: null,
    breakNextPutAfter: null,
    dropRepliesAfterFinish: 0,
    requests: [],
  } as unknown as FakeYoutube;
  fake.server = createServer((req, res) => {
    handleRequest(fake, req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  fake.base = await listenLocally(fake.server);
  fake.tokenUrl = `${fake.base}/token`;
  fake.close = () => closeServer(fake.server);
  return fake;
}

function videoResource(v: FakeYoutubeVideo) {
  return {
    kind: 'youtube#video',
    etag: 'e',
    id: v.id,
    snippet: { ...v.snippet, channelId: 'UC_x5XG1OV2P6uZZ5FSM9Ttw', publishedAt: new Date().toISOString() },
    status: { uploadStatus: 'uploaded', ...v.status },
  };
}
