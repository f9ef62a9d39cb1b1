import { MESSAGES } from '../../../../common/messages.ts';
import { type JournaledPublish, journaledPublish, type PublishJournal } from './journal.ts';
import {
  type AuthCallback,
  type Authenticated,
  type AuthRequest,
  type Connector,
  ConnectorError,
  callApi,
  countOf,
  type PostInput,
  type PostMedia,
  type PostMetrics,
  type PostOutcome,
  pkceCodeFlow,
} from './types.ts';

// YouTube Data API v3 over fetch (the `googleapis` client is not a dependency), as Google documents it:
// - OAuth 2.0 for web server apps: consent at {authBase}/o/oauth2/v2/auth with access_type=offline and
//   prompt=consent (so Google returns a refresh token every time), PKCE S256; the code exchange and the refresh at
//   the token endpoint (https://oauth2.googleapis.com/token) with client_id/client_secret in the form. A dead refresh
//   token answers 400 invalid_grant → refresh-token.
// - videos.insert as a resumable upload: POST {apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status
//   with the video resource and X-Upload-Content-Type/-Length → 200 with the session URI in Location; PUT the bytes
//   there in chunks (multiples of 256 KiB, 8 MiB by default, each with `Content-Range: bytes {first}-{last}/{total}`;
//   308 with `Range: bytes=0-{last}` after each but the last) → 201 (or 200) with the video resource. After a 5xx or
//   a broken connection, PUT with an empty body and
//   `Content-Range: bytes */{total}` asks what arrived: 308 with `Range: bytes=0-{last}` (or none: nothing), and the
//   upload resumes from there; a 200/201 means the video was already created.
// - channels.list?part=snippet,statistics&mine=true (subscriberCount; null when hiddenSubscriberCount) and
//   videos.list?part=statistics&id=… (viewCount, likeCount, commentCount as strings; YouTube reports no shares).
// - Errors {error:{code,message,errors:[{reason,domain}]}}: 401 → refresh-token; 403 quotaExceeded (the daily
//   quota, reset at midnight Pacific time), rateLimitExceeded/userRateLimitExceeded, 429 and 5xx → retry; anything
//   else (uploadLimitExceeded, invalidTitle, invalidDescription, forbidden…) → bad-body with Google's message.

export interface YoutubeOptions {
  clientId: string;
  clientSecret: string;
  /** https://www.googleapis.com: the Data API and its upload endpoint. */
  apiBase: string;
  /** https://accounts.google.com: the consent page. */
  authBase: string;
  /** https://oauth2.googleapis.com/token: the token endpoint (code exchange and refresh). */
  tokenUrl: string;
  /** Where publishes are recorded (a retry in any process resumes them). */
  journal: PublishJournal;
  /** Bytes per PUT of the resumable upload: a multiple of 256 KiB (Google's rule); 8 MiB unless given. */
  chunkBytes?: number;
}

const SCOPES = 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly';
/** videos.list takes at most 50 ids a call. */
const IDS_PER_LOOKUP = 50;
/** YouTube's limits on the video resource: title 100 characters, description 5000 bytes, neither with < or >. */
const YOUTUBE_TITLE_MAX = 100;
const YOUTUBE_DESCRIPTION_MAX_BYTES = 5000;
/** Attempts of the bytes within one post() call (the first PUT and resumes after a 5xx or a broken connection). */
const UPLOAD_ATTEMPTS = 3;
/** Google takes upload chunks in multiples of 256 KiB (except the last) and suggests at least 8 MiB. */
const CHUNK_UNIT = 256 * 1024;
const DEFAULT_CHUNK_BYTES = 32 * CHUNK_UNIT;
const BACKOFF_MS = 500;
const RETRY_REASONS = new Set(['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded', 'backendError']);

/**
 * What the publish journal keeps of a publish (by channel and our post id): the resumable session (its URI and the
 * announced size) before any byte is sent, then the video's outcome (the session dropped). A retried publish asks
 * its session what arrived (or which video it made) instead of uploading a second video. Google keeps a session URI
 * for a week.
 */
type Upload = { sessionUrl?: string; total?: number; outcome?: PostOutcome };

/** Title and description from the message: the first line (≤ 100 characters), the rest (≤ 5000 bytes), no < >. */
export function youtubeSnippet(message: string): { title: string; description: string } {
  const clean = (s: string) => s.replace(/[<>]/g, '');
  const [first = '', ...rest] = message.split('\n');
  let title = Array.from(clean(first).trim()).slice(0, YOUTUBE_TITLE_MAX).join('').trim();
  let description = clean(rest.join('\n')).trim();
  if (!title) {
    // A message starting with an empty line: its first non-empty line is the title.
    const lines = clean(message)
      .split('\n')
      .map((l) => l.trim());
    const at = lines.findIndex(Boolean);
    title =
      at >= 0
        ? Array.from(lines[at] as string)
            .slice(0, YOUTUBE_TITLE_MAX)
            .join('')
        : '';
    description =
      at >= 0
        ? lines
            .slice(at + 1)
            .join('\n')
            .trim()
        : '';
  }
  return { title, description: cutToBytes(description, YOUTUBE_DESCRIPTION_MAX_BYTES) };
}

function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > maxBytes) break;
    out += ch;
    bytes += size;
  }
  return out;
}

/** Seconds until the next midnight in America/Los_Angeles (when YouTube's daily quota resets). */
function secondsToPacificMidnight(now = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hour12: false,
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  // hour12: false writes midnight as 24 in some engines.
  const elapsed = (get('hour') % 24) * 3600 + get('minute') * 60 + get('second');
  return Math.max(60, 86_400 - elapsed);
}

/** A Google API error reply as a ConnectorError of its class. */
async function googleError(res: Response): Promise<ConnectorError> {
  const text = await res.text().catch(() => '');
  let error: { message?: unknown; errors?: Array<{ reason?: unknown }> } = {};
  try {
    const parsed = JSON.parse(text) as { error?: typeof error };
    if (parsed.error && typeof parsed.error === 'object') error = parsed.error;
  } catch {
    // Not JSON (a proxy's page): the status decides.
  }
  const reason = String(error.errors?.[0]?.reason ?? '');
  const message = `${res.status} ${String(error.message ?? res.statusText)}${reason ? ` (${reason})` : ''}`;
  const header = Number(res.headers.get('retry-after'));
  const retryAfter = Number.isFinite(header) && header > 0 ? header : undefined;
  if (res.status === 401) return new ConnectorError('refresh-token', message, undefined, res.status);
  if (res.status === 429 || res.status >= 500 || RETRY_REASONS.has(reason)) {
    const wait = reason === 'quotaExceeded' ? (retryAfter ?? secondsToPacificMidnight()) : retryAfter;
    return new ConnectorError('retry', message, wait, res.status);
  }
  return new ConnectorError('bad-body', message, undefined, res.status);
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ConnectorError('retry', `network error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** GET on the Data API with the user's token. */
async function getJson(url: string, accessToken: string): Promise<Record<string, unknown>> {
  const res = await send(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
  if (!res.ok) throw await googleError(res);
  return (await res.json()) as Record<string, unknown>;
}

/** The one video of a post, else a bad-body error saying YouTube takes videos only. */
function theVideo(input: PostInput): PostMedia {
  const video = input.media.length === 1 ? input.media[0] : undefined;
  if (video?.kind !== 'video') throw new ConnectorError('bad-body', MESSAGES.social.youtubeVideoOnly);
  return video;
}

/** What the steps of one YouTube connector share: its options, the checked chunk size and its OAuth flow. */
interface YoutubeContext extends YoutubeOptions {
  chunkBytes: number;
  oauth: ReturnType<typeof pkceCodeFlow>;
}

export function youtubeConnector(options: YoutubeOptions): Connector {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(chunkBytes) || chunkBytes <= 0 || chunkBytes % CHUNK_UNIT !== 0) {
    throw new RangeError(`YouTube upload chunks are multiples of 256 KiB, not ${chunkBytes} bytes`);
  }
  const oauth = pkceCodeFlow({
    authorizeUrl: `${options.authBase}/o/oauth2/v2/auth`,
    clientId: options.clientId,
    scope: SCOPES,
    token: (form) =>
      callApi(options.tokenUrl, {
        form: { ...form, client_id: options.clientId, client_secret: options.clientSecret },
      }),
  });
  const o: YoutubeContext = { ...options, chunkBytes, oauth };
  return {
    platform: 'youtube',
    mode: 'live',
    generateAuthUrl: (redirectUri) => authUrl(o, redirectUri),
    authenticate: (input) => authenticate(o, input),
    refreshToken: oauth.refreshToken,
    fetchProfile: (accessToken) => fetchProfile(o, accessToken),
    fetchPostMetrics: (accessToken, externalIds) => fetchPostMetrics(o, accessToken, externalIds),
    post: (accessToken, input, signal) => post(o, accessToken, input, signal),
  };
}

async function myChannel(o: YoutubeContext, accessToken: string) {
  const body = await getJson(`${o.apiBase}/youtube/v3/channels?part=snippet,statistics&mine=true`, accessToken);
  const channel = ((body.items ?? []) as Array<Record<string, unknown>>)[0];
  if (!channel || typeof channel.id !== 'string') {
    throw new ConnectorError('bad-body', MESSAGES.social.youtubeNoChannel);
  }
  const snippet = (channel.snippet ?? {}) as Record<string, unknown>;
  const stats = (channel.statistics ?? {}) as Record<string, unknown>;
  const name =
    typeof snippet.customUrl === 'string' && snippet.customUrl
      ? snippet.customUrl
      : typeof snippet.title === 'string' && snippet.title
        ? snippet.title
        : channel.id;
  return {
    id: channel.id,
    name,
    subscribers: stats.hiddenSubscriberCount === true ? null : count(stats.subscriberCount),
  };
}

/** Asks the session what arrived: the next byte to send, or the finished video's resource. */
async function queryUpload(
  sessionUrl: string,
  accessToken: string,
  total: number,
  signal?: AbortSignal,
): Promise<{ next: number } | { video: Record<string, unknown> }> {
  const res = await send(sessionUrl, {
    method: 'PUT',
    headers: { authorization: `Bearer ${accessToken}`, 'content-range': `bytes */${total}` },
    signal,
  });
  if (res.status === 308) return { next: nextByte(res.headers.get('range')) };
  if (res.status === 200 || res.status === 201) return { video: (await res.json()) as Record<string, unknown> };
  throw await googleError(res);
}

async function startSession(
  o: YoutubeContext,
  accessToken: string,
  input: PostInput,
  video: PostMedia,
  signal?: AbortSignal,
) {
  const { title, description } = youtubeSnippet(input.message);
  if (!title) throw new ConnectorError('bad-body', MESSAGES.social.youtubeTitleMissing);
  const res = await send(`${o.apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json; charset=UTF-8',
      'x-upload-content-type': video.contentType,
      'x-upload-content-length': String(video.sizeBytes),
    },
    body: JSON.stringify({
      snippet: { title, description },
      status: { privacyStatus: input.privacy ?? 'private', selfDeclaredMadeForKids: false },
    }),
    signal,
  });
  if (!res.ok) throw await googleError(res);
  await res.arrayBuffer().catch(() => undefined);
  const location = res.headers.get('location');
  if (!location) throw new ConnectorError('retry', 'no upload session URI (Location) in the reply');
  return location;
}

function authUrl(o: YoutubeContext, redirectUri: string): AuthRequest {
  const auth = o.oauth.generateAuthUrl(redirectUri);
  const url = new URL(auth.url);
  // A refresh token on every consent (offline + consent), as Google's web-server flow documents.
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('include_granted_scopes', 'true');
  return { ...auth, url: url.toString() };
}

async function authenticate(o: YoutubeContext, input: AuthCallback): Promise<Authenticated> {
  const tokens = await o.oauth.exchangeCode(input);
  const channel = await myChannel(o, tokens.accessToken);
  return {
    tokens,
    profile: { externalId: channel.id, username: channel.name, followerCount: channel.subscribers },
  };
}

async function fetchProfile(o: YoutubeContext, accessToken: string): Promise<{ followerCount: number }> {
  const channel = await myChannel(o, accessToken);
  if (channel.subscribers === null) throw new ConnectorError('bad-body', MESSAGES.social.youtubeSubscribersHidden);
  return { followerCount: channel.subscribers };
}

async function fetchPostMetrics(
  o: YoutubeContext,
  accessToken: string,
  externalIds: readonly string[],
): Promise<Map<string, PostMetrics>> {
  const out = new Map<string, PostMetrics>();
  for (let i = 0; i < externalIds.length; i += IDS_PER_LOOKUP) {
    const ids = externalIds
      .slice(i, i + IDS_PER_LOOKUP)
      .map(encodeURIComponent)
      .join(',');
    const body = await getJson(`${o.apiBase}/youtube/v3/videos?part=statistics&id=${ids}`, accessToken);
    // A deleted or private-to-others video is not in items: left out.
    for (const item of (body.items ?? []) as Array<{ id?: string; statistics?: Record<string, unknown> }>) {
      if (!item.id || !item.statistics) continue;
      const s = item.statistics;
      out.set(item.id, {
        views: count(s.viewCount),
        likes: count(s.likeCount),
        comments: count(s.commentCount),
        shares: null,
      });
    }
  }
  return out;
}

async function post(o: YoutubeContext, accessToken: string, input: PostInput, signal?: AbortSignal) {
  const video = theVideo(input);
  const key = { platform: 'youtube' as const, accountId: input.authorId, idempotencyKey: input.idempotencyKey };
  return journaledPublish<Upload>(o.journal, key, (run) => publish(o, run, accessToken, input, video, signal));
}

/** A resumable upload session: its URI and the size announced when it was opened. */
type Session = { sessionUrl: string; total: number };

async function publish(
  o: YoutubeContext,
  { recorded, record }: JournaledPublish<Upload>,
  accessToken: string,
  input: PostInput,
  video: PostMedia,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  if (recorded?.outcome) return recorded.outcome;
  // The video is recorded right after Google answers (not recorded: the retry asks the session again).
  const finish = async (resource: Record<string, unknown>) => {
    const outcome = videoOutcome(resource);
    await record({ outcome }).catch(() => undefined);
    return outcome;
  };
  // A session that cannot be resumed (refused for good) is forgotten: a republish starts a new one.
  const forget = () => record(null).catch(() => undefined);
  let session: Session | null =
    recorded?.sessionUrl && typeof recorded.total === 'number'
      ? { sessionUrl: recorded.sessionUrl, total: recorded.total }
      : null;
  let next = 0;
  if (session) {
    // A retried publish: ask the session what arrived before sending anything.
    const state = await queryUpload(session.sessionUrl, accessToken, session.total, signal).catch((error: unknown) => {
      // A session Google no longer knows (404/410): start a new one.
      if (error instanceof ConnectorError && (error.status === 404 || error.status === 410)) return null;
      throw error;
    });
    if (state && 'video' in state) return finish(state.video);
    if (state) next = state.next;
    else session = null;
  }
  if (!session) {
    session = { sessionUrl: await startSession(o, accessToken, input, video, signal), total: video.sizeBytes };
    // Before any byte is sent: a retry asks this session instead of uploading a second video.
    await record(session);
  }
  return finish(await sendBytes(o, session, accessToken, video, next, forget, signal));
}

/**
 * Sends the video's bytes from `from` on, in chunks; after a 5xx or a broken connection it backs off, asks the
 * session what arrived and resumes (UPLOAD_ATTEMPTS failures at most). Answers the video resource Google made.
 */
async function sendBytes(
  o: YoutubeContext,
  session: Session,
  accessToken: string,
  video: PostMedia,
  from: number,
  forget: () => Promise<void>,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const bytes = await video.read();
  if (bytes.length !== session.total) {
    await forget();
    throw new ConnectorError('bad-body', `the video is ${bytes.length} bytes, ${session.total} announced`);
  }
  let next = from;
  let lastError: ConnectorError | undefined;
  let failures = 0;
  while (failures < UPLOAD_ATTEMPTS) {
    if (lastError) {
      // Google's advice for 5xx and broken connections: back off exponentially, then ask what arrived.
      await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * 2 ** (failures - 1)));
      const state = await queryUpload(session.sessionUrl, accessToken, session.total, signal).catch(
        (error: unknown) => {
          if (error instanceof ConnectorError && error.failure === 'retry') return error;
          throw error;
        },
      );
      if (state instanceof ConnectorError) {
        lastError = state;
        failures++;
        continue;
      }
      if ('video' in state) return state.video;
      next = state.next;
      lastError = undefined;
    }
    // One chunk: a multiple of 256 KiB, the last one whatever is left.
    const end = Math.min(next + o.chunkBytes, session.total);
    const res = await send(session.sessionUrl, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': video.contentType,
        'content-range': `bytes ${next}-${end - 1}/${session.total}`,
      },
      body: new Uint8Array(bytes.subarray(next, end)),
      signal,
    }).catch((error: unknown) => {
      if (error instanceof ConnectorError) return error;
      throw error;
    });
    if (res instanceof ConnectorError) {
      lastError = res;
      failures++;
      continue;
    }
    if (res.status === 200 || res.status === 201) {
      return (await res.json()) as Record<string, unknown>;
    }
    if (res.status === 308) {
      // The chunk is in: Range says up to where; the next chunk starts there.
      await res.arrayBuffer().catch(() => undefined);
      const arrived = nextByte(res.headers.get('range'));
      if (arrived > next) {
        next = arrived;
        continue;
      }
      lastError = new ConnectorError('retry', 'the upload stopped before the end', undefined, 308);
      failures++;
      continue;
    }
    const error = await googleError(res);
    if (error.failure !== 'retry' || res.status < 500) {
      // Refused for good (or the token): this session is not resumed.
      if (error.failure === 'bad-body') await forget();
      throw error;
    }
    lastError = error;
    failures++;
  }
  throw lastError ?? new ConnectorError('retry', 'the upload did not finish');
}

function videoOutcome(video: Record<string, unknown>): PostOutcome {
  const id = video.id;
  if (typeof id !== 'string' || !id) throw new ConnectorError('bad-body', 'no video id in the reply');
  return { externalId: id, shareUrl: `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`, views: 0 };
}

/** The next byte to send from a 308's `Range: bytes=0-{last}` (none: nothing arrived). */
function nextByte(range: string | null): number {
  const match = /bytes=0-(\d+)/.exec(range ?? '');
  return match ? Number(match[1]) + 1 : 0;
}

/** YouTube's counts are decimal strings ("123"); a number is taken too. */
function count(value: unknown): number | null {
  if (typeof value === 'string' && /^\d+$/.test(value)) return countOf(Number(value));
  return countOf(value);
}
