import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fileTypeFromBuffer } from 'file-type';
import { LINKEDIN_VERSION } from '../../features/social/connectors/linkedin.ts';
import { formFields, matchRoute, type Route, sendEmpty } from './fake-http.ts';
import { FakeOAuth, type FakeRequest, startFakeServer } from './social-oauth.ts';

// A fake of LinkedIn's APIs as the linkedin connector uses them: OAuth 2.0 (client secret in the form, PKCE
// checked), /v2/userinfo, the versioned REST API (LinkedIn-Version and X-Restli-Protocol-Version 2.0.0 required):
// Images API (initializeUpload → upload URL, PUT JPEG/PNG/GIF bytes), Videos API (initializeUpload with
// fileSizeBytes → 4 MiB parts, PUT each with its exact byte range, ETags, finalizeUpload with the ETags in order,
// then PROCESSING → AVAILABLE), POST /rest/posts (content.media.id / content.multiImage, only available media the
// author owns), memberFollowersCount and socialActions. Errors are LinkedIn's {message, status} bodies; a missing
// LinkedIn-Version is 400 VERSION_MISSING and one that is not active (sunset, not yet released, or malformed) is
// 426 NONEXISTENT_VERSION, as LinkedIn answers them.

const PART_BYTES = 4 * 1024 * 1024;

/**
 * Whether LinkedIn serves `version` (YYYYMM) on `day`: released (its month has begun), not newer than the version
 * the connector is written against (LinkedIn has no later one the fake knows of), and not sunset (LinkedIn retires a
 * version about a year after its release, mid-month: 202511 on 16 November 2026, 202603 on 16 March 2027; the
 * fake takes the 15th).
 */
export function isActiveVersion(version: string, day: Date): boolean {
  const m = /^(\d{4})(\d{2})$/.exec(version);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (month < 1 || month > 12 || version > LINKEDIN_VERSION) return false;
  const released = Date.UTC(year, month - 1, 1);
  const sunset = Date.UTC(year + 1, month - 1, 15);
  return day.getTime() >= released && day.getTime() < sunset;
}
const VIDEO_MIN = 75 * 1024;
const VIDEO_MAX = 500 * 1024 * 1024;

interface LinkedinUploadedMedia {
  urn: string;
  owner: string;
  kind: 'image' | 'video';
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';
  fileSizeBytes: number;
  uploadToken: string;
  /** Part index → bytes and ETag, as PUT. */
  parts: Array<{ firstByte: number; lastByte: number; bytes?: Buffer; etag?: string }>;
  bytes: Buffer | null;
  contentType: string | null;
}

export interface LinkedinFake {
  base: string;
  oauth: FakeOAuth;
  client: { id: string; secret: string };
  /** The next N calls to POST /rest/posts answer 429 with Retry-After. */
  rateLimited: number;
  posts: Array<{ body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  media: Map<string, LinkedinUploadedMedia>;
  followers: number;
  metrics: Map<string, { likes: number; comments: number }>;
  close(): Promise<void>;
}

const fail = (r: FakeRequest, status: number, message: string) => r.send(status, { message, status });

function jsonOf(r: FakeRequest): Record<string, unknown> | null {
  try {
    return JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The fake and the id counter only its handlers see. */
interface State {
  fake: LinkedinFake;
  next: number;
}

type Handler = (state: State, r: FakeRequest, params: string[]) => unknown;

const person = (fake: LinkedinFake) => `urn:li:person:${fake.oauth.memberId}`;

// ---- OAuth ----

/** The token endpoint: the client secret in the form, then the grants. */
const token: Handler = ({ fake }, r) => {
  const form = formFields(r.raw);
  if (form.client_id !== fake.client.id || form.client_secret !== fake.client.secret) {
    return r.send(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
  }
  return fake.oauth.token(r, form);
};

const OAUTH: ReadonlyArray<Route<Handler>> = [
  {
    method: 'GET',
    path: '/oauth/v2/authorization',
    handle: ({ fake }, r) => fake.oauth.consentPage(r, fake.client.id, 'LinkedIn'),
  },
  { method: 'POST', path: '/oauth/v2/accessToken', handle: token },
];

// ---- The upload URLs (dms-uploads) take the bytes with the member's token ----

const putImage: Handler = async ({ fake }, r, [id]) => {
  const media = fake.media.get(`urn:li:image:${id}`);
  if (media?.status !== 'WAITING_UPLOAD') return fail(r, 400, 'Invalid upload URL');
  const type = await fileTypeFromBuffer(r.raw);
  if (!type || !['image/jpeg', 'image/png', 'image/gif'].includes(type.mime)) {
    return fail(r, 400, 'Unsupported image format: JPEG, PNG or GIF');
  }
  media.bytes = Buffer.from(r.raw);
  media.contentType = type.mime;
  media.status = 'AVAILABLE';
  sendEmpty(r.res, 201, { etag: `"img-${randomBytes(4).toString('hex')}"` });
};

const putVideoPart: Handler = ({ fake }, r, [id, index]) => {
  const media = fake.media.get(`urn:li:video:${id}`);
  const part = media?.parts[Number(index)];
  if (!media || !part || media.status !== 'WAITING_UPLOAD') return fail(r, 400, 'Invalid upload URL');
  if (r.raw.length !== part.lastByte - part.firstByte + 1) {
    return fail(r, 400, `Part size mismatch: expected ${part.lastByte - part.firstByte + 1} bytes`);
  }
  part.bytes = Buffer.from(r.raw);
  part.etag = `/ambry-video/signedId/${randomBytes(6).toString('hex')}`;
  sendEmpty(r.res, 201, { etag: part.etag });
};

// ---- The member, followers and social actions ----

const userinfo: Handler = ({ fake }, r) =>
  r.send(200, { sub: fake.oauth.memberId, name: 'Gen Pro', given_name: 'Gen', family_name: 'Pro' });

const followersCount: Handler = ({ fake }, r) => {
  if (r.url.searchParams.get('q') !== 'me') return fail(r, 400, 'q=me required');
  return r.send(200, {
    paging: { start: 0, count: 10, links: [] },
    elements: [{ memberFollowersCount: fake.followers }],
  });
};

const socialActions: Handler = ({ fake }, r, [encodedUrn]) => {
  const urn = decodeURIComponent(encodedUrn as string);
  const m = fake.metrics.get(urn);
  if (!m) return fail(r, 404, 'Not Found');
  return r.send(200, {
    target: urn,
    likesSummary: { totalLikes: m.likes, likedByCurrentUser: false },
    commentsSummary: { aggregatedTotalComments: m.comments, totalFirstLevelComments: m.comments },
  });
};

// ---- Images and Videos APIs ----

/** A handler per `action` query parameter; another action is 404. */
function byAction(actions: Record<string, Handler>): Handler {
  return (state, r, params) => {
    const action = r.url.searchParams.get('action') ?? '';
    if (!Object.hasOwn(actions, action)) return fail(r, 404, 'Not Found');
    return actions[action]?.(state, r, params);
  };
}

const initImage: Handler = (state, r) => {
  const { fake } = state;
  const init = (jsonOf(r)?.initializeUploadRequest ?? null) as { owner?: string } | null;
  if (!init?.owner) return fail(r, 400, 'initializeUploadRequest.owner is required');
  if (init.owner !== person(fake)) return fail(r, 403, 'Not enough permissions to upload for this owner');
  const id = `D4E${state.next++}`;
  const urn = `urn:li:image:${id}`;
  fake.media.set(urn, blank(urn, init.owner, 'image', 0));
  return r.send(200, {
    value: {
      uploadUrlExpiresAt: Date.now() + 3600_000,
      uploadUrl: `${fake.base}/dms-uploads/image/${id}`,
      image: urn,
    },
  });
};

const initVideo: Handler = (state, r) => {
  const { fake } = state;
  const init = (jsonOf(r)?.initializeUploadRequest ?? null) as { owner?: string; fileSizeBytes?: unknown } | null;
  if (!init?.owner) return fail(r, 400, 'initializeUploadRequest.owner is required');
  if (init.owner !== person(fake)) return fail(r, 403, 'Not enough permissions to upload for this owner');
  const size = init.fileSizeBytes;
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) {
    return fail(r, 400, 'fileSizeBytes is required');
  }
  if (size < VIDEO_MIN || size > VIDEO_MAX) return fail(r, 400, 'Video size must be 75 KB to 500 MB');
  const id = `C5F${state.next++}`;
  const urn = `urn:li:video:${id}`;
  const media = blank(urn, init.owner, 'video', size);
  for (let first = 0; first < size; first += PART_BYTES) {
    media.parts.push({ firstByte: first, lastByte: Math.min(size, first + PART_BYTES) - 1 });
  }
  media.uploadToken = media.parts.length > 1 ? randomBytes(8).toString('hex') : '';
  fake.media.set(urn, media);
  return r.send(200, {
    value: {
      uploadUrlsExpireAt: Date.now() + 3600_000,
      video: urn,
      uploadInstructions: media.parts.map((p, i) => ({
        uploadUrl: `${fake.base}/dms-uploads/video/${id}/${i}`,
        firstByte: p.firstByte,
        lastByte: p.lastByte,
      })),
      uploadToken: media.uploadToken,
    },
  });
};

const finalizeVideo: Handler = async ({ fake }, r) => {
  const fin = (jsonOf(r)?.finalizeUploadRequest ?? null) as {
    video?: string;
    uploadToken?: string;
    uploadedPartIds?: unknown;
  } | null;
  const media = fake.media.get(fin?.video ?? '');
  if (!fin || !media || media.kind !== 'video') return fail(r, 400, 'finalizeUploadRequest.video is invalid');
  if (media.status !== 'WAITING_UPLOAD') return fail(r, 400, 'The upload is already finalized');
  if ((fin.uploadToken ?? '') !== media.uploadToken) return fail(r, 400, 'uploadToken does not match');
  const etags = media.parts.map((p) => p.etag);
  if (
    !Array.isArray(fin.uploadedPartIds) ||
    etags.some((e) => !e) ||
    JSON.stringify(fin.uploadedPartIds) !== JSON.stringify(etags)
  ) {
    return fail(r, 400, 'uploadedPartIds do not match the uploaded parts');
  }
  const bytes = Buffer.concat(media.parts.map((p) => p.bytes as Buffer));
  const type = await fileTypeFromBuffer(bytes);
  media.bytes = bytes;
  media.contentType = type?.mime ?? null;
  media.status = type?.mime === 'video/mp4' ? 'PROCESSING' : 'PROCESSING_FAILED';
  sendEmpty(r.res, 200);
};

const getVideo: Handler = ({ fake }, r, [encodedUrn]) => {
  const media = fake.media.get(decodeURIComponent(encodedUrn as string));
  if (media?.kind !== 'video') return fail(r, 404, 'Not Found');
  const status = media.status;
  // Processing ends at the first look after finalize.
  if (media.status === 'PROCESSING') media.status = 'AVAILABLE';
  return r.send(200, {
    id: media.urn,
    owner: media.owner,
    status,
    ...(status === 'PROCESSING_FAILED' ? { processingFailureReason: 'Unsupported video format' } : {}),
  });
};

/** What is wrong with a post's content (one media, or 2 to 20 images), all available media of the author; or null. */
function contentError(fake: LinkedinFake, body: Record<string, unknown>): string | null {
  const content = body.content as
    | { media?: { id?: string }; multiImage?: { images?: Array<{ id?: string }> } }
    | undefined;
  if (!content) return null;
  const ids = content.media ? [content.media.id] : (content.multiImage?.images ?? []).map((image) => image.id);
  if (content.multiImage && (ids.length < 2 || ids.length > 20)) return 'multiImage takes 2 to 20 images';
  if (ids.length === 0) return 'content is empty';
  for (const id of ids) {
    const media = fake.media.get(id ?? '');
    if (!media || media.owner !== body.author) return `Media ${id} not found`;
    if (media.status !== 'AVAILABLE') return `Media ${id} is not AVAILABLE (${media.status})`;
    if (content.multiImage && media.kind !== 'image') return 'multiImage takes images only';
  }
  return null;
}

const createPost: Handler = ({ fake }, r) => {
  if (fake.rateLimited > 0) {
    fake.rateLimited--;
    return r.send(429, { message: 'Too Many Requests', status: 429 }, { 'retry-after': '1' });
  }
  const body = jsonOf(r);
  if (!body) return fail(r, 400, 'Invalid JSON');
  if (body.author !== person(fake)) return fail(r, 403, 'Not enough permissions to post as this author');
  if (typeof body.commentary !== 'string' || body.commentary.length > 3000) {
    return fail(r, 422, 'commentary must be a string of at most 3000 characters');
  }
  if (body.lifecycleState !== 'PUBLISHED' || body.visibility !== 'PUBLIC') {
    return fail(r, 422, 'lifecycleState and visibility are required');
  }
  const refused = contentError(fake, body);
  if (refused) return fail(r, 422, refused);
  fake.posts.push({ body, headers: r.req.headers });
  sendEmpty(r.res, 201, { 'x-restli-id': `urn:li:share:${7000 + fake.posts.length}` });
};

/** What takes the member's access token. */
const API: ReadonlyArray<Route<Handler>> = [
  { method: 'PUT', path: /^\/dms-uploads\/image\/([\w-]+)$/, handle: putImage },
  { method: 'PUT', path: /^\/dms-uploads\/video\/([\w-]+)\/(\d+)$/, handle: putVideoPart },
  { method: 'GET', path: '/v2/userinfo', handle: userinfo },
  { method: 'GET', path: '/rest/memberFollowersCount', handle: followersCount },
  { method: 'GET', path: /^\/rest\/socialActions\/(.*)$/s, handle: socialActions },
  { method: 'POST', path: '/rest/images', handle: byAction({ initializeUpload: initImage }) },
  {
    method: 'POST',
    path: '/rest/videos',
    handle: byAction({ initializeUpload: initVideo, finalizeUpload: finalizeVideo }),
  },
  { method: 'GET', path: /^\/rest\/videos\/(.+)$/, handle: getVideo },
  { method: 'POST', path: '/rest/posts', handle: createPost },
];

/** The versioned REST API's headers: LinkedIn-Version present and active, Rest.li 2.0.0 for writes; whether refused. */
function refusedVersion(r: FakeRequest): boolean {
  const version = r.req.headers['linkedin-version'];
  if (typeof version !== 'string' || version === '') {
    r.send(400, {
      status: 400,
      code: 'VERSION_MISSING',
      message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    });
    return true;
  }
  if (!isActiveVersion(version, new Date())) {
    r.send(426, {
      status: 426,
      code: 'NONEXISTENT_VERSION',
      message: `Requested version ${version} is not active`,
    });
    return true;
  }
  if (r.req.method !== 'GET' && r.req.headers['x-restli-protocol-version'] !== '2.0.0') {
    fail(r, 400, 'X-Restli-Protocol-Version 2.0.0 required');
    return true;
  }
  return false;
}

async function handle(state: State, r: FakeRequest) {
  const method = r.req.method ?? '';
  const path = r.url.pathname;
  const open = matchRoute(OAUTH, method, path);
  if (open) return open.handle(state, r, open.params);
  if (!state.fake.oauth.access.has(r.bearer)) return fail(r, 401, 'Invalid access token');
  if (path.startsWith('/rest/') && refusedVersion(r)) return;
  const route = matchRoute(API, method, path);
  if (!route) return fail(r, 404, 'Not Found');
  return route.handle(state, r, route.params);
}

export async function startLinkedinFake(client = { id: 'client-123', secret: 'secret-456' }): Promise<LinkedinFake> {
  const fake = {
    oauth: new FakeOAuth('abc123'),
    client,
    rateLimited: 0,
    posts: [],
    media: new Map(),
    followers: 0,
    metrics: new Map(),
  } as unknown as LinkedinFake;
  const state: State = { fake, next: 1 };
  const server = await startFakeServer((r) => handle(state, r));
  fake.base = server.base;
  fake.close = server.close;
  return fake;
}

function blank(urn: string, owner: string, kind: 'image' | 'video', size: number): LinkedinUploadedMedia {
  return {
    urn,
    owner,
    kind,
    status: 'WAITING_UPLOAD',
    fileSizeBytes: size,
    uploadToken: '',
    parts: [],
    bytes: null,
    contentType: null,
  };
}
