import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local Instagram (Instagram API with Instagram Login) for tests: one server standing for www.instagram.com (the
// authorize page), api.instagram.com (the code exchange) and graph.instagram.com (the Graph API, versioned paths).
// It speaks the documented shapes: Business Login codes bound to the client and redirect URI, short-lived → long-lived
// tokens and their refresh, media containers that fetch their media URL and report status_code, carousels,
// media_publish, the account's media, media insights; Meta's error bodies ({error:{message,type,code,error_subcode,
// fbtrace_id}}), its throttling codes with X-App-Usage / X-Business-Use-Case-Usage, and 5xx.

interface FakeContainer {
  id: string;
  userId: string;
  mediaType: 'IMAGE' | 'REELS' | 'VIDEO' | 'CAROUSEL';
  url: string | null;
  caption: string;
  isCarouselItem: boolean;
  children: string[];
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
  /** The subcode and text of an ERROR. */
  error: string;
  /** Status checks left before a video finishes. */
  pollsLeft: number;
  /** The fetched media's content type. */
  fetchedType: string | null;
  /** The fetched media's bytes. */
  fetched: Buffer | null;
}

interface FakeMedia {
  id: string;
  userId: string;
  containerId: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  caption: string;
  permalink: string;
  timestamp: string;
  /** The media URLs it was made of (children's for a carousel). */
  urls: string[];
  insights: { views: number; likes: number; comments: number; shares: number } | null;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  scope: string[];
  userId: string;
}

export interface InstagramFake {
  base: string;
  server: Server;
  client: { id: string; secret: string };
  account: { userId: string; appScopedId: string; username: string; followers: number };
  codes: Map<string, Grant>;
  /** token → kind and the user. */
  tokens: Map<string, { kind: 'short' | 'long'; userId: string }>;
  containers: Map<string, FakeContainer>;
  media: FakeMedia[];
  /** Every request: method, path and (for POSTs) the parsed body. */
  requests: Array<{ method: string; path: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** Files the fake serves at /files/<name> (standing for the studio's signed media URLs). */
  files: Map<string, { type: string; bytes: Buffer }>;
  /** The next N Graph calls are throttled with this code (4 app, 17 user, 32 page, 613 custom). */
  throttle: { count: number; code: 4 | 17 | 32 | 613; minutes: number };
  /** The next N Graph calls answer 500. */
  serverErrors: number;
  /** The next N media_publish calls are throttled (code 4, X-Business-Use-Case-Usage says 1 minute). */
  throttlePublish: number;
  /** The next media_publish publishes, then answers 500 as if the reply was lost. */
  loseNextPublishReply: boolean;
  /** The account's publishing limit (posts through the API in a rolling 24 h). */
  quotaTotal: number;
  /** content_publishing_limit lags behind (reports no usage) while media_publish still enforces the limit. */
  quotaLagging: boolean;
  /** How many status checks a video container stays IN_PROGRESS. */
  videoPolls: number;
  /** Issues a code as the authorize page does when the user approves `authUrl`. */
  approve(authUrl: string): { code: string; state: string };
  /** Serves a file and returns its URL. */
  host(name: string, type: string, bytes: Buffer): string;
  /** A long-lived token for the account, as after connecting. */
  issueLongLived(): string;
  close(): Promise<void>;
}

const SCOPES = new Set([
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_insights',
  'instagram_business_manage_comments',
  'instagram_business_manage_messages',
]);
const VERSION = /^\/v\d+\.\d+(\/.*)$/;
const METRICS = new Set(['views', 'likes', 'comments', 'shares', 'saved', 'reach', 'total_interactions']);

const trace = () => randomBytes(9).toString('base64url');

function metaError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify({ error: { message, type: 'OAuthException', code, ...extra, fbtrace_id: trace() } }));
}

export async function startInstagramFake(
  client = { id: '990602627938098', secret: 'ig-secret' },
): Promise<InstagramFake> {
  const fake = {
    client,
    account: { userId: '17841405793187218', appScopedId: '7395028813', username: 'genpro_ig', followers: 321 },
    codes: new Map(),
    tokens: new Map(),
    containers: new Map(),
    media: [],
    requests: [],
    files: new Map(),
    throttle: { count: 0, code: 4, minutes: 0 },
    serverErrors: 0,
    throttlePublish: 0,
    loseNextPublishReply: false,
    videoPolls: 2,
    quotaTotal: 100,
    quotaLagging: false,
  } as unknown as InstagramFake;
  let nextId = 18000000000000000n;
  const newId = () => String(++nextId);
  const newToken = (kind: 'short' | 'long', userId: string) => {
    const token = `IG${kind === 'short' ? 'S' : 'L'}${randomBytes(24).toString('base64url')}`;
    fake.tokens.set(token, { kind, userId });
    return token;
  };
  fake.issueLongLived = () => newToken('long', fake.account.userId);
  const publishedLastDay = (userId: string) =>
    fake.media.filter((m) => m.userId === userId && Date.parse(m.timestamp) > Date.now() - 86_400_000).length;

  /** Fetches a container's media as Instagram does (cURL of the public URL) and checks its type. */
  async function fetchMedia(container: FakeContainer) {
    const wantImage = container.mediaType === 'IMAGE';
    try {
      const res = await fetch(container.url as string);
      const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      const bytes = Buffer.from(await res.arrayBuffer());
      if (!res.ok) throw new Error(String(res.status));
      container.fetchedType = type;
      container.fetched = bytes;
      // Instagram reads the file, not only its label: a JPEG starts with the SOI marker FF D8 FF.
      const isJpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
      const ok = wantImage ? type === 'image/jpeg' && isJpeg : type === 'video/mp4' || type === 'video/quicktime';
      if (!ok) {
        container.status = 'ERROR';
        container.error = wantImage
          ? 'Error: The image format is not supported. Only JPEG is supported. (2207009)'
          : 'Error: The video format is not supported. Please check spec for supported video format. (2207026)';
        return;
      }
      if (wantImage) container.status = 'FINISHED';
    } catch {
      container.status = 'ERROR';
      container.error = "Error: Media download has failed. The media URI doesn't meet our requirements. (2207052)";
    }
  }

  fake.server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    let body: Record<string, unknown> = {};
    if (contentType === 'application/json' && raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return metaError(res, 400, 100, '(#100) Invalid JSON for postData');
      }
    } else if (raw) {
      body = Object.fromEntries(new URLSearchParams(raw));
    }
    fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, body, headers: req.headers });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(JSON.stringify(value));
    };

    // The studio's media files, as Instagram's crawler fetches them.
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const file = fake.files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      if (!file) return json(404, { error: 'not found' });
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) });
      return res.end(file.bytes);
    }

    // www.instagram.com/oauth/authorize: the user approves at once; back to the app with the code (and Instagram's `#_`).
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const { code, state } = fake.approve(url.toString());
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', state);
      res.writeHead(302, { location: `${back}#_` });
      return res.end();
    }

    // api.instagram.com/oauth/access_token: form-encoded, the code once, bound to the client and redirect URI.
    if (url.pathname === '/oauth/access_token') {
      const oauthError = (message: string) =>
        json(400, { error_type: 'OAuthException', code: 400, error_message: message });
      if (req.method !== 'POST') return oauthError('Invalid request');
      if (contentType !== 'application/x-www-form-urlencoded' && contentType !== 'multipart/form-data') {
        return oauthError('Missing required field client_id');
      }
      for (const field of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
        if (!body[field]) return oauthError(`Missing required field ${field}`);
      }
      if (body.client_id !== client.id) return oauthError('Invalid platform app');
      if (body.client_secret !== client.secret) return oauthError('Error validating client secret.');
      if (body.grant_type !== 'authorization_code') return oauthError('Unsupported grant_type');
      const grant = fake.codes.get(String(body.code));
      fake.codes.delete(String(body.code));
      if (!grant) return oauthError('This authorization code has been used');
      if (grant.redirectUri !== body.redirect_uri) return oauthError('Error validating verification code');
      return json(200, {
        access_token: newToken('short', grant.userId),
        user_id: Number(grant.userId),
        permissions: grant.scope,
      });
    }

    // graph.instagram.com/access_token and /refresh_access_token (unversioned, token in the query).
    if (req.method === 'GET' && url.pathname === '/access_token') {
      const q = url.searchParams;
      if (q.get('grant_type') !== 'ig_exchange_token') {
        return metaError(res, 400, 100, 'Unsupported grant_type');
      }
      if (q.get('client_secret') !== client.secret) return metaError(res, 400, 101, 'Error validating client secret.');
      const token = fake.tokens.get(q.get('access_token') ?? '');
      if (token?.kind !== 'short') {
        return metaError(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
      }
      fake.tokens.delete(q.get('access_token') ?? '');
      return json(200, { access_token: newToken('long', token.userId), token_type: 'bearer', expires_in: 5183944 });
    }
    if (req.method === 'GET' && url.pathname === '/refresh_access_token') {
      const q = url.searchParams;
      if (q.get('grant_type') !== 'ig_refresh_token') return metaError(res, 400, 100, 'Unsupported grant_type');
      const old = q.get('access_token') ?? '';
      const token = fake.tokens.get(old);
      if (token?.kind !== 'long') {
        return metaError(res, 400, 190, 'Error validating access token: Session has expired', {
          error_subcode: 463,
        });
      }
      fake.tokens.delete(old);
      return json(200, { access_token: newToken('long', token.userId), token_type: 'bearer', expires_in: 5183944 });
    }

    // The Graph API: /vXX.X/...
    const versioned = VERSION.exec(url.pathname);
    if (!versioned) return metaError(res, 400, 2500, `Unknown path components: ${url.pathname}`);
    const path = versioned[1] as string;
    const appUsage = (calls: number) => ({
      'x-app-usage': JSON.stringify({ call_count: calls, total_cputime: 1, total_time: 1 }),
    });
    if (fake.serverErrors > 0) {
      fake.serverErrors--;
      return metaError(res, 500, 1, 'An unknown error has occurred.', { is_transient: true }, appUsage(5));
    }
    if (req.method === 'POST' && path.endsWith('/media_publish') && fake.throttlePublish > 0) {
      fake.throttlePublish--;
      fake.throttle = { count: 1, code: 4, minutes: 1 };
    }
    if (fake.throttle.count > 0) {
      fake.throttle.count--;
      const { code, minutes } = fake.throttle;
      const messages: Record<number, string> = {
        4: '(#4) Application request limit reached',
        17: '(#17) User request limit reached',
        32: '(#32) Page request limit reached',
        613: '(#613) Calls to this api have exceeded the rate limit.',
      };
      const buc = {
        [fake.account.userId]: [
          {
            type: 'instagram',
            call_count: 100,
            total_cputime: 30,
            total_time: 40,
            estimated_time_to_regain_access: minutes,
          },
        ],
      };
      return metaError(
        res,
        400,
        code,
        messages[code] as string,
        { is_transient: true },
        {
          ...appUsage(100),
          'x-business-use-case-usage': JSON.stringify(buc),
        },
      );
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token');
    const token = bearer ? fake.tokens.get(bearer) : undefined;
    if (!bearer) return metaError(res, 400, 104, 'An access token is required to request this resource.');
    if (!token) return metaError(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    const ok = (value: unknown) => json(200, value, appUsage(3));
    const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
    const pick = (all: Record<string, unknown>, defaults: string[]) =>
      Object.fromEntries((fields.length ? fields : defaults).filter((f) => f in all).map((f) => [f, all[f]]));
    const segments = path.split('/').filter(Boolean);
    const userOk = (id: string | undefined) => id === token.userId || id === 'me';
    const unsupported = (id: string) =>
      metaError(
        res,
        400,
        100,
        `Unsupported ${req.method === 'POST' ? 'post' : 'get'} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        { error_subcode: 33 },
      );

    // GET /me
    if (req.method === 'GET' && segments.length === 1 && segments[0] === 'me') {
      return ok(
        pick(
          {
            id: fake.account.appScopedId,
            user_id: fake.account.userId,
            username: fake.account.username,
            followers_count: fake.account.followers,
            media_count: fake.media.length,
            account_type: 'BUSINESS',
          },
          ['id'],
        ),
      );
    }

    // POST /{ig-user-id}/media: a container.
    if (req.method === 'POST' && segments.length === 2 && segments[1] === 'media') {
      if (!userOk(segments[0])) return unsupported(segments[0] as string);
      const mediaType = body.media_type ? String(body.media_type) : 'IMAGE';
      const isCarouselItem = body.is_carousel_item === true || body.is_carousel_item === 'true';
      const caption = body.caption === undefined ? '' : String(body.caption);
      if (caption.length > 2200) return metaError(res, 400, 100, '(#100) The caption is too long', {});
      const container: FakeContainer = {
        id: newId(),
        userId: token.userId,
        mediaType: mediaType as FakeContainer['mediaType'],
        url: null,
        caption,
        isCarouselItem,
        children: [],
        status: 'IN_PROGRESS',
        error: '',
        pollsLeft: fake.videoPolls,
        fetchedType: null,
        fetched: null,
      };
      const httpUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//.test(value);
      if (mediaType === 'IMAGE') {
        if (!httpUrl(body.image_url)) {
          return metaError(res, 400, 100, '(#100) The parameter image_url is required', {});
        }
        container.url = String(body.image_url);
      } else if (mediaType === 'REELS' || mediaType === 'VIDEO') {
        if (mediaType === 'VIDEO' && !isCarouselItem) {
          return metaError(res, 400, 100, '(#100) The media_type VIDEO is no longer supported. Use REELS.', {
            error_subcode: 2207067,
          });
        }
        if (!httpUrl(body.video_url)) return metaError(res, 400, 100, '(#100) The parameter video_url is required');
        container.url = String(body.video_url);
      } else if (mediaType === 'CAROUSEL') {
        const children = String(body.children ?? '')
          .split(',')
          .filter(Boolean);
        if (children.length < 2 || children.length > 10) {
          return metaError(res, 400, 100, '(#100) A carousel takes between 2 and 10 children', {
            error_subcode: 2207028,
          });
        }
        for (const childId of children) {
          const child = fake.containers.get(childId);
          if (!child || child.userId !== token.userId || !child.isCarouselItem || child.status !== 'FINISHED') {
            return metaError(res, 400, 9007, `(#9007) The child ${childId} is not ready or not a carousel item`, {
              error_subcode: 2207027,
            });
          }
        }
        container.children = children;
        container.status = 'FINISHED';
      } else {
        return metaError(res, 400, 100, `(#100) Invalid media_type ${mediaType}`);
      }
      if (isCarouselItem && caption) return metaError(res, 400, 100, '(#100) Carousel items take no caption');
      fake.containers.set(container.id, container);
      if (container.url) await fetchMedia(container);
      return ok({ id: container.id });
    }

    // POST /{ig-user-id}/media_publish
    if (req.method === 'POST' && segments.length === 2 && segments[1] === 'media_publish') {
      if (!userOk(segments[0])) return unsupported(segments[0] as string);
      const container = fake.containers.get(String(body.creation_id ?? ''));
      if (!container || container.userId !== token.userId || container.isCarouselItem) {
        return metaError(res, 400, 100, '(#100) The parameter creation_id is required or invalid');
      }
      if (container.status !== 'FINISHED') {
        return metaError(res, 400, 9007, '(#9007) Media ID is not available', {
          error_subcode: 2207027,
          error_user_msg: 'The media is not ready for publishing, please wait for a moment',
        });
      }
      if (publishedLastDay(token.userId) >= fake.quotaTotal) {
        return metaError(res, 400, 9, 'Application request limit reached', {
          error_subcode: 2207042,
          error_user_title: 'Cannot publish post',
          error_user_msg:
            'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
        });
      }
      container.status = 'PUBLISHED';
      const id = newId();
      const urls = container.children.length
        ? container.children.map((c) => fake.containers.get(c)?.url ?? '')
        : [container.url ?? ''];
      fake.media.unshift({
        id,
        userId: token.userId,
        containerId: container.id,
        mediaType:
          container.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : container.mediaType === 'IMAGE' ? 'IMAGE' : 'VIDEO',
        caption: container.caption,
        permalink: `https://www.instagram.com/p/${randomBytes(8).toString('base64url')}/`,
        timestamp: new Date().toISOString().replace(/\.\d+Z$/, '+0000'),
        urls,
        insights: { views: 0, likes: 0, comments: 0, shares: 0 },
      });
      if (fake.loseNextPublishReply) {
        fake.loseNextPublishReply = false;
        return metaError(res, 500, 2, 'Service temporarily unavailable', { is_transient: true });
      }
      return ok({ id });
    }

    // GET /{ig-user-id}/content_publishing_limit
    if (req.method === 'GET' && segments.length === 2 && segments[1] === 'content_publishing_limit') {
      if (!userOk(segments[0])) return unsupported(segments[0] as string);
      return ok({
        data: [
          {
            quota_usage: fake.quotaLagging ? 0 : publishedLastDay(token.userId),
            ...(fields.includes('config') ? { config: { quota_total: fake.quotaTotal, quota_duration: 86400 } } : {}),
          },
        ],
      });
    }

    // GET /{ig-user-id}/media: the account's media, newest first.
    if (req.method === 'GET' && segments.length === 2 && segments[1] === 'media') {
      if (!userOk(segments[0])) return unsupported(segments[0] as string);
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25) || 25);
      const data = fake.media
        .filter((m) => m.userId === token.userId)
        .slice(0, limit)
        .map((m) =>
          pick(
            {
              id: m.id,
              caption: m.caption,
              permalink: m.permalink,
              timestamp: m.timestamp,
              media_type: m.mediaType,
            },
            ['id'],
          ),
        );
      return ok({ data, paging: { cursors: { before: 'b', after: 'a' } } });
    }

    // GET /{media-id}/insights
    if (req.method === 'GET' && segments.length === 2 && segments[1] === 'insights') {
      const media = fake.media.find((m) => m.id === segments[0] && m.userId === token.userId);
      if (!media) return unsupported(segments[0] as string);
      const metrics = (url.searchParams.get('metric') ?? '').split(',').filter(Boolean);
      const wrong = metrics.findIndex((m) => !METRICS.has(m));
      if (metrics.length === 0 || wrong >= 0) {
        return metaError(
          res,
          400,
          100,
          `(#100) metric[${Math.max(0, wrong)}] must be one of the following values: ${[...METRICS].join(', ')}`,
        );
      }
      if (!media.insights) return metaError(res, 400, 10, '(#10) Not enough viewers for the media to show insights');
      const insights = media.insights as Record<string, number>;
      return ok({
        data: metrics.map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: insights[name] ?? 0 }],
          title: name,
          description: name,
          id: `${media.id}/insights/${name}/lifetime`,
        })),
      });
    }

    // GET /{container-id} or /{media-id}
    if (req.method === 'GET' && segments.length === 1) {
      const container = fake.containers.get(segments[0] as string);
      if (container && container.userId === token.userId) {
        // A video is processed over a few status checks.
        if (container.status === 'IN_PROGRESS' && container.fetchedType) {
          if (container.pollsLeft <= 0) container.status = 'FINISHED';
          container.pollsLeft--;
        }
        return ok(
          pick(
            {
              id: container.id,
              status_code: container.status,
              status: container.status === 'ERROR' ? container.error : container.status,
            },
            ['id'],
          ),
        );
      }
      const media = fake.media.find((m) => m.id === segments[0] && m.userId === token.userId);
      if (!media) return unsupported(segments[0] as string);
      return ok(
        pick(
          {
            id: media.id,
            caption: media.caption,
            media_type: media.mediaType,
            permalink: media.permalink,
            timestamp: media.timestamp,
            like_count: media.insights?.likes ?? 0,
            comments_count: media.insights?.comments ?? 0,
          },
          ['id'],
        ),
      );
    }
    return unsupported(path);
  });

  fake.approve = (authUrl: string) => {
    const u = new URL(authUrl);
    const q = u.searchParams;
    if (q.get('client_id') !== client.id) throw new Error('authorize: Invalid platform app');
    if (q.get('response_type') !== 'code') throw new Error('authorize: response_type must be code');
    const scope = (q.get('scope') ?? '').split(/[,\s]+/).filter(Boolean);
    if (!scope.includes('instagram_business_basic') || scope.some((s) => !SCOPES.has(s))) {
      throw new Error(`authorize: Invalid scope ${scope.join(',')}`);
    }
    const code = `AQ${randomBytes(16).toString('base64url')}`;
    fake.codes.set(code, {
      clientId: client.id,
      redirectUri: q.get('redirect_uri') ?? '',
      scope,
      userId: fake.account.userId,
    });
    return { code, state: q.get('state') ?? '' };
  };
  fake.host = (name, type, bytes) => {
    fake.files.set(name, { type, bytes });
    return `${fake.base}/files/${encodeURIComponent(name)}`;
  };
  fake.close = () => new Promise<void>((resolve) => fake.server.close(() => resolve()));

  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}
