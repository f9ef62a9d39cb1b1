import { createHash, randomBytes } from 'node:crypto';
import type { SocialPlatform } from '../../../../common/api/social.ts';

// The connector shape (providers.md 9): one per platform, sandbox or live, behind one interface.

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

interface SocialProfile {
  externalId: string;
  username: string;
  /** Null when the network does not report it to this app. */
  followerCount: number | null;
}

/**
 * One media file of a post, as a connector uploads it (issue 28: media is uploaded, not linked). Networks that
 * pull media themselves (Instagram containers, TikTok PULL_FROM_URL, Facebook `url`) take `url`; the others
 * upload the bytes from `read()`.
 */
export interface PostMedia {
  kind: 'image' | 'video';
  /** The sniffed MIME type: image/jpeg, image/png, image/webp, image/gif, video/mp4, video/quicktime. */
  contentType: string;
  sizeBytes: number;
  /** Pixels, when known (images and probed videos). */
  width: number | null;
  height: number | null;
  /** Seconds, for a video when known. */
  durationSeconds: number | null;
  /** A signed public https URL of the file that the network's servers can fetch (valid for hours). */
  url: string;
  /** The file's bytes (read from the studio's storage). */
  read(): Promise<Buffer>;
}

export interface PostInput {
  message: string;
  /** The public URLs of the media (the same files as `media`), for networks and the sandbox that link them. */
  mediaUrls: string[];
  /** The post's media files in order, to upload (empty for a text post). */
  media: PostMedia[];
  /** Our post id: a retried publish must not post twice. */
  idempotencyKey: string;
  /** The account's id on the network (the author of the post). */
  authorId: string;
  /**
   * Who may see the post, for networks that ask (YouTube's status.privacyStatus): the user's publishing setting.
   * Absent: the network connector's safe default (private).
   */
  privacy?: 'private' | 'unlisted' | 'public';
}

/** A post's figures as the network reports them; null where the network reports none. */
export interface PostMetrics {
  /** Views (X impressions, the sandbox's unique visitors a day). */
  views: number | null;
  likes: number | null;
  /** Comments or replies. */
  comments: number | null;
  /** Shares, reposts and quotes. */
  shares: number | null;
}

export interface PostOutcome {
  externalId: string;
  shareUrl: string;
  /** Views the network reports for the post (0 at first), or null when it reports none. */
  views: number | null;
}

/**
 * Failure classes: `refresh-token` (the token is no longer accepted: refresh it or reconnect), `bad-body`
 * (the network refuses this content: retrying cannot help), `retry` (transient: rate limit, 5xx, network).
 */
export type ConnectorFailure = 'refresh-token' | 'bad-body' | 'retry';

export class ConnectorError extends Error {
  constructor(
    readonly failure: ConnectorFailure,
    message: string,
    readonly retryAfterSeconds?: number,
    /** The HTTP status of the network's reply, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

export interface AuthRequest {
  url: string;
  codeVerifier: string;
  state: string;
}

/** What the OAuth callback brings back: the code, with the verifier and redirect URI of its AuthRequest. */
export interface AuthCallback {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

/** A connected account: its tokens and profile on the network. */
export interface Authenticated {
  tokens: TokenSet;
  profile: SocialProfile;
  /**
   * Optional: every account the login granted, when the person must choose which one to connect (the Facebook
   * Pages they manage); `tokens`/`profile` are then the first of them.
   */
  choices?: Array<{ tokens: TokenSet; profile: SocialProfile }>;
}

export interface Connector {
  platform: SocialPlatform;
  mode: 'sandbox' | 'live';
  /**
   * How long before its expiry a token is refreshed (default 5 minutes). Instagram's long-lived token can only be
   * refreshed while it is still valid, so it is refreshed days ahead by whichever call comes first (the metrics pass).
   */
  refreshMarginMs?: number;
  generateAuthUrl(redirectUri: string): AuthRequest;
  authenticate(input: AuthCallback): Promise<Authenticated>;
  refreshToken(refreshToken: string): Promise<TokenSet>;
  post(accessToken: string, input: PostInput, signal?: AbortSignal): Promise<PostOutcome>;
  /** The account's follower count now (X users/me public_metrics, LinkedIn memberFollowersCount, sandbox follows). */
  fetchProfile(accessToken: string): Promise<{ followerCount: number }>;
  /** The figures of the account's posts by network id; a post the network no longer has is left out. */
  fetchPostMetrics(accessToken: string, externalIds: readonly string[]): Promise<Map<string, PostMetrics>>;
}

/** Waits `ms`; a publish stopped meanwhile (its AbortSignal) ends the wait as a `retry` ConnectorError. */
export function sleepUnlessStopped(ms: number, signal: AbortSignal | undefined, stopped: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ConnectorError('retry', stopped));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ConnectorError('retry', stopped));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A count from a network reply: a non-negative integer, else null (the network did not report it). */
export function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** PKCE (RFC 7636) S256 pair and an unguessable state. */
export function pkcePair(): { codeVerifier: string; codeChallenge: string; state: string } {
  const codeVerifier = randomBytes(48).toString('base64url');
  return { codeVerifier, codeChallenge: s256(codeVerifier), state: randomBytes(24).toString('base64url') };
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Maps an HTTP status of a network's API to a failure class. */
function failureOf(status: number): ConnectorFailure {
  if (status === 401) return 'refresh-token';
  if (status === 429 || status >= 500) return 'retry';
  return 'bad-body';
}

/**
 * Sends a request to a network and reads its answer as JSON whatever the status (a body that is not JSON comes back
 * as `{ raw }`); only a request that got no answer throws, as a `retry` ConnectorError. Each connector maps the
 * status and body to its failure classes.
 */
export async function sendForJson(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | FormData },
  signal?: AbortSignal,
): Promise<{ res: Response; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch (error) {
    throw new ConnectorError('retry', `network error: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await res.text();
  try {
    return { res, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { res, body: { raw: text.slice(0, 500) } };
  }
}

/** JSON (or form) request to a network's API; non-2xx answers become ConnectorErrors of the right class. */
export async function callApi(
  url: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> },
  signal?: AbortSignal,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
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
  if (!res.ok) {
    const failure = failureOf(res.status);
    const detail = String(
      parsed.detail ?? parsed.error_description ?? parsed.message ?? parsed.error ?? res.statusText,
    );
    throw new ConnectorError(failure, `${res.status} ${detail}`, retryAfter(res.headers), res.status);
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

function retryAfter(headers: Headers): number | undefined {
  const after = Number(headers.get('retry-after'));
  if (Number.isFinite(after) && after > 0) return after;
  const reset = Number(headers.get('x-rate-limit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  return undefined;
}

/** An OAuth token endpoint reply as a TokenSet. */
function tokenSet(body: Record<string, unknown>, now: Date, previousRefresh: string | null = null): TokenSet {
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || !accessToken) throw new ConnectorError('bad-body', 'no access_token');
  const expiresIn = Number(body.expires_in);
  return {
    accessToken,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : previousRefresh,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
  };
}

/** The call to a network's OAuth token endpoint with its client authentication; `form` carries the grant. */
type TokenEndpoint = (form: Record<string, string>) => ReturnType<typeof callApi>;

/**
 * OAuth 2.0 authorization code with PKCE (S256): the consent URL, the code exchange and the refresh. A token
 * reply without an access token on refresh means the refresh token is no longer valid: only reconnecting helps.
 */
export function pkceCodeFlow(o: { authorizeUrl: string; clientId: string; scope: string; token: TokenEndpoint }) {
  return {
    generateAuthUrl(redirectUri: string): AuthRequest {
      const { codeVerifier, codeChallenge, state } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: o.clientId,
        redirect_uri: redirectUri,
        scope: o.scope,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return { url: `${o.authorizeUrl}?${query}`, codeVerifier, state };
    },
    async exchangeCode(input: AuthCallback): Promise<TokenSet> {
      const { body } = await o.token({
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      });
      return tokenSet(body, new Date());
    },
    async refreshToken(refreshToken: string): Promise<TokenSet> {
      try {
        const { body } = await o.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
        return tokenSet(body, new Date(), refreshToken);
      } catch (error) {
        // An invalid refresh token answers 400 invalid_request (or a reply without a token).
        if (error instanceof ConnectorError && error.failure === 'bad-body') {
          throw new ConnectorError('refresh-token', error.message);
        }
        throw error;
      }
    },
  };
}
