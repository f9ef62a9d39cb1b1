import { randomBytes } from 'node:crypto';
import { journaledPublish, type PublishJournal } from './journal.ts';
import { metaRetryAfterSeconds } from './meta.ts';
import {
  type AuthCallback,
  type Authenticated,
  type AuthRequest,
  type Connector,
  ConnectorError,
  type ConnectorFailure,
  countOf,
  type PostInput,
  type PostMedia,
  type PostMetrics,
  type PostOutcome,
  sendForJson,
  type TokenSet,
} from './types.ts';

// Facebook Pages through the Graph API (v24.0). Facebook Login (the manual code flow: state + app secret on the
// code exchange) → a long-lived user token (fb_exchange_token) → GET /me/accounts: the Pages the person granted and
// their Page access tokens. The connected account IS a Page: its id is the author, its Page token posts.
// Publishing: one image → POST /{page}/photos (url, caption); several → each POST /{page}/photos published=false,
// then POST /{page}/feed with attached_media; a video → Graph's resumable upload on graph-video.facebook.com
// (POST /{page}/videos upload_phase=start → transfer chunks → finish with the description); text → POST
// /{page}/feed (message, link = the message's first link). Figures: the Page's followers_count (fan_count as a
// fallback); per post its reactions, comments and shares fields, and views from the insights metric
// post_media_view (video: total_video_views from video_insights).
//
// Tokens: a Page token obtained from a long-lived user token has no expiry, so expiresAt is null and the token is
// only refreshed when Facebook refuses it (error 190, e.g. after a password change). The "refresh token" we keep
// is `<page-id>|<long-lived user token>`: refreshToken() asks /me/accounts again for that Page's current token;
// once the user token is no longer accepted (60 days, or revoked) only reconnecting helps (refresh-token).

export interface FacebookOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  authBase: string;
  /** Where publishes are recorded (a retry in any process resumes them). */
  journal: PublishJournal;
}

const FACEBOOK_GRAPH_VERSION = 'v24.0';
/** Page listing, posting and insights (all need App Review for people without a role on the app). */
const FACEBOOK_SCOPES = ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'read_insights'];

/** A Page the person granted, with its Page token (from GET /me/accounts). */
interface FacebookPage {
  id: string;
  name: string;
  accessToken: string;
  followerCount: number | null;
}

type Params = Record<string, string>;

/** Meta's error codes that mean "slow down / try later" (app, user, page, call-count and Pages BUC limits). */
const THROTTLED = new Set([4, 17, 32, 613, 80001]);

/** Maps a Graph API failure (its status and `{error:{message,type,code,error_subcode}}`) to a failure class. */
function facebookFailure(status: number, error: Record<string, unknown> | undefined): ConnectorFailure {
  const code = Number(error?.code);
  if (code === 190 || code === 102) return 'refresh-token';
  if (THROTTLED.has(code) || error?.is_transient === true) return 'retry';
  if (status === 429 || status >= 500) return 'retry';
  if (status === 401 && !error) return 'refresh-token';
  return 'bad-body';
}

/**
 * The Graph API's shared origin/version/token handling and Meta's error body. `base` is the API origin (videos are
 * uploaded to graph-video.facebook.com); a FormData body is sent as multipart (a video chunk).
 */
function graphClient(base: string) {
  const root = `${base.replace(/\/$/, '')}/${FACEBOOK_GRAPH_VERSION}`;
  return async function graph(
    method: 'GET' | 'POST',
    path: string,
    params: Params | FormData,
    token: string | null,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let url = `${root}${path}`;
    let body: string | FormData | undefined;
    if (params instanceof FormData) {
      body = params;
    } else if (method === 'GET') {
      const query = new URLSearchParams(params).toString();
      if (query) url += `?${query}`;
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(params).toString();
    }
    const { res, body: parsed } = await sendForJson(url, { method, headers, body }, signal);
    const error = parsed.error as Record<string, unknown> | undefined;
    if (!res.ok || (error && typeof error === 'object')) {
      const failure = facebookFailure(res.status, error);
      const detail = error
        ? `${String(error.message ?? 'error')} (code ${String(error.code ?? '?')}${
            error.error_subcode ? `, subcode ${String(error.error_subcode)}` : ''
          })`
        : res.statusText;
      throw new ConnectorError(failure, `${res.status} ${detail}`, metaRetryAfterSeconds(res.headers), res.status);
    }
    return parsed;
  };
}

/** The first http(s) link in a message: sent as the feed post's `link` (its preview card). */
function firstLink(message: string): string | null {
  const match = /https?:\/\/[^\s<>"]+/i.exec(message);
  return match ? match[0].replace(/[).,!?;:'\]]+$/, '') : null;
}

function idOf(body: Record<string, unknown>, field = 'id'): string {
  const id = body[field];
  if (typeof id !== 'string' || !id) throw new ConnectorError('bad-body', `no ${field} in the reply`);
  return id;
}

function splitRefresh(refreshToken: string): { pageId: string; userToken: string } {
  const at = refreshToken.indexOf('|');
  if (at <= 0) throw new ConnectorError('refresh-token', 'not a Facebook page grant');
  return { pageId: refreshToken.slice(0, at), userToken: refreshToken.slice(at + 1) };
}

/** A Page's tokens as stored: the Page token (no expiry) and the page-bound long-lived user token. */
function pageTokens(page: FacebookPage, userToken: string): TokenSet {
  return { accessToken: page.accessToken, refreshToken: `${page.id}|${userToken}`, expiresAt: null };
}

/**
 * What the publish journal keeps of a publish to a Page (by Page and idempotency key): when its first attempt began,
 * whether an attempt ended (or its process died) without knowing if Facebook made the post, and the outcome. A retry
 * after an uncertain attempt first looks for that post on the Page (same text, made since the first attempt began).
 */
type Attempt = { startedAt: number; uncertain: boolean; outcome?: PostOutcome };

/** The video upload host of the Graph API origin: graph-video.facebook.com for Facebook's, the same origin otherwise. */
function videoBaseOf(apiBase: string): string {
  const url = new URL(apiBase);
  if (url.hostname === 'graph.facebook.com') url.hostname = 'graph-video.facebook.com';
  return url.origin;
}

type Graph = ReturnType<typeof graphClient>;

/** What the steps of one Facebook connector share: its options and its Graph clients (the API, video uploads). */
interface FacebookContext extends FacebookOptions {
  graph: Graph;
  graphVideo: Graph;
}

export function facebookConnector(options: FacebookOptions): Connector {
  const o: FacebookContext = {
    ...options,
    graph: graphClient(options.apiBase),
    graphVideo: graphClient(videoBaseOf(options.apiBase)),
  };
  return {
    platform: 'facebook',
    mode: 'live',
    generateAuthUrl: (redirectUri) => authUrl(o, redirectUri),
    authenticate: (input) => authenticate(o, input),
    refreshToken: (refreshToken) => refresh(o, refreshToken),
    fetchProfile: (accessToken) => fetchProfile(o, accessToken),
    fetchPostMetrics: (accessToken, externalIds) => fetchPostMetrics(o, accessToken, externalIds),
    post: (accessToken, input, signal) => post(o, accessToken, input, signal),
  };
}

/**
 * A video by Graph's resumable upload: upload_phase=start (file_size) → video_id, upload_session_id and the first
 * byte range; transfer each range Facebook names (video_file_chunk at start_offset) until start_offset reaches
 * end_offset; finish publishes it with its description. Answers the video id.
 */
async function uploadVideo(
  o: FacebookContext,
  accessToken: string,
  page: string,
  video: PostMedia,
  message: string,
  signal?: AbortSignal,
) {
  const bytes = await video.read();
  if (bytes.length === 0) throw new ConnectorError('bad-body', 'the video file is empty');
  const started = await o.graphVideo(
    'POST',
    `/${page}/videos`,
    { upload_phase: 'start', file_size: String(bytes.length) },
    accessToken,
    signal,
  );
  const videoId = idOf(started, 'video_id');
  const session = idOf(started, 'upload_session_id');
  let range = { start: Number(started.start_offset), end: Number(started.end_offset) };
  while (range.start < bytes.length) {
    if (!Number.isInteger(range.start) || !(range.end > range.start) || range.end > bytes.length) {
      throw new ConnectorError('bad-body', `Facebook asked for an impossible byte range ${range.start}-${range.end}`);
    }
    const form = new FormData();
    form.set('upload_phase', 'transfer');
    form.set('upload_session_id', session);
    form.set('start_offset', String(range.start));
    form.set('video_file_chunk', new Blob([new Uint8Array(bytes.subarray(range.start, range.end))]), 'chunk');
    const next = await o.graphVideo('POST', `/${page}/videos`, form, accessToken, signal);
    range = { start: Number(next.start_offset), end: Number(next.end_offset) };
  }
  await o.graphVideo(
    'POST',
    `/${page}/videos`,
    { upload_phase: 'finish', upload_session_id: session, description: message },
    accessToken,
    signal,
  );
  return videoId;
}

async function pagesOf(o: FacebookContext, userToken: string): Promise<FacebookPage[]> {
  const pages: FacebookPage[] = [];
  const body = await o.graph(
    'GET',
    '/me/accounts',
    { fields: 'id,name,access_token,followers_count,fan_count,tasks', limit: '100' },
    userToken,
  );
  for (const p of (body.data ?? []) as Array<Record<string, unknown>>) {
    if (typeof p.id !== 'string' || typeof p.access_token !== 'string') continue;
    // A Page the person may not create content on cannot be posted to.
    const tasks = Array.isArray(p.tasks) ? (p.tasks as unknown[]) : null;
    if (tasks && !tasks.includes('CREATE_CONTENT')) continue;
    pages.push({
      id: p.id,
      name: typeof p.name === 'string' && p.name ? p.name : p.id,
      accessToken: p.access_token,
      followerCount: countOf(p.followers_count) ?? countOf(p.fan_count),
    });
  }
  return pages;
}

async function postOnce(
  o: FacebookContext,
  accessToken: string,
  input: PostInput,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  const page = input.authorId;
  const images = input.media.filter((m) => m.kind === 'image');
  const video = input.media.find((m) => m.kind === 'video');
  if (video) {
    const id = await uploadVideo(o, accessToken, page, video, input.message, signal);
    return { externalId: id, shareUrl: `https://www.facebook.com/${page}/videos/${id}`, views: null };
  }
  if (images.length === 1) {
    const image = images[0] as (typeof images)[number];
    const body = await o.graph(
      'POST',
      `/${page}/photos`,
      { url: image.url, caption: input.message },
      accessToken,
      signal,
    );
    const id = typeof body.post_id === 'string' && body.post_id ? body.post_id : `${page}_${idOf(body)}`;
    return { externalId: id, shareUrl: `https://www.facebook.com/${id}`, views: null };
  }
  const form: Params = { message: input.message };
  if (images.length > 1) {
    // Unpublished photos first, then one feed post carrying them all.
    const ids: string[] = [];
    for (const image of images) {
      const body = await o.graph(
        'POST',
        `/${page}/photos`,
        { url: image.url, published: 'false' },
        accessToken,
        signal,
      );
      ids.push(idOf(body));
    }
    ids.forEach((id, i) => {
      form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
    });
  } else {
    // Text (and media only as links, when the post has no uploaded files): the first link is the preview card.
    const text = [input.message, ...input.mediaUrls].filter(Boolean).join('\n');
    form.message = text;
    const link = firstLink(text);
    if (link) form.link = link;
  }
  const body = await o.graph('POST', `/${page}/feed`, form, accessToken, signal);
  const id = idOf(body);
  return { externalId: id, shareUrl: `https://www.facebook.com/${id}`, views: null };
}

/** The post an uncertain earlier attempt may have made: the Page's post with this text since `since`. */
async function findMade(
  o: FacebookContext,
  accessToken: string,
  input: PostInput,
  since: number,
): Promise<PostOutcome | null> {
  const page = input.authorId;
  const video = input.media.some((m) => m.kind === 'video');
  const sinceSeconds = String(Math.floor(since / 1000) - 60);
  if (video) {
    const body = await o.graph(
      'GET',
      `/${page}/videos`,
      { fields: 'id,description,created_time', since: sinceSeconds, limit: '25' },
      accessToken,
    );
    const found = ((body.data ?? []) as Array<Record<string, unknown>>).find(
      (v) => v.description === input.message && typeof v.id === 'string',
    );
    return found
      ? {
          externalId: found.id as string,
          shareUrl: `https://www.facebook.com/${page}/videos/${found.id}`,
          views: null,
        }
      : null;
  }
  const body = await o.graph(
    'GET',
    `/${page}/published_posts`,
    { fields: 'id,message,created_time', since: sinceSeconds, limit: '25' },
    accessToken,
  );
  const expected =
    input.media.length > 0 ? input.message : [input.message, ...input.mediaUrls].filter(Boolean).join('\n');
  const found = ((body.data ?? []) as Array<Record<string, unknown>>).find(
    (p) => p.message === expected && typeof p.id === 'string',
  );
  return found
    ? { externalId: found.id as string, shareUrl: `https://www.facebook.com/${found.id}`, views: null }
    : null;
}

function authUrl(o: FacebookContext, redirectUri: string): AuthRequest {
  const state = randomBytes(24).toString('base64url');
  const query = new URLSearchParams({
    client_id: o.clientId,
    redirect_uri: redirectUri,
    state,
    response_type: 'code',
    scope: FACEBOOK_SCOPES.join(','),
  });
  // Facebook Login's classic code flow has no PKCE (the app secret authenticates the exchange); the verifier
  // is kept only because the connect flow stores one.
  return {
    url: `${o.authBase.replace(/\/$/, '')}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth?${query}`,
    codeVerifier: randomBytes(32).toString('base64url'),
    state,
  };
}

async function authenticate(o: FacebookContext, input: AuthCallback): Promise<Authenticated> {
  const app = { client_id: o.clientId, client_secret: o.clientSecret };
  const short = await o.graph(
    'GET',
    '/oauth/access_token',
    { ...app, redirect_uri: input.redirectUri, code: input.code },
    null,
  );
  const shortToken = idOf(short, 'access_token');
  const long = await o.graph(
    'GET',
    '/oauth/access_token',
    { ...app, grant_type: 'fb_exchange_token', fb_exchange_token: shortToken },
    null,
  );
  const userToken = idOf(long, 'access_token');
  const pages = await pagesOf(o, userToken);
  const first = pages[0];
  if (!first) throw new ConnectorError('bad-body', 'no Facebook Page granted that this person can post to');
  const asAccount = (p: FacebookPage) => ({
    tokens: pageTokens(p, userToken),
    profile: { externalId: p.id, username: p.name, followerCount: p.followerCount },
  });
  return { ...asAccount(first), choices: pages.length > 1 ? pages.map(asAccount) : undefined };
}

async function refresh(o: FacebookContext, refreshToken: string): Promise<TokenSet> {
  const { pageId, userToken } = splitRefresh(refreshToken);
  let pages: FacebookPage[];
  try {
    pages = await pagesOf(o, userToken);
  } catch (error) {
    if (error instanceof ConnectorError && error.failure === 'bad-body') {
      throw new ConnectorError('refresh-token', error.message, undefined, error.status);
    }
    throw error;
  }
  const page = pages.find((p) => p.id === pageId);
  // The person no longer manages the Page (or withdrew it from the app): reconnect.
  if (!page) throw new ConnectorError('refresh-token', 'the Page is no longer granted');
  return pageTokens(page, userToken);
}

async function fetchProfile(o: FacebookContext, accessToken: string): Promise<{ followerCount: number }> {
  const body = await o.graph('GET', '/me', { fields: 'id,name,followers_count,fan_count' }, accessToken);
  const followerCount = countOf(body.followers_count) ?? countOf(body.fan_count);
  if (followerCount === null) throw new ConnectorError('bad-body', 'no followers_count for the Page');
  return { followerCount };
}

async function fetchPostMetrics(
  o: FacebookContext,
  accessToken: string,
  externalIds: readonly string[],
): Promise<Map<string, PostMetrics>> {
  const out = new Map<string, PostMetrics>();
  for (const id of externalIds) {
    const isVideo = !id.includes('_');
    const fields = isVideo
      ? 'id,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)'
      : 'id,shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)';
    const body = await o.graph('GET', `/${id}`, { fields }, accessToken).catch((error: unknown) => {
      // A post deleted on Facebook (code 100, "does not exist") is left out.
      if (error instanceof ConnectorError && error.failure === 'bad-body') return null;
      throw error;
    });
    if (!body) continue;
    const summary = (edge: unknown) =>
      countOf(((edge as Record<string, unknown> | undefined)?.summary as Record<string, unknown>)?.total_count);
    const shares = isVideo ? null : (countOf((body.shares as Record<string, unknown> | undefined)?.count) ?? 0);
    out.set(id, {
      views: await viewsOf(o, accessToken, id, isVideo),
      likes: summary(body.reactions),
      comments: summary(body.comments),
      shares,
    });
  }
  return out;
}

async function post(o: FacebookContext, accessToken: string, input: PostInput, signal?: AbortSignal) {
  if (!input.authorId) throw new ConnectorError('bad-body', 'no Page id');
  const key = { platform: 'facebook' as const, accountId: input.authorId, idempotencyKey: input.idempotencyKey };
  return journaledPublish<Attempt>(o.journal, key, async ({ recorded, record }) => {
    if (recorded?.outcome) return recorded.outcome;
    const startedAt = recorded?.startedAt ?? Date.now();
    const uncertainBefore = recorded?.uncertain === true;
    if (uncertainBefore) {
      const made = await findMade(o, accessToken, input, startedAt);
      if (made) {
        await record({ startedAt, uncertain: false, outcome: made }).catch(() => undefined);
        return made;
      }
    }
    // Until Facebook answers, whether it made the post is unknown (also if this process dies meanwhile).
    await record({ startedAt, uncertain: true });
    let outcome: PostOutcome;
    try {
      outcome = await postOnce(o, accessToken, input, signal);
    } catch (error) {
      // A refused request (4xx with Meta's error) made nothing; anything else may have.
      const status = error instanceof ConnectorError ? error.status : undefined;
      if (!uncertainBefore && status !== undefined && status < 500) {
        await record({ startedAt, uncertain: false }).catch(() => undefined);
      }
      throw error;
    }
    // Not recorded (the database unreachable): the retry finds the post on the Page.
    await record({ startedAt, uncertain: false, outcome }).catch(() => undefined);
    return outcome;
  });
}

async function viewsOf(o: FacebookContext, accessToken: string, id: string, isVideo: boolean): Promise<number | null> {
  const metric = isVideo ? 'total_video_views' : 'post_media_view';
  const body = await o
    .graph('GET', `/${id}/${isVideo ? 'video_insights' : 'insights'}`, { metric, period: 'lifetime' }, accessToken)
    .catch((error: unknown) => {
      // Insights are not reported (a Page under 100 likes, a metric not offered): views unknown, not 0.
      if (error instanceof ConnectorError && error.failure === 'bad-body') return null;
      throw error;
    });
  const entry = ((body?.data ?? []) as Array<Record<string, unknown>>).find((d) => d.name === metric);
  const values = (entry?.values ?? []) as Array<Record<string, unknown>>;
  return countOf(values.at(-1)?.value);
}
