import type { IncomingMessage } from 'node:http';
import { fileTypeFromBuffer } from 'file-type';
import { postTextLength } from '../../../common/rules/post-text.ts';
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

export async function startTwitterFake(client = { id: 'client-123', secret: 'secret-456' }): Promise<TwitterFake> {
  let nextId = 1_880_028_106_020_515_840n;
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

  const handle = async (r: FakeRequest) => {
    const { req, url } = r;
    if (req.method === 'GET' && url.pathname === '/i/oauth2/authorize') {
      return fake.oauth.consentPage(r, client.id, 'X');
    }
    if (req.method === 'POST' && url.pathname === '/2/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return r.send(401, { error: 'unauthorized_client' });
      return fake.oauth.token(r, Object.fromEntries(new URLSearchParams(r.raw.toString('utf8'))));
    }
    if (!fake.oauth.access.has(r.bearer))
      return r.send(401, { title: 'Unauthorized', detail: 'Unauthorized', status: 401 });

    if (req.method === 'GET' && url.pathname === '/2/users/me') {
      return r.send(200, {
        data: {
          id: fake.oauth.memberId,
          name: 'Genpro',
          username: 'genpro_x',
          ...(url.searchParams.get('user.fields')?.split(',').includes('public_metrics')
            ? { public_metrics: { followers_count: fake.followers, following_count: 3, tweet_count: 9 } }
            : {}),
        },
      });
    }
    // GET /2/tweets?ids=: found tweets under data, the others under errors; public_metrics only when asked.
    if (req.method === 'GET' && url.pathname === '/2/tweets') {
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
    }

    // ---- Media upload (v2) ----
    if (req.method === 'POST' && url.pathname === '/2/media/upload/initialize') {
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
      const id = String(nextId++);
      fake.media.set(id, {
        id,
        mediaType: String(body.media_type),
        category,
        totalBytes: total,
        segments: [],
        state: 'uploading',
        bytes: null,
      });
      return r.send(200, { data: { id, media_key: `13_${id}`, expires_after_secs: 86400 } });
    }
    const append = /^\/2\/media\/upload\/(\d+)\/append$/.exec(url.pathname);
    if (req.method === 'POST' && append) {
      const media = fake.media.get(append[1] as string);
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
    }
    const finalize = /^\/2\/media\/upload\/(\d+)\/finalize$/.exec(url.pathname);
    if (req.method === 'POST' && finalize) {
      const media = fake.media.get(finalize[1] as string);
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
    }
    if (req.method === 'GET' && url.pathname === '/2/media/upload') {
      if (url.searchParams.get('command') !== 'STATUS') return problem(r, 400, 'command must be STATUS');
      const media = fake.media.get(url.searchParams.get('media_id') ?? '');
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
    }

    if (req.method === 'POST' && url.pathname === '/2/tweets') {
      if (fake.rateLimited > 0) {
        fake.rateLimited--;
        return r.send(
          429,
          { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
          { 'retry-after': '1', 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0' },
        );
      }
      const body = JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
      const ids = (body.media as { media_ids?: unknown } | undefined)?.media_ids;
      if (body.media !== undefined) {
        if (!Array.isArray(ids) || ids.length === 0 || ids.length > 4) {
          return problem(r, 400, 'media.media_ids: 1 to 4 media ids');
        }
        for (const id of ids) {
          const media = fake.media.get(String(id));
          if (media?.state !== 'succeeded') return problem(r, 400, 'Your media IDs are invalid.');
          if (media.category !== 'tweet_image' && ids.length > 1) {
            return problem(r, 400, 'A video or GIF must be the only media of a Tweet.');
          }
        }
      }
      const text = String(body.text ?? '');
      if (!text && body.media === undefined) return problem(r, 400, 'text or media is required');
      // X counts text by its weighted length (links 23); over 280 it refuses the post.
      const lines = text.split('\n');
      const isLink = (line: string) => /^https?:\/\//.test(line);
      if (postTextLength('twitter', lines.filter((l) => !isLink(l)).join('\n'), lines.filter(isLink)) > 280) {
        return problem(r, 400, 'Your Tweet text is too long.');
      }
      fake.posts.push({ body, headers: req.headers });
      return r.send(201, { data: { id: `${1000 + fake.posts.length}`, text } });
    }
    return r.send(404, { title: 'Not Found', status: 404 });
  };
  const server = await startFakeServer(handle);
  fake.base = server.base;
  fake.close = server.close;
  return fake;
}
