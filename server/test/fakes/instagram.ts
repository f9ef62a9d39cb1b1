import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, formFields, listenLocally, matchRoute, type Route, readBody, sendEmpty } from './fake-http.ts';
import {
  answeredFault,
  type FakeContainer,
  fetchMedia,
  type GraphRequest,
  type Handler,
  type IgRequest,
  type InstagramFake,
  json,
  metaError,
  newId,
  newToken,
  ok,
  pick,
  publishedLastDay,
  type State,
  unsupported,
  userOk,
} from './instagram-graph.ts';

// A local Instagram (Instagram API with Instagram Login) for tests: one server standing for www.instagram.com (the
// authorize page), api.instagram.com (the code exchange) and graph.instagram.com (the Graph API, versioned paths).
// It speaks the documented shapes: Business Login codes bound to the client and redirect URI, short-lived → long-lived
// tokens and their refresh, media containers that fetch their media URL and report status_code, carousels,
// media_publish, the account's media, media insights; Meta's error bodies ({error:{message,type,code,error_subcode,
// fbtrace_id}}), its throttling codes with X-App-Usage / X-Business-Use-Case-Usage, and 5xx.

export type { InstagramFake } from './instagram-graph.ts';

const SCOPES = new Set([
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_insights',
  'instagram_business_manage_comments',
  'instagram_business_manage_messages',
]);

const VERSION = /^\/v\d+\.\d+(\/.*)$/;
const METRICS = new Set(['views', 'likes', 'comments', 'shares', 'saved', 'reach', 'total_interactions']);

// ---- Outside the Graph API: the studio's files, the authorize page, the token endpoints ----

/** The studio's media files, as Instagram's crawler fetches them. */
const serveFile: Handler<IgRequest> = ({ fake }, { res }, [name]) => {
  const file = fake.files.get(decodeURIComponent(name as string));
  if (!file) return json(res, 404, { error: 'not found' });
  res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) });
  return res.end(file.bytes);
};

/** www.instagram.com/oauth/authorize: the user approves at once; back to the app with the code (and Instagram's `#_`). */
const authorizePage: Handler<IgRequest> = ({ fake }, { url, res }) => {
  const { code, state } = fake.approve(url.toString());
  const back = new URL(url.searchParams.get('redirect_uri') ?? '');
  back.searchParams.set('code', code);
  back.searchParams.set('state', state);
  return sendEmpty(res, 302, { location: `${back}#_` });
};

/** api.instagram.com/oauth/access_token: form-encoded, the code once, bound to the client and redirect URI. */
const exchangeCode: Handler<IgRequest> = ({ fake }, { req, res, contentType, body }) => {
  const oauthError = (message: string) =>
    json(res, 400, { error_type: 'OAuthException', code: 400, error_message: message });
  if (req.method !== 'POST') return oauthError('Invalid request');
  if (contentType !== 'application/x-www-form-urlencoded' && contentType !== 'multipart/form-data') {
    return oauthError('Missing required field client_id');
  }
  for (const field of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
    if (!body[field]) return oauthError(`Missing required field ${field}`);
  }
  if (body.client_id !== fake.client.id) return oauthError('Invalid platform app');
  if (body.client_secret !== fake.client.secret) return oauthError('Error validating client secret.');
  if (body.grant_type !== 'authorization_code') return oauthError('Unsupported grant_type');
  const grant = fake.codes.get(String(body.code));
  fake.codes.delete(String(body.code));
  if (!grant) return oauthError('This authorization code has been used');
  if (grant.redirectUri !== body.redirect_uri) return oauthError('Error validating verification code');
  return json(res, 200, {
    access_token: newToken(fake, 'short', grant.userId),
    user_id: Number(grant.userId),
    permissions: grant.scope,
  });
};

/** graph.instagram.com/access_token (unversioned, token in the query): short-lived → long-lived. */
const exchangeToken: Handler<IgRequest> = ({ fake }, { url, res }) => {
  const q = url.searchParams;
  if (q.get('grant_type') !== 'ig_exchange_token') {
    return metaError(res, 400, 100, 'Unsupported grant_type');
  }
  if (q.get('client_secret') !== fake.client.secret) return metaError(res, 400, 101, 'Error validating client secret.');
  const token = fake.tokens.get(q.get('access_token') ?? '');
  if (token?.kind !== 'short') {
    return metaError(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
  }
  fake.tokens.delete(q.get('access_token') ?? '');
  return json(res, 200, {
    access_token: newToken(fake, 'long', token.userId),
    token_type: 'bearer',
    expires_in: 5183944,
  });
};

/** graph.instagram.com/refresh_access_token (unversioned, token in the query). */
const refreshToken: Handler<IgRequest> = ({ fake }, { url, res }) => {
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
  return json(res, 200, {
    access_token: newToken(fake, 'long', token.userId),
    token_type: 'bearer',
    expires_in: 5183944,
  });
};

const OUTSIDE_GRAPH: ReadonlyArray<Route<Handler<IgRequest>>> = [
  { method: 'GET', path: /^\/files\/(.*)$/s, handle: serveFile },
  { method: 'GET', path: '/oauth/authorize', handle: authorizePage },
  { method: '*', path: '/oauth/access_token', handle: exchangeCode },
  { method: 'GET', path: '/access_token', handle: exchangeToken },
  { method: 'GET', path: '/refresh_access_token', handle: refreshToken },
];

// ---- The Graph API (/vXX.X/...) ----

/** GET /me */
const me: Handler<GraphRequest> = ({ fake }, r) =>
  ok(
    r,
    pick(
      r,
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

const httpUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//.test(value);

/** Why Graph refuses a request: its error code, message and extra fields. */
interface Refusal {
  code: number;
  message: string;
  extra?: Record<string, unknown>;
}

/** Sets a new container's media by its media_type (the URL, or a carousel's finished children), or refuses it. */
function containerMedia(fake: InstagramFake, r: GraphRequest, container: FakeContainer): Refusal | null {
  const { body } = r;
  const mediaType = container.mediaType as string;
  if (mediaType === 'IMAGE') {
    if (!httpUrl(body.image_url)) return { code: 100, message: '(#100) The parameter image_url is required' };
    container.url = String(body.image_url);
  } else if (mediaType === 'REELS' || mediaType === 'VIDEO') {
    if (mediaType === 'VIDEO' && !container.isCarouselItem) {
      return {
        code: 100,
        message: '(#100) The media_type VIDEO is no longer supported. Use REELS.',
        extra: { error_subcode: 2207067 },
      };
    }
    if (!httpUrl(body.video_url)) return { code: 100, message: '(#100) The parameter video_url is required' };
    container.url = String(body.video_url);
  } else if (mediaType === 'CAROUSEL') {
    const children = String(body.children ?? '')
      .split(',')
      .filter(Boolean);
    if (children.length < 2 || children.length > 10) {
      return {
        code: 100,
        message: '(#100) A carousel takes between 2 and 10 children',
        extra: { error_subcode: 2207028 },
      };
    }
    for (const childId of children) {
      const child = fake.containers.get(childId);
      if (!child || child.userId !== r.token.userId || !child.isCarouselItem || child.status !== 'FINISHED') {
        return {
          code: 9007,
          message: `(#9007) The child ${childId} is not ready or not a carousel item`,
          extra: { error_subcode: 2207027 },
        };
      }
    }
    container.children = children;
    container.status = 'FINISHED';
  } else {
    return { code: 100, message: `(#100) Invalid media_type ${mediaType}` };
  }
  return null;
}

/** POST /{ig-user-id}/media: a container. */
const createContainer: Handler<GraphRequest> = async (state, r, [userId]) => {
  const { fake } = state;
  const { body } = r;
  if (!userOk(r, userId)) return unsupported(r, userId as string);
  const mediaType = body.media_type ? String(body.media_type) : 'IMAGE';
  const isCarouselItem = body.is_carousel_item === true || body.is_carousel_item === 'true';
  const caption = body.caption === undefined ? '' : String(body.caption);
  if (caption.length > 2200) return metaError(r.res, 400, 100, '(#100) The caption is too long', {});
  const container: FakeContainer = {
    id: newId(state),
    userId: r.token.userId,
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
  const refused = containerMedia(fake, r, container);
  if (refused) return metaError(r.res, 400, refused.code, refused.message, refused.extra);
  if (isCarouselItem && caption) return metaError(r.res, 400, 100, '(#100) Carousel items take no caption');
  fake.containers.set(container.id, container);
  if (container.url) await fetchMedia(container);
  return ok(r, { id: container.id });
};

/** POST /{ig-user-id}/media_publish */
const publish: Handler<GraphRequest> = (state, r, [userId]) => {
  const { fake } = state;
  const { res, token } = r;
  if (!userOk(r, userId)) return unsupported(r, userId as string);
  const container = fake.containers.get(String(r.body.creation_id ?? ''));
  if (!container || container.userId !== token.userId || container.isCarouselItem) {
    return metaError(res, 400, 100, '(#100) The parameter creation_id is required or invalid');
  }
  if (container.status !== 'FINISHED') {
    return metaError(res, 400, 9007, '(#9007) Media ID is not available', {
      error_subcode: 2207027,
      error_user_msg: 'The media is not ready for publishing, please wait for a moment',
    });
  }
  if (publishedLastDay(fake, token.userId) >= fake.quotaTotal) {
    return metaError(res, 400, 9, 'Application request limit reached', {
      error_subcode: 2207042,
      error_user_title: 'Cannot publish post',
      error_user_msg: 'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
    });
  }
  container.status = 'PUBLISHED';
  const id = newId(state);
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
  return ok(r, { id });
};

/** GET /{ig-user-id}/content_publishing_limit */
const publishingLimit: Handler<GraphRequest> = ({ fake }, r, [userId]) => {
  if (!userOk(r, userId)) return unsupported(r, userId as string);
  return ok(r, {
    data: [
      {
        quota_usage: fake.quotaLagging ? 0 : publishedLastDay(fake, r.token.userId),
        ...(r.fields.includes('config') ? { config: { quota_total: fake.quotaTotal, quota_duration: 86400 } } : {}),
      },
    ],
  });
};

/** GET /{ig-user-id}/media: the account's media, newest first. */
const listMedia: Handler<GraphRequest> = ({ fake }, r, [userId]) => {
  if (!userOk(r, userId)) return unsupported(r, userId as string);
  const limit = Math.min(100, Number(r.url.searchParams.get('limit') ?? 25) || 25);
  const data = fake.media
    .filter((m) => m.userId === r.token.userId)
    .slice(0, limit)
    .map((m) =>
      pick(
        r,
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
  return ok(r, { data, paging: { cursors: { before: 'b', after: 'a' } } });
};

/** GET /{media-id}/insights */
const mediaInsights: Handler<GraphRequest> = ({ fake }, r, [mediaId]) => {
  const media = fake.media.find((m) => m.id === mediaId && m.userId === r.token.userId);
  if (!media) return unsupported(r, mediaId as string);
  const metrics = (r.url.searchParams.get('metric') ?? '').split(',').filter(Boolean);
  const wrong = metrics.findIndex((m) => !METRICS.has(m));
  if (metrics.length === 0 || wrong >= 0) {
    return metaError(
      r.res,
      400,
      100,
      `(#100) metric[${Math.max(0, wrong)}] must be one of the following values: ${[...METRICS].join(', ')}`,
    );
  }
  if (!media.insights) return metaError(r.res, 400, 10, '(#10) Not enough viewers for the media to show insights');
  const insights = media.insights as Record<string, number>;
  return ok(r, {
    data: metrics.map((name) => ({
      name,
      period: 'lifetime',
      values: [{ value: insights[name] ?? 0 }],
      title: name,
      description: name,
      id: `${media.id}/insights/${name}/lifetime`,
    })),
  });
};

/** GET /{container-id} or /{media-id} */
const getObject: Handler<GraphRequest> = ({ fake }, r, [id]) => {
  const container = fake.containers.get(id as string);
  if (container && container.userId === r.token.userId) {
    // A video is processed over a few status checks.
    if (container.status === 'IN_PROGRESS' && container.fetchedType) {
      if (container.pollsLeft <= 0) container.status = 'FINISHED';
      container.pollsLeft--;
    }
    return ok(
      r,
      pick(
        r,
        {
          id: container.id,
          status_code: container.status,
          status: container.status === 'ERROR' ? container.error : container.status,
        },
        ['id'],
      ),
    );
  }
  const media = fake.media.find((m) => m.id === id && m.userId === r.token.userId);
  if (!media) return unsupported(r, id as string);
  return ok(
    r,
    pick(
      r,
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
};

/** By the path's non-empty segments, joined with '/'. */
const GRAPH: ReadonlyArray<Route<Handler<GraphRequest>>> = [
  { method: 'GET', path: '/me', handle: me },
  { method: 'POST', path: /^\/([^/]+)\/media$/, handle: createContainer },
  { method: 'POST', path: /^\/([^/]+)\/media_publish$/, handle: publish },
  { method: 'GET', path: /^\/([^/]+)\/content_publishing_limit$/, handle: publishingLimit },
  { method: 'GET', path: /^\/([^/]+)\/media$/, handle: listMedia },
  { method: 'GET', path: /^\/([^/]+)\/insights$/, handle: mediaInsights },
  { method: 'GET', path: /^\/([^/]+)$/, handle: getObject },
];

/** A Graph API call: the version, injected faults, the access token, then the route. */
function handleGraph(state: State, r: IgRequest) {
  const { fake } = state;
  const versioned = VERSION.exec(r.url.pathname);
  if (!versioned) return metaError(r.res, 400, 2500, `Unknown path components: ${r.url.pathname}`);
  const path = versioned[1] as string;
  if (answeredFault(fake, r, path)) return;
  const bearer = /^Bearer (.+)$/.exec(r.req.headers.authorization ?? '')?.[1] ?? r.url.searchParams.get('access_token');
  const token = bearer ? fake.tokens.get(bearer) : undefined;
  if (!bearer) return metaError(r.res, 400, 104, 'An access token is required to request this resource.');
  if (!token) return metaError(r.res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
  const fields = (r.url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  const segments = path.split('/').filter(Boolean);
  const route = matchRoute(GRAPH, r.req.method ?? '', `/${segments.join('/')}`);
  if (!route) return unsupported(r, path);
  return route.handle(state, { ...r, token, fields }, route.params);
}

async function handleRequest(state: State, req: IncomingMessage, res: ServerResponse) {
  const raw = (await readBody(req)).toString('utf8');
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
    body = formFields(raw);
  }
  state.fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, body, headers: req.headers });
  const r: IgRequest = { req, res, url, contentType, body };
  const route = matchRoute(OUTSIDE_GRAPH, req.method ?? '', url.pathname);
  if (route) return route.handle(state, r, route.params);
  return handleGraph(state, r);
}

/** What the authorize page does when the user approves `authUrl`: a code bound to the client and redirect URI. */
function approve(fake: InstagramFake, authUrl: string) {
  const u = new URL(authUrl);
  const q = u.searchParams;
  if (q.get('client_id') !== fake.client.id) throw new Error('authorize: Invalid platform app');
  if (q.get('response_type') !== 'code') throw new Error('authorize: response_type must be code');
  const scope = (q.get('scope') ?? '').split(/[,\s]+/).filter(Boolean);
  if (!scope.includes('instagram_business_basic') || scope.some((s) => !SCOPES.has(s))) {
    throw new Error(`authorize: Invalid scope ${scope.join(',')}`);
  }
  const code = `AQ${randomBytes(16).toString('base64url')}`;
  fake.codes.set(code, {
    clientId: fake.client.id,
    redirectUri: q.get('redirect_uri') ?? '',
    scope,
    userId: fake.account.userId,
  });
  return { code, state: q.get('state') ?? '' };
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
  const state: State = { fake, lastId: 18000000000000000n };
  fake.issueLongLived = () => newToken(fake, 'long', fake.account.userId);
  fake.server = createServer((req, res) => handleRequest(state, req, res));
  fake.approve = (authUrl) => approve(fake, authUrl);
  fake.host = (name, type, bytes) => {
    fake.files.set(name, { type, bytes });
    return `${fake.base}/files/${encodeURIComponent(name)}`;
  };
  fake.close = () => closeServer(fake.server);
  fake.base = await listenLocally(fake.server);
  return fake;
}
