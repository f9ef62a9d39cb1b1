import type { IncomingMessage } from 'node:http';
import { fileTypeFromBuffer } from 'file-type';
import { postTextLength } from '../../../common/rules/post-text.ts';
import { formFields, matchRoute, type Route } from './fake-http.ts';
import { FakeOAuth, type FakeRequest, formDataOf, startFakeServer } from './social-oauth.ts';

// A fake of the X API v2 as the twitter connector uses it: OAuth 2.0 with PKCE (Basic client auth on the token
// endpoint), /2/users/me, /2/tweets (create and lookup with public_metrics), and the v2 chunked media upload
// (/2/media/upload/initialize, /{id}/append, /{id}/finalize, STATUS) with X's checks: media types and size limits
// per category, segments in order and of at most 5 MB, the bytes matching total_bytes and media_type, video
// processing before use, unknown or unfinished media ids refused in a tweet. Errors are X's problem bodies.

const MB = 1024 * 1024;
const LIMITS: Record<string, { types: string[]; maxBytes: number }> = {
  tweet_image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/bmp'], maxBytes: 5 * MB },
  tweet_gif: { types: ['image/gif'], maxBytes: 15 * MB },
  tweet_video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 512 * MB },
};
const SEGMENT_MAX = 5 * MB;

interface XUploadedMedia {
  id: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  segments: Buffer[];
  state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  /** The bytes as X assembled them (after finalize). */
  bytes: Buffer | null;
}

export interface TwitterFake {
  base: string;
  oauth: FakeOAuth;
  client: { id: string; secret: string };
  /** The next N calls to POST /2/tweets answer 429 with x-rate-limit-reset / retry-after. */
  rateLimited: number;
  /** The next N uploaded videos fail X's processing. */
  failProcessing: number;
  posts: Array<{ body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  media: Map<string, XUploadedMedia>;
  followers: number;
  metrics: Map<string, { views: number; likes: number; comments: number; reposts: number; quotes: number }>;
  /** Query strings of GET /2/tweets lookups. */
  lookups: string[];
  close(): Promise<void>;
}

function problem(r: FakeRequest, status: number, detail: string, title = 'Invalid Request') {
  return r.send(status, { title, detail, type: 'https://api.x.com/2/problems/invalid-request', status });
}

/** The fake and the media id counter only its handlers see. */
interface State {
  fake: TwitterFake;
  nextId: bigint;
}

type Handler = (state: State, r: FakeRequest, params: string[]) => unknown;

// ---- OAuth ----

/** The token endpoint: Basic client authentication, then the grants. */
const token: Handler = ({ fake }, r) => {
  const expected = `Basic ${Buffer.from(`${fake.client.id}:${fake.client.secret}`).toString('base64')}`;
  if (r.req.headers.authorization !== expected) return r.send(401, { error: 'unauthorized_client' });
  return fake.oauth.token(r, formFields(r.raw));
};

const OAUTH: ReadonlyArray<Route<Handler>> = [
  {
    method: 'GET',
    path: '/i/oauth2/authorize',
    handle: ({ fake }, r) => fake.oauth.consentPage(r, fake.client.id, 'X'),
  },
  { method: 'POST', path: '/2/oauth2/token', handle: token },
];

// ---- The user and tweet lookups ----

const usersMe: Handler = ({ fake }, r) =>
  r.send(200, {
    data: {
      id: fake.oauth.memberId,
      name: 'Genpro',
      username: 'genpro_x',
      ...(r.url.searchParams.get('user.fields')?.split(',').includes('public_metrics')
        ? { public_metrics: { followers_count: fake.followers, following_count: 3, tweet_count: 9 } }
        : {}),
    },
  });

/** GET /2/tweets?ids=: found tweets under data, the others under errors; public_metrics only when asked. */
const lookupTweets: Handler = ({ fake }, r) => {
  const { url } = r;
  fake.lookups.push(url.search);
  const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
  if (ids.length === 0 || ids.length > 100) return problem(r, 400, 'ids: 1 to 100 ids');
  const withMetrics = url.searchParams.get('tweet.fields')?.split(',').includes('public_metrics');
  const data = ids
    .filter((id) => fake.metrics.has(id))
    .map((id) => {
      const m = fake.metrics.get(id) as NonNullable<ReturnType<TwitterFake['metrics']['get']>>;
      const public_metrics = {
        retweet_count: m.reposts,
        reply_count: m.comments,
        like_count: m.likes,
        quote_count: m.quotes,
        bookmark_count: 0,
        impression_count: m.views,
      };
      return { id, text: 'x', edit_history_tweet_ids: [id], ...(withMetrics ? { public_metrics } : {}) };
    });
  const errors = ids
    .filter((id) => !fake.metrics.has(id))
    .map((id) => ({ value: id, detail: `Could not find tweet with ids: [${id}].`, title: 'Not Found Error' }));
  return r.send(200, { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) });
};

// ---- Media upload (v2) ----

const initializeUpload: Handler = (state, r) => {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
  } catch {
    return problem(r, 400, 'The request body is not valid JSON.');
  }
  const category = String(body.media_category ?? '');
  const limits = LIMITS[category];
  if (!limits) return problem(r, 400, `media_category must be one of ${Object.keys(LIMITS).join(', ')}`);
  if (!limits.types.includes(String(body.media_type))) {
    return problem(r, 400, `media_type ${String(body.media_type)} is not supported for ${category}`);
  }
  const total = body.total_bytes;
  if (typeof total !== 'number' || !Number.isInteger(total) || total <= 0) {
    return problem(r, 400, 'total_bytes must be a positive integer');
  }
  if (total > limits.maxBytes) return problem(r, 400, `File size exceeds ${limits.maxBytes} bytes.`);
  const id = String(state.nextId++);
  state.fake.media.set(id, {
    id,
    mediaType: String(body.media_type),
    category,
    totalBytes: total,
    segments: [],
    state: 'uploading',
    bytes: null,
  });
  return r.send(200, { data: { id, media_key: `13_${id}`, expires_after_secs: 86400 } });
};

const appendSegment: Handler = async ({ fake }, r, [mediaId]) => {
  const media = fake.media.get(mediaId as string);
  if (!media) return problem(r, 400, 'Invalid media id.');
  if (media.state !== 'uploading') return problem(r, 400, 'The media upload is already finalized.');
  const form = await formDataOf(r);
  if (!form) return problem(r, 400, 'The request must be multipart/form-data.');
  const index = Number(form.get('segment_index'));
  const part = form.get('media');
  if (!Number.isInteger(index) || index < 0 || index > 999) return problem(r, 400, 'segment_index: 0 to 999');
  if (index !== media.segments.length) return problem(r, 400, `Segment ${index} out of order.`);
  if (!(part instanceof Blob) || part.size === 0) return problem(r, 400, 'media: a file is required');
  if (part.size > SEGMENT_MAX) return problem(r, 400, 'Segment size exceeds 5 MB.');
  media.segments.push(Buffer.from(await part.arrayBuffer()));
  return r.send(200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } });
};

const finalizeUpload: Handler = async ({ fake }, r, [mediaId]) => {
  const media = fake.media.get(mediaId as string);
  if (!media) return problem(r, 400, 'Invalid media id.');
  if (media.state !== 'uploading') return problem(r, 400, 'The media upload is already finalized.');
  const bytes = Buffer.concat(media.segments);
  if (bytes.length !== media.totalBytes) {
    return problem(r, 400, `File size mismatch: ${bytes.length} bytes received, ${media.totalBytes} declared.`);
  }
  const sniffed = await fileTypeFromBuffer(bytes);
  const matches =
    sniffed &&
    (sniffed.mime === media.mediaType || (media.mediaType === 'video/quicktime' && sniffed.mime === 'video/mp4'));
  if (!matches) return problem(r, 400, 'InvalidMedia: the file is not the declared media_type.');
  media.bytes = bytes;
  const processed = media.category !== 'tweet_image';
  media.state = processed ? 'pending' : 'succeeded';
  return r.send(200, {
    data: {
      id: media.id,
      media_key: `13_${media.id}`,
      size: bytes.length,
      expires_after_secs: 86400,
      ...(processed ? { processing_info: { state: 'pending', check_after_secs: 1 } } : {}),
    },
  });
};

const uploadStatus: Handler = ({ fake }, r) => {
  if (r.url.searchParams.get('command') !== 'STATUS') return problem(r, 400, 'command must be STATUS');
  const media = fake.media.get(r.url.searchParams.get('media_id') ?? '');
  if (!media || media.state === 'uploading') return problem(r, 400, 'Invalid media id.');
  // Each poll moves processing one step: pending → in_progress → succeeded (or failed).
  if (media.state === 'pending') media.state = 'in_progress';
  else if (media.state === 'in_progress') {
    media.state = fake.failProcessing > 0 ? 'failed' : 'succeeded';
    if (media.state === 'failed') fake.failProcessing--;
  }
  const info =
    media.state === 'failed'
      ? { state: 'failed', error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' } }
      : media.state === 'succeeded'
        ? { state: 'succeeded', progress_percent: 100 }
        : { state: media.state, check_after_secs: 1, progress_percent: 50 };
  return r.send(200, { data: { id: media.id, media_key: `13_${media.id}`, processing_info: info } });
};

// ---- Posting ----

/** What is wrong with a tweet's media (1 to 4 processed ids, a video or GIF alone); or null. */
function mediaError(fake: TwitterFake, body: Record<string, unknown>): string | null {
  if (body.media === undefined) return null;
  const ids = (body.media as { media_ids?: unknown } | null)?.media_ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 4) return 'media.media_ids: 1 to 4 media ids';
  for (const id of ids) {
    const media = fake.media.get(String(id));
    if (media?.state !== 'succeeded') return 'Your media IDs are invalid.';
    if (media.category !== 'tweet_image' && ids.length > 1) return 'A video or GIF must be the only media of a Tweet.';
  }
  return null;
}

const createTweet: Handler = ({ fake }, r) => {
  if (fake.rateLimited > 0) {
    fake.rateLimited--;
    return r.send(
      429,
      { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      { 'retry-after': '1', 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0' },
    );
  }
  const body = JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
  const refused = mediaError(fake, body);
  if (refused) return problem(r, 400, refused);
  const text = String(body.text ?? '');
  if (!text && body.media === undefined) return problem(r, 400, 'text or media is required');
  // X counts text by its weighted length (links 23); over 280 it refuses the post.
  const lines = text.split('\n');
  const isLink = (line: string) => /^https?:\/\//.test(line);
  if (postTextLength('twitter', lines.filter((l) => !isLink(l)).join('\n'), lines.filter(isLink)) > 280) {
    return problem(r, 400, 'Your Tweet text is too long.');
  }
  fake.posts.push({ body, headers: r.req.headers });
  return r.send(201, { data: { id: `${1000 + fake.posts.length}`, text } });
};

/** What takes the user's access token. */
const API: ReadonlyArray<Route<Handler>> = [
  { method: 'GET', path: '/2/users/me', handle: usersMe },
  { method: 'GET', path: '/2/tweets', handle: lookupTweets },
  { method: 'POST', path: '/2/media/upload/initialize', handle: initializeUpload },
  { method: 'POST', path: /^\/2\/media\/upload\/(\d+)\/append$/, handle: appendSegment },
  { method: 'POST', path: /^\/2\/media\/upload\/(\d+)\/finalize$/, handle: finalizeUpload },
  { method: 'GET', path: '/2/media/upload', handle: uploadStatus },
  { method: 'POST', path: '/2/tweets', handle: createTweet },
];

async function handle(state: State, r: FakeRequest) {
  const method = r.req.method ?? '';
  const path = r.url.pathname;
  const open = matchRoute(OAUTH, method, path);
  if (open) return open.handle(state, r, open.params);
  if (!state.fake.oauth.access.has(r.bearer)) {
    return r.send(401, { title: 'Unauthorized', detail: 'Unauthorized', status: 401 });
  }
  const route = matchRoute(API, method, path);
  if (!route) return r.send(404, { title: 'Not Found', status: 404 });
  return route.handle(state, r, route.params);
}

export async function startTwitterFake(client = { id: 'client-123', secret: 'secret-456' }): Promise<TwitterFake> {
  const fake = {
    oauth: new FakeOAuth('2244994945'),
    client,
    rateLimited: 0,
    failProcessing: 0,
    posts: [],
    media: new Map(),
    followers: 42,
    metrics: new Map(),
    lookups: [],
  } as unknown as TwitterFake;
  const state: State = { fake, nextId: 1_880_028_106_020_515_840n };
  const server = await startFakeServer((r) => handle(state, r));
  fake.base = server.base;
  fake.close = server.close;
  return fake;
}
