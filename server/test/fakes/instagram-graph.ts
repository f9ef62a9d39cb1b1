import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { sendMetaJson as json, sendMetaError as metaError } from './meta-replies.ts';

// What the Instagram fake's handlers share: what it keeps, the request a handler gets, Meta's replies and error
// body, new ids and tokens, the fields asked for, the injected 5xx and throttling, and Instagram's crawler fetching
// a container's media.

export interface FakeContainer {
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

export { sendMetaError as metaError, sendMetaJson as json } from './meta-replies.ts';

const appUsage = (calls: number) => ({
  'x-app-usage': JSON.stringify({ call_count: calls, total_cputime: 1, total_time: 1 }),
});

/** The fake and the id counter only its handlers see. */
export interface State {
  fake: InstagramFake;
  lastId: bigint;
}

export interface IgRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  contentType: string | undefined;
  /** The JSON or form-encoded body. */
  body: Record<string, unknown>;
}

/** A Graph API call, its token known. */
export interface GraphRequest extends IgRequest {
  token: { kind: 'short' | 'long'; userId: string };
  /** The `fields` asked for. */
  fields: string[];
}

export type Handler<R> = (state: State, r: R, params: string[]) => unknown;

export const newId = (state: State) => String(++state.lastId);

export function newToken(fake: InstagramFake, kind: 'short' | 'long', userId: string) {
  const token = `IG${kind === 'short' ? 'S' : 'L'}${randomBytes(24).toString('base64url')}`;
  fake.tokens.set(token, { kind, userId });
  return token;
}

export const publishedLastDay = (fake: InstagramFake, userId: string) =>
  fake.media.filter((m) => m.userId === userId && Date.parse(m.timestamp) > Date.now() - 86_400_000).length;

/** Fetches a container's media as Instagram does (cURL of the public URL) and checks its type. */
export async function fetchMedia(container: FakeContainer) {
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

export const ok = (r: GraphRequest, value: unknown) => json(r.res, 200, value, appUsage(3));

/** The fields asked for among `all` (`defaults` when none were asked for). */
export const pick = (r: GraphRequest, all: Record<string, unknown>, defaults: string[]) =>
  Object.fromEntries((r.fields.length ? r.fields : defaults).filter((f) => f in all).map((f) => [f, all[f]]));

/** Whether `id` names the token's user. */
export const userOk = (r: GraphRequest, id: string | undefined) => id === r.token.userId || id === 'me';

export function unsupported(r: IgRequest, id: string) {
  return metaError(
    r.res,
    400,
    100,
    `Unsupported ${r.req.method === 'POST' ? 'post' : 'get'} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { error_subcode: 33 },
  );
}

const THROTTLE_MESSAGES: Record<number, string> = {
  4: '(#4) Application request limit reached',
  17: '(#17) User request limit reached',
  32: '(#32) Page request limit reached',
  613: '(#613) Calls to this api have exceeded the rate limit.',
};

/** Answers an injected 500 or throttling error when one is due; whether it did. */
export function answeredFault(fake: InstagramFake, r: IgRequest, path: string): boolean {
  if (fake.serverErrors > 0) {
    fake.serverErrors--;
    metaError(r.res, 500, 1, 'An unknown error has occurred.', { is_transient: true }, appUsage(5));
    return true;
  }
  if (r.req.method === 'POST' && path.endsWith('/media_publish') && fake.throttlePublish > 0) {
    fake.throttlePublish--;
    fake.throttle = { count: 1, code: 4, minutes: 1 };
  }
  if (fake.throttle.count <= 0) return false;
  fake.throttle.count--;
  const { code, minutes } = fake.throttle;
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
  metaError(
    r.res,
    400,
    code,
    THROTTLE_MESSAGES[code] as string,
    { is_transient: true },
    {
      ...appUsage(100),
      'x-business-use-case-usage': JSON.stringify(buc),
    },
  );
  return true;
}
