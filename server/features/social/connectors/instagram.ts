import { MESSAGES } from '../../../../common/messages.ts';
import { type JournaledPublish, journaledPublish, type PublishJournal } from './journal.ts';
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
  pkcePair,
  sendForJson,
  sleepUnlessStopped,
  type TokenSet,
} from './types.ts';

// Instagram API with Instagram Login (professional accounts; no Facebook Page needed), Graph API v25.0 on
// graph.instagram.com:
// - Business Login: GET https://www.instagram.com/oauth/authorize (client_id, redirect_uri, response_type=code,
//   comma-separated scope, state), POST https://api.instagram.com/oauth/access_token (form: client_id,
//   client_secret, grant_type=authorization_code, redirect_uri, code) → a short-lived token (1 h) and the user id,
//   then GET graph.instagram.com/access_token?grant_type=ig_exchange_token&client_secret= → long-lived (60 days),
//   refreshed by GET graph.instagram.com/refresh_access_token?grant_type=ig_refresh_token.
//   Instagram has no OAuth refresh token: the long-lived token is its own refresh credential. The TokenSet keeps it
//   as both `accessToken` and `refreshToken`; `refreshToken(token)` exchanges it for a new long-lived token (which
//   Instagram allows once the token is 24 h old and not expired); an expired or revoked token (code 190) means
//   reconnecting.
// - Publishing (instagram_business_content_publish): media containers, POST /{ig-user-id}/media (one image:
//   image_url; one video: media_type=REELS + video_url; several: children with is_carousel_item=true, then a
//   CAROUSEL container with `children`), GET /{container-id}?fields=status_code,status until FINISHED, then
//   POST /{ig-user-id}/media_publish {creation_id}; the share URL is the media's permalink. Instagram fetches the
//   media itself from PostMedia.url (the studio's signed public URL).
//   Before creating containers: GET /{ig-user-id}/content_publishing_limit (100 API posts a rolling 24 h).
// - Figures: GET /me?fields=followers_count; GET /{media-id}/insights?metric=views,likes,comments,shares
//   (instagram_business_manage_insights), falling back to the media's like_count/comments_count where Instagram
//   gives no insights (too few viewers, or a metric the media type lacks).
// - Errors: Meta's body {error:{message,type,code,error_subcode,fbtrace_id}}: code 190 → refresh-token; throttling
//   (4, 17, 32, 613), transient (1, 2, -1, -2, is_transient) and 5xx → retry, the wait from
//   X-Business-Use-Case-Usage's estimated_time_to_regain_access; anything else → bad-body.

export interface InstagramOptions {
  clientId: string;
  clientSecret: string;
  /** graph.instagram.com */
  apiBase: string;
  /** www.instagram.com (the authorize page) */
  authBase: string;
  /** api.instagram.com (the code exchange) */
  tokenBase: string;
  /** Between two container status checks (Meta suggests no more than once a minute for long videos). */
  pollIntervalMs?: number;
  /** How many status checks before giving up for now (a `retry`). */
  maxPolls?: number;
  /** Where publishes are recorded (a retry in any process resumes them). */
  journal: PublishJournal;
}

export const INSTAGRAM_API_VERSION = 'v25.0';
const SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights'];
/** A carousel takes 2 to 10 items. */
const INSTAGRAM_CAROUSEL_MAX = 10;
const IMAGE_TYPES = new Set(['image/jpeg']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
const THROTTLED = new Set([4, 17, 32, 613]);
const TRANSIENT = new Set([1, 2, -1, -2]);
const PUBLISHING_LIMIT_SUBCODE = 2207042;
const INSTAGRAM_REFRESH_MARGIN_MS = 7 * 86_400_000;
/** A media with the same caption published this recently by the account is taken as this post already published. */
const REPUBLISH_WINDOW_MS = 15 * 60_000;

const M = MESSAGES.social;

/** Meta's error, with its code and subcode (kept for the callers that tell errors apart). */
class MetaError extends ConnectorError {
  constructor(
    failure: ConnectorFailure,
    message: string,
    readonly code: number | null,
    readonly subcode: number | null,
    retryAfterSeconds?: number,
    status?: number,
  ) {
    super(failure, message, retryAfterSeconds, status);
  }
}

function failureOf(status: number, code: number | null, subcode: number | null, transient: boolean) {
  if (code === 190) return 'refresh-token';
  // The account's 24-hour publishing limit (code 9): later, not never.
  if (subcode === PUBLISHING_LIMIT_SUBCODE) return 'retry';
  if ((code !== null && (THROTTLED.has(code) || TRANSIENT.has(code))) || transient || status >= 500) return 'retry';
  if (status === 429) return 'retry';
  return 'bad-body';
}

type Body = Record<string, unknown>;

/** A request to Instagram; a non-2xx reply (or an `error` body) becomes a MetaError of the right class. */
async function request(
  url: string,
  init: { method?: string; token?: string; json?: unknown; form?: Record<string, string> },
  signal?: AbortSignal,
): Promise<Body> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const { res, body: parsed } = await sendForJson(
    url,
    { method: init.method ?? (body ? 'POST' : 'GET'), headers, body },
    signal,
  );
  // Graph errors: {error:{message,type,code,error_subcode,is_transient,fbtrace_id}}; the api.instagram.com OAuth
  // endpoint answers {error_type, code, error_message}.
  const error = (parsed.error && typeof parsed.error === 'object' ? parsed.error : null) as Body | null;
  if (res.ok && !error) return parsed;
  const code = Number.isInteger(error?.code) ? (error?.code as number) : null;
  const subcode = Number.isInteger(error?.error_subcode) ? (error?.error_subcode as number) : null;
  const message = String(
    error?.error_user_msg ?? error?.message ?? parsed.error_message ?? parsed.raw ?? res.statusText ?? 'error',
  );
  const failure: ConnectorFailure = failureOf(res.status, code, subcode, error?.is_transient === true);
  const detail = `${res.status} ${message}${code !== null ? ` (code ${code}${subcode ? `/${subcode}` : ''})` : ''}`;
  throw new MetaError(failure, detail, code, subcode, metaRetryAfterSeconds(res.headers), res.status);
}

const sleep = (ms: number, signal?: AbortSignal) => sleepUnlessStopped(ms, signal, 'publishing was stopped');

/**
 * What the publish journal keeps of a publish (by account and idempotency key): its container once created (before
 * it can be published), the media id once media_publish answered, then the outcome. A retry resumes from there
 * instead of posting again: a container Instagram says is PUBLISHED is looked up among the account's media. With
 * nothing recorded, the account's recent media are looked at first (a media with the same caption published in the
 * last 15 minutes).
 */
type Publish = { startedAt: number; containerId: string | null; mediaId?: string; outcome?: PostOutcome };

/** The refusal before any call: Instagram posts need media, of the types and count it takes. */
function assertPublishable(media: readonly PostMedia[]): void {
  if (media.length === 0) throw new ConnectorError('bad-body', M.instagramNeedsMedia);
  if (media.length > INSTAGRAM_CAROUSEL_MAX) {
    throw new ConnectorError('bad-body', `Instagram takes at most ${INSTAGRAM_CAROUSEL_MAX} media in one post`);
  }
  for (const m of media) {
    if (m.kind === 'image' && !IMAGE_TYPES.has(m.contentType)) {
      throw new ConnectorError('bad-body', `Instagram takes JPEG images only (this one is ${m.contentType})`);
    }
    if (m.kind === 'video' && !VIDEO_TYPES.has(m.contentType)) {
      throw new ConnectorError('bad-body', `Instagram takes MP4 or MOV videos only (this one is ${m.contentType})`);
    }
  }
}

function idOf(body: Body, what: string): string {
  const id = body.id;
  if (typeof id === 'string' && id) return id;
  if (typeof id === 'number') return String(id);
  throw new ConnectorError('bad-body', `no id in the reply to ${what}`);
}

/** What the steps of one Instagram connector share: its options, the versioned Graph URL and the polling settings. */
interface InstagramContext extends InstagramOptions {
  graph: string;
  pollIntervalMs: number;
  maxPolls: number;
}

export function instagramConnector(options: InstagramOptions): Connector {
  const o: InstagramContext = {
    ...options,
    graph: `${options.apiBase}/${INSTAGRAM_API_VERSION}`,
    pollIntervalMs: options.pollIntervalMs ?? 5000,
    maxPolls: options.maxPolls ?? 48,
  };
  return {
    platform: 'instagram',
    mode: 'live',
    // A long-lived token lasts 60 days and is refreshed only while valid (and once 24 h old): a week ahead.
    refreshMarginMs: INSTAGRAM_REFRESH_MARGIN_MS,
    generateAuthUrl: (redirectUri) => authUrl(o, redirectUri),
    authenticate: (input) => authenticate(o, input),
    refreshToken: (refreshToken) => refresh(o, refreshToken),
    fetchProfile: (accessToken) => fetchProfile(o, accessToken),
    fetchPostMetrics: (accessToken, externalIds) => fetchPostMetrics(o, accessToken, externalIds),
    post: (accessToken, input, signal) => post(o, accessToken, input, signal),
  };
}

async function longLived(o: InstagramContext, shortLived: string): Promise<TokenSet> {
  const query = new URLSearchParams({
    grant_type: 'ig_exchange_token',
    client_secret: o.clientSecret,
    access_token: shortLived,
  });
  return tokenSetOf(await request(`${o.apiBase}/access_token?${query}`, {}));
}

function tokenSetOf(body: Body): TokenSet {
  const token = body.access_token;
  if (typeof token !== 'string' || !token) throw new ConnectorError('bad-body', 'no access_token');
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: token,
    refreshToken: token,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
  };
}

const me = (o: InstagramContext, token: string, fields: string) =>
  request(`${o.graph}/me?fields=${encodeURIComponent(fields)}`, { token });

async function containerStatus(o: InstagramContext, token: string, id: string, signal?: AbortSignal) {
  const body = await request(`${o.graph}/${id}?fields=status_code,status`, { token }, signal);
  return { code: String(body.status_code ?? ''), status: typeof body.status === 'string' ? body.status : '' };
}

/** Polls a container until FINISHED (or PUBLISHED); ERROR refuses the post, EXPIRED and a timeout retry. */
async function untilFinished(
  o: InstagramContext,
  token: string,
  id: string,
  signal?: AbortSignal,
): Promise<'FINISHED' | 'PUBLISHED'> {
  for (let poll = 0; ; poll++) {
    const { code, status } = await containerStatus(o, token, id, signal);
    if (code === 'FINISHED' || code === 'PUBLISHED') return code;
    if (code === 'ERROR') throw new ConnectorError('bad-body', `Instagram could not process the media: ${status}`);
    if (code === 'EXPIRED') throw new ConnectorError('retry', 'the Instagram media container expired');
    if (poll + 1 >= o.maxPolls) {
      throw new ConnectorError(
        'retry',
        'Instagram is still processing the media',
        Math.ceil((o.pollIntervalMs * o.maxPolls) / 1000),
      );
    }
    await sleep(o.pollIntervalMs, signal);
  }
}

async function createContainers(
  o: InstagramContext,
  token: string,
  input: PostInput,
  signal?: AbortSignal,
): Promise<string> {
  const create = (fields: Record<string, unknown>) =>
    request(`${o.graph}/${input.authorId}/media`, { token, json: fields }, signal).then((b) => idOf(b, 'POST /media'));
  const [only] = input.media;
  if (input.media.length === 1 && only) {
    return only.kind === 'video'
      ? create({ media_type: 'REELS', video_url: only.url, caption: input.message })
      : create({ image_url: only.url, caption: input.message });
  }
  const children: string[] = [];
  for (const m of input.media) {
    children.push(
      await create(
        m.kind === 'video'
          ? { media_type: 'VIDEO', video_url: m.url, is_carousel_item: true }
          : { image_url: m.url, is_carousel_item: true },
      ),
    );
  }
  // Each item is processed before the carousel is made of them.
  for (const child of children) await untilFinished(o, token, child, signal);
  return create({ media_type: 'CAROUSEL', children: children.join(','), caption: input.message });
}

/** The account's media with this caption published since `since` (newest first), if any. */
async function publishedSince(
  o: InstagramContext,
  token: string,
  input: PostInput,
  since: number,
  signal?: AbortSignal,
) {
  const body = await request(
    `${o.graph}/${input.authorId}/media?fields=id,caption,permalink,timestamp&limit=25`,
    { token },
    signal,
  );
  for (const m of (body.data ?? []) as Array<Body>) {
    const at = Date.parse(String(m.timestamp ?? ''));
    if (!Number.isFinite(at) || at < since - 60_000) continue;
    if ((m.caption ?? '') === input.message && typeof m.id === 'string') {
      return { externalId: m.id, shareUrl: String(m.permalink ?? ''), views: null } as PostOutcome;
    }
  }
  return null;
}

/** Instagram's publishing limit per account (100 API posts in 24 h): full means trying again later. */
async function assertQuotaLeft(o: InstagramContext, token: string, igUserId: string, signal?: AbortSignal) {
  const body = await request(
    `${o.graph}/${igUserId}/content_publishing_limit?fields=quota_usage,config`,
    { token },
    signal,
  );
  const first = ((body.data ?? []) as Body[])[0];
  const usage = countOf(first?.quota_usage);
  const config = first?.config as Body | undefined;
  const total = countOf(config?.quota_total);
  if (usage !== null && total !== null && usage >= total) {
    throw new ConnectorError(
      'retry',
      `Instagram's publishing limit is reached (${usage} of ${total} posts in 24 hours)`,
      3600,
    );
  }
}

async function outcomeOf(
  o: InstagramContext,
  token: string,
  mediaId: string,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  const body = await request(`${o.graph}/${mediaId}?fields=id,permalink`, { token }, signal);
  const permalink = body.permalink;
  if (typeof permalink !== 'string' || !permalink) throw new ConnectorError('bad-body', 'no permalink in the reply');
  return { externalId: mediaId, shareUrl: permalink, views: null };
}

function authUrl(o: InstagramContext, redirectUri: string): AuthRequest {
  // Instagram's authorize page takes no PKCE; the pair's verifier is kept by the caller and unused here.
  const { codeVerifier, state } = pkcePair();
  const query = new URLSearchParams({
    client_id: o.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: SCOPES.join(','),
    state,
  });
  return { url: `${o.authBase}/oauth/authorize?${query}`, codeVerifier, state };
}

async function authenticate(o: InstagramContext, input: AuthCallback): Promise<Authenticated> {
  // Instagram appends `#_` to the code in the redirect.
  const code = input.code.replace(/#_$/, '');
  const exchanged = await request(`${o.tokenBase}/oauth/access_token`, {
    form: {
      client_id: o.clientId,
      client_secret: o.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: input.redirectUri,
      code,
    },
  });
  // The reply is {access_token, user_id, permissions}, or the same inside `data: [...]`.
  const first = (Array.isArray(exchanged.data) ? (exchanged.data[0] ?? {}) : exchanged) as Body;
  const shortLived = first.access_token;
  if (typeof shortLived !== 'string' || !shortLived) throw new ConnectorError('bad-body', 'no access_token');
  const tokens = await longLived(o, shortLived);
  const profile = await me(o, tokens.accessToken, 'user_id,username,followers_count');
  const userId = profile.user_id ?? profile.id ?? first.user_id;
  const username = profile.username;
  if ((typeof userId !== 'string' && typeof userId !== 'number') || typeof username !== 'string') {
    throw new ConnectorError('bad-body', 'no user in /me');
  }
  return {
    tokens,
    profile: { externalId: String(userId), username, followerCount: countOf(profile.followers_count) },
  };
}

async function refresh(o: InstagramContext, refreshToken: string): Promise<TokenSet> {
  const query = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: refreshToken });
  try {
    return tokenSetOf(await request(`${o.apiBase}/refresh_access_token?${query}`, {}));
  } catch (error) {
    // A token Instagram no longer refreshes (expired, revoked): only reconnecting helps.
    if (error instanceof ConnectorError && error.failure === 'bad-body') {
      throw new ConnectorError('refresh-token', error.message);
    }
    throw error;
  }
}

async function fetchProfile(o: InstagramContext, accessToken: string): Promise<{ followerCount: number }> {
  const body = await me(o, accessToken, 'followers_count');
  const followerCount = countOf(body.followers_count);
  if (followerCount === null) throw new ConnectorError('bad-body', 'no followers_count in /me');
  return { followerCount };
}

async function fetchPostMetrics(
  o: InstagramContext,
  accessToken: string,
  externalIds: readonly string[],
): Promise<Map<string, PostMetrics>> {
  const out = new Map<string, PostMetrics>();
  for (const id of externalIds) {
    try {
      const body = await request(`${o.graph}/${id}/insights?metric=views,likes,comments,shares`, {
        token: accessToken,
      });
      const values = new Map<string, number | null>();
      for (const metric of (body.data ?? []) as Array<{ name?: string; values?: Array<{ value?: unknown }> }>) {
        if (metric.name) values.set(metric.name, countOf(metric.values?.[0]?.value));
      }
      out.set(id, {
        views: values.get('views') ?? null,
        likes: values.get('likes') ?? null,
        comments: values.get('comments') ?? null,
        shares: values.get('shares') ?? null,
      });
      continue;
    } catch (error) {
      // No insights for this media (code 10: too few viewers; 100: a metric its type lacks, or no such media).
      if (!(error instanceof MetaError && (error.code === 10 || error.code === 100))) throw error;
    }
    try {
      const media = await request(`${o.graph}/${id}?fields=like_count,comments_count`, { token: accessToken });
      out.set(id, {
        views: null,
        likes: countOf(media.like_count),
        comments: countOf(media.comments_count),
        shares: null,
      });
    } catch (error) {
      // A media deleted on Instagram is left out.
      if (error instanceof MetaError && error.code === 100) continue;
      throw error;
    }
  }
  return out;
}

async function post(o: InstagramContext, accessToken: string, input: PostInput, signal?: AbortSignal) {
  assertPublishable(input.media);
  const key = { platform: 'instagram' as const, accountId: input.authorId, idempotencyKey: input.idempotencyKey };
  return journaledPublish<Publish>(o.journal, key, (run) => publish(o, run, accessToken, input, signal));
}

async function publish(
  o: InstagramContext,
  { recorded, record }: JournaledPublish<Publish>,
  accessToken: string,
  input: PostInput,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  if (recorded?.outcome) return recorded.outcome;
  // An outcome not recorded (the database unreachable) is found again by the retry: never a failure here.
  const done = async (state: Publish, outcome: PostOutcome) => {
    await record({ ...state, outcome }).catch(() => undefined);
    return outcome;
  };
  let state = recorded;
  if (state?.mediaId) return done(state, await outcomeOf(o, accessToken, state.mediaId, signal));
  if (state?.containerId) {
    // A retry: the container may have been published already (the reply was lost) or be waiting.
    const { code } = await containerStatus(o, accessToken, state.containerId, signal);
    if (code === 'PUBLISHED') {
      const found = await publishedSince(o, accessToken, input, state.startedAt, signal);
      if (found) return done(state, found);
      throw new ConnectorError('bad-body', 'Instagram published this post but its media could not be found');
    }
    if (code !== 'FINISHED' && code !== 'IN_PROGRESS') state = { ...state, containerId: null };
  } else if (!state) {
    // Nothing recorded (a first attempt, or one older than the journal keeps): the account's recent media.
    const found = await publishedSince(o, accessToken, input, Date.now() - REPUBLISH_WINDOW_MS, signal);
    if (found) return done({ startedAt: Date.now(), containerId: null }, found);
  }
  state ??= { startedAt: Date.now(), containerId: null };
  if (!state.containerId) {
    await assertQuotaLeft(o, accessToken, input.authorId, signal);
    state = { ...state, containerId: await createContainers(o, accessToken, input, signal) };
    // Recorded before it can be published: a retry asks this container whether it was.
    await record(state);
  }
  const containerId = state.containerId as string;
  if ((await untilFinished(o, accessToken, containerId, signal)) === 'PUBLISHED') {
    const found = await publishedSince(o, accessToken, input, state.startedAt, signal);
    if (!found) throw new ConnectorError('bad-body', 'Instagram published this post but its media was not found');
    return done(state, found);
  }
  const published = await request(
    `${o.graph}/${input.authorId}/media_publish`,
    { token: accessToken, json: { creation_id: containerId } },
    signal,
  );
  const mediaId = idOf(published, 'POST /media_publish');
  state = { ...state, mediaId };
  await record(state).catch(() => undefined);
  return done(state, await outcomeOf(o, accessToken, mediaId, signal));
}
