import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  type FakeFacebook,
  type FakeFbPost,
  type FakePage,
  type FakeVideoUpload,
  type FbRequest,
  fail,
  fetchFile,
  type GraphCall,
  type Handler,
  type Made,
  nextId,
  paramsOf,
  pick,
  type State,
  send,
} from './facebook-graph.ts';
import { closeServer, listenLocally, matchRoute, type Route, readBody } from './fake-http.ts';

// A local fake of the Facebook Graph API (v24.0) as the Pages connector uses it: Facebook Login's code exchange and
// fb_exchange_token, /me/accounts with Page tokens, Page photos (published and unpublished), feed posts with
// attached_media, videos by file_url or by the resumable upload (upload_phase start/transfer/finish, multipart
// chunks at the offsets it names), published_posts/videos listings, post fields (reactions, comments, shares)
// and insights. It answers failures with Meta's error body {error:{message,type,code,error_subcode,fbtrace_id}}
// and the status Graph uses, and keeps what was posted.

export type { FakeFacebook, FakePage } from './facebook-graph.ts';

const FB_VERSION = 'v24.0';

// ---- Facebook Login: code exchange and long-lived token ----

function accessToken(state: State, { res, params }: FbRequest) {
  const { app } = state.fake;
  if (params.client_id !== app.id) return fail(res, 400, 101, 'Error validating application. Invalid application ID.');
  if (params.client_secret !== app.secret) return fail(res, 400, 1, 'Error validating client secret.');
  if (params.grant_type === 'fb_exchange_token') {
    const exchanged = params.fb_exchange_token ?? '';
    if (!state.shortTokens.has(exchanged) && !state.userTokens.has(exchanged)) {
      return fail(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const token = `EAAL${randomBytes(24).toString('hex')}`;
    state.userTokens.add(token);
    return send(res, 200, { access_token: token, token_type: 'bearer', expires_in: 5_183_944 });
  }
  const pending = state.codes.get(params.code ?? '');
  if (!pending) {
    return fail(res, 400, 100, 'Invalid verification code format.', { error_subcode: 36007 });
  }
  state.codes.delete(params.code ?? '');
  if (pending.redirectUri !== params.redirect_uri) {
    return fail(res, 400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical.', {
      error_subcode: 36008,
    });
  }
  const token = `EAAS${randomBytes(24).toString('hex')}`;
  state.shortTokens.add(token);
  return send(res, 200, { access_token: token, token_type: 'bearer', expires_in: 5_183 });
}

// ---- The user and their Pages ----

/** GET /me/accounts: the user's Pages, each with a fresh Page token. */
const accounts: Handler = (state, r) => {
  if (!r.asUser)
    return fail(r.res, 400, 100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)');
  const data = state.fake.pages.map((p) => {
    // A Page token per page and user token, as Graph returns a fresh one per call.
    const pageToken = `EAAP${randomBytes(20).toString('hex')}`;
    state.pageTokens.set(pageToken, p.id);
    return pick(r, {
      id: p.id,
      name: p.name,
      access_token: pageToken,
      category: 'Brand',
      followers_count: p.followers,
      fan_count: p.fans,
      tasks: p.tasks,
    });
  });
  return send(r.res, 200, { data, paging: { cursors: { before: 'b', after: 'a' } } });
};

/** GET /me: the Page of a Page token, else the person. */
const me: Handler = ({ fake }, r) => {
  const page = fake.pages.find((p) => p.id === r.asPage);
  if (!page) return send(r.res, 200, { id: '9999', name: 'Gen Person' });
  return send(
    r.res,
    200,
    pick(r, { id: page.id, name: page.name, followers_count: page.followers, fan_count: page.fans }),
  );
};

/** /{page}/photos|feed|videos|published_posts: the listing (GET) or publishing, with the Page's token only. */
const pageEdge: Handler = (state, r, [pageId, edge]) => {
  const page = state.fake.pages.find((p) => p.id === pageId);
  if (!page)
    return fail(r.res, 400, 100, `(#100) Unsupported request: object with ID '${pageId}' does not exist`, {
      error_subcode: 33,
    });
  if (r.asPage !== pageId) {
    return fail(r.res, 403, 200, "(#200) The user hasn't authorized the application to perform this action");
  }
  if (r.req.method === 'GET') return listPosts(state.fake, r, pageId as string, edge as string);
  return publishTo(state, r, pageId as string, edge as string);
};

/** The Page's published posts since `since` (its videos under /videos), newest first. */
function listPosts(fake: FakeFacebook, r: GraphCall, pageId: string, edge: string) {
  const since = Number(r.params.since ?? 0) * 1000;
  const kind = edge === 'videos' ? 'video' : null;
  const data = fake.posts
    .filter((p) => p.pageId === pageId && p.createdTime >= since && (kind ? p.kind === kind : p.kind !== 'video'))
    .reverse()
    .map((p) =>
      pick(r, {
        id: p.id,
        message: p.kind === 'video' ? undefined : p.message,
        description: p.kind === 'video' ? p.message : undefined,
        created_time: new Date(p.createdTime).toISOString().replace('.000Z', '+0000'),
      }),
    );
  return send(r.res, 200, { data });
}

/** A publishing call: the next fault first, then the photo, video or feed post. */
function publishTo(state: State, r: GraphCall, pageId: string, edge: string) {
  const { fake } = state;
  const { res, params } = r;
  if (edge === 'published_posts') return fail(res, 400, 100, '(#100) Unsupported post request');
  // A resumable upload's start and transfer phases make nothing: the faults wait for the call that publishes.
  const phase = edge === 'videos' ? params.upload_phase : undefined;
  const fault = phase === 'start' || phase === 'transfer' ? undefined : fake.faults.shift();
  if (fault === 'throttle') {
    return fail(
      res,
      400,
      32,
      '(#32) Page request limit reached',
      {},
      {
        'x-business-use-case-usage': JSON.stringify({
          [pageId]: [
            {
              type: 'pages',
              call_count: 100,
              total_cputime: 12,
              total_time: 30,
              estimated_time_to_regain_access: 1,
            },
          ],
        }),
      },
    );
  }
  if (fault === 'server-error') {
    return fail(res, 500, 2, 'An unexpected error has occurred. Please retry your request later.', {
      is_transient: true,
    });
  }
  const made: Made = (post, reply) => {
    fake.posts.push({ ...post, pageId, params, createdTime: Date.now() });
    if (fault === 'lost-reply') {
      return fail(res, 500, 2, 'An unexpected error has occurred. Please retry your request later.', {
        is_transient: true,
      });
    }
    return send(res, 200, reply);
  };
  if (edge === 'photos') return postPhoto(state, r, pageId, made);
  if (edge === 'videos' && phase) return resumable(state, r, pageId, phase, made);
  if (edge === 'videos') return postVideo(state, r, made);
  return postFeed(state, r, pageId, made);
}

/** POST /{page}/photos: published (a post) or not (kept for a feed post's attached_media). */
async function postPhoto(state: State, { res, params }: GraphCall, pageId: string, made: Made) {
  const { fake } = state;
  if (!params.url && !params.source) return fail(res, 400, 324, '(#324) Requires upload file');
  if (params.url && !/^https?:\/\//.test(params.url))
    return fail(res, 400, 100, '(#100) url should represent a valid URL');
  if (fake.fetchMedia && params.url && !(await fetchFile(fake, params.url, 'image'))) {
    return fail(res, 400, 324, '(#324) Missing or invalid image file');
  }
  const photoId = nextId(state);
  if (params.published === 'false') {
    fake.unpublished.set(photoId, { pageId, url: params.url ?? '' });
    return send(res, 200, { id: photoId });
  }
  const postId = `${pageId}_${nextId(state)}`;
  return made(
    { id: postId, kind: 'photo', message: params.caption ?? params.message ?? '' },
    { id: photoId, post_id: postId },
  );
}

/** POST /{page}/videos by file_url (or source). */
async function postVideo(state: State, { res, params }: GraphCall, made: Made) {
  const { fake } = state;
  if (!params.file_url && !params.source && !params.upload_phase) {
    return fail(res, 400, 100, '(#100) Invalid parameter: the video has no file_url or source', {
      error_subcode: 1363020,
    });
  }
  if (params.file_url && !/^https?:\/\//.test(params.file_url)) {
    return fail(res, 400, 100, '(#100) file_url should represent a valid URL');
  }
  if (fake.fetchMedia && params.file_url && !(await fetchFile(fake, params.file_url, 'video'))) {
    return fail(res, 400, 389, 'Unable to fetch video file from URL.');
  }
  const videoId = nextId(state);
  return made({ id: videoId, kind: 'video', message: params.description ?? '' }, { id: videoId });
}

/** POST /{page}/feed: a message, link, or unpublished photos of this Page as attached_media. */
function postFeed(state: State, { res, params }: GraphCall, pageId: string, made: Made) {
  const { fake } = state;
  const attached = Object.entries(params)
    .filter(([k]) => /^attached_media\[\d+\]$/.test(k))
    .map(([, v]) => {
      try {
        return String((JSON.parse(v) as { media_fbid?: unknown }).media_fbid ?? '');
      } catch {
        return '';
      }
    });
  for (const id of attached) {
    const photo = fake.unpublished.get(id);
    if (!photo || photo.pageId !== pageId) {
      return fail(
        res,
        400,
        100,
        `(#100) param attached_media[media_fbid] must be a valid unpublished photo of this Page`,
      );
    }
  }
  if (!params.message && !params.link && attached.length === 0) {
    return fail(res, 400, 100, '(#100) Missing message or attachment');
  }
  if (params.link && !/^https?:\/\//.test(params.link))
    return fail(res, 400, 100, '(#100) The link is not a valid URL');
  for (const id of attached) fake.unpublished.delete(id);
  const postId = `${pageId}_${nextId(state)}`;
  return made({ id: postId, kind: 'feed', message: params.message ?? '' }, { id: postId });
}

// ---- The resumable video upload ----

/** The byte range Facebook asks for next. */
const rangeFor = (fake: FakeFacebook, offset: number, size: number) => ({
  start_offset: String(offset),
  end_offset: String(Math.min(size, offset + fake.videoChunkBytes)),
});

const uploadError = (res: ServerResponse, message: string, subcode: number, extra: Record<string, unknown> = {}) =>
  fail(res, 400, 6000, `(#6000) ${message}`, { error_subcode: subcode, ...extra });

/**
 * POST /{page}/videos with upload_phase (Graph's resumable upload, on graph-video.facebook.com): start (file_size)
 * opens a session and names the first byte range; each transfer carries exactly that range as video_file_chunk
 * at start_offset and gets the next; finish (once every byte is in) publishes the video with its description.
 */
function resumable(state: State, r: GraphCall, pageId: string, phase: string, made: Made) {
  const { res, params } = r;
  if (phase === 'start') return startUpload(state, r, pageId);
  const upload = state.fake.videoUploads.get(params.upload_session_id ?? '');
  if (!upload || upload.pageId !== pageId || upload.finished) {
    return fail(res, 400, 100, '(#100) Invalid upload_session_id');
  }
  if (phase === 'transfer') return transferChunk(state.fake, r, upload);
  if (phase === 'finish') return finishUpload(r, upload, made);
  return fail(res, 400, 100, `(#100) Invalid upload_phase ${phase}`);
}

function startUpload(state: State, { res, params }: GraphCall, pageId: string) {
  const size = Number(params.file_size);
  if (!Number.isInteger(size) || size <= 0) {
    return fail(res, 400, 100, '(#100) Param file_size must be a positive integer');
  }
  const upload: FakeVideoUpload = {
    sessionId: nextId(state),
    videoId: nextId(state),
    pageId,
    fileSize: size,
    offset: 0,
    chunks: [],
    phases: [{ phase: 'start', startOffset: null, bytes: 0 }],
    finished: false,
    bytes: null,
  };
  state.fake.videoUploads.set(upload.sessionId, upload);
  return send(res, 200, {
    video_id: upload.videoId,
    upload_session_id: upload.sessionId,
    ...rangeFor(state.fake, 0, size),
  });
}

function transferChunk(fake: FakeFacebook, { res, params, file }: GraphCall, upload: FakeVideoUpload) {
  const start = Number(params.start_offset);
  const expected = Math.min(upload.fileSize, upload.offset + fake.videoChunkBytes) - upload.offset;
  upload.phases.push({ phase: 'transfer', startOffset: start, bytes: file?.length ?? 0 });
  if (!file) return fail(res, 400, 100, '(#100) The parameter video_file_chunk is required');
  if (start !== upload.offset || file.length !== expected) {
    return uploadError(res, 'Your video upload timed out before it could be completed.', 1363037, {
      error_data: rangeFor(fake, upload.offset, upload.fileSize),
    });
  }
  upload.chunks.push(file);
  upload.offset += file.length;
  return send(res, 200, rangeFor(fake, upload.offset, upload.fileSize));
}

function finishUpload({ res, params }: GraphCall, upload: FakeVideoUpload, made: Made) {
  upload.phases.push({ phase: 'finish', startOffset: null, bytes: 0 });
  if (upload.offset !== upload.fileSize) {
    return uploadError(res, 'The video file is incomplete: not every byte was transferred.', 1363019);
  }
  const bytes = Buffer.concat(upload.chunks);
  if (bytes.subarray(4, 8).toString('latin1') !== 'ftyp') {
    return fail(res, 400, 352, "(#352) The video file you selected is in a format that we don't support.");
  }
  upload.finished = true;
  upload.bytes = bytes;
  return made({ id: upload.videoId, kind: 'video', message: params.description ?? '' }, { success: true });
}

// ---- A post's (or video's) fields and insights ----

const zeroFigures = { reactions: 0, comments: 0, shares: 0, views: 0 };

/** GET /{post-id}, /{post-id}/insights, /{video-id}/video_insights */
const postObject: Handler = ({ fake }, r, [id, edge]) => {
  const post = fake.posts.find((p) => p.id === id);
  if (!post) {
    return fail(
      r.res,
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { error_subcode: 33, type: 'GraphMethodException' },
    );
  }
  if (r.asPage !== post.pageId)
    return fail(r.res, 403, 10, '(#10) This endpoint requires the pages_read_engagement permission');
  const f = fake.figures.get(id as string) ?? { ...zeroFigures };
  if (edge) return postInsights(r, post, edge, f.views);
  return postFields(r, post, f);
};

function postInsights({ res, params }: GraphCall, post: FakeFbPost, edge: string, views: number) {
  const wanted = edge === 'insights' ? 'post_media_view' : 'total_video_views';
  if ((edge === 'insights') === (post.kind === 'video')) return fail(res, 400, 100, '(#100) Unsupported request');
  const metrics = (params.metric ?? '').split(',').filter(Boolean);
  if (metrics.length === 0) {
    return fail(res, 400, 3001, 'No metric was specified to be fetched.', { error_subcode: 1504028 });
  }
  if (metrics.some((m) => m !== wanted)) {
    return fail(res, 400, 100, '(#100) The value must be a valid insights metric');
  }
  return send(res, 200, {
    data: [
      {
        name: wanted,
        period: 'lifetime',
        values: [{ value: views }],
        title: 'Views',
        description: 'Lifetime: the number of times the post was seen.',
        id: `${post.id}/${edge}/${wanted}/lifetime`,
      },
    ],
    paging: {},
  });
}

function postFields(r: GraphCall, post: FakeFbPost, f: typeof zeroFigures) {
  const out: Record<string, unknown> = { id: post.id };
  for (const field of r.fields) {
    const name = field.split('.')[0];
    if (name === 'reactions' || name === 'comments') {
      const total = name === 'reactions' ? f.reactions : f.comments;
      out[name] = {
        data: [],
        summary: field.includes('summary(total_count)') ? { total_count: total } : undefined,
      };
    } else if (name === 'shares') {
      if (post.kind === 'video')
        return fail(r.res, 400, 100, '(#100) Tried accessing nonexisting field (shares) on node type (Video)');
      // Graph leaves `shares` out of a post nobody shared.
      if (f.shares > 0) out.shares = { count: f.shares };
    } else if (name !== 'id') {
      out[name] = null;
    }
  }
  return send(r.res, 200, out);
}

/** The Graph API with a user or Page token, by the path after the version. */
const ROUTES: ReadonlyArray<Route<Handler>> = [
  { method: 'GET', path: '/me/accounts', handle: accounts },
  { method: 'GET', path: '/me', handle: me },
  { method: '*', path: /^\/(\d+)\/(photos|feed|videos|published_posts)$/, handle: pageEdge },
  { method: 'GET', path: /^\/([\d_]+)(?:\/(insights|video_insights))?$/, handle: postObject },
];

async function handleRequest(state: State, req: IncomingMessage, res: ServerResponse) {
  const rawBytes = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://fake');
  if (!url.pathname.startsWith(`/${FB_VERSION}/`)) {
    return fail(res, 400, 2635, `(#2635) You are calling a deprecated or unknown version of the Graph API.`);
  }
  const path = url.pathname.slice(FB_VERSION.length + 1);
  const read = await paramsOf(req, url, rawBytes);
  if (!read) return fail(res, 400, 100, '(#100) Unsupported content type');
  const { params, file } = read;
  state.fake.calls.push({ method: req.method ?? 'GET', path, params });
  const r: FbRequest = { req, res, path, params, file };
  if (req.method === 'GET' && path === '/oauth/access_token') return accessToken(state, r);

  const header = String(req.headers.authorization ?? '');
  const token = header.startsWith('Bearer ') ? header.slice(7) : (params.access_token ?? '');
  if (!token) return fail(res, 400, 104, 'An access token is required to request this resource.');
  const asUser = state.userTokens.has(token) || state.shortTokens.has(token);
  const asPage = state.pageTokens.get(token);
  if (!asUser && !asPage) {
    return fail(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
  }
  const fields = (params.fields ?? '').split(',').filter(Boolean);
  const route = matchRoute(ROUTES, req.method ?? '', path);
  if (!route) return fail(res, 400, 100, `(#100) Unknown path components: ${path}`);
  return route.handle(state, { ...r, asUser, asPage, fields }, route.params);
}

export async function startFakeFacebook(
  opts: { app?: { id: string; secret: string }; pages?: FakePage[] } = {},
): Promise<FakeFacebook> {
  const app = opts.app ?? { id: 'fb-app-1', secret: 'fb-secret-1' };
  const state: State = {
    fake: undefined as unknown as FakeFacebook,
    codes: new Map(),
    shortTokens: new Set(),
    userTokens: new Set(),
    pageTokens: new Map(),
    seq: 100,
  };
  const fake: FakeFacebook = {
    server: createServer((req, res) => handleRequest(state, req, res)),
    base: '',
    app,
    pages: opts.pages ?? [
      { id: '1111', name: 'Genpro Page', followers: 250, fans: 240, tasks: ['ANALYZE', 'ADVERTISE', 'CREATE_CONTENT'] },
    ],
    posts: [],
    unpublished: new Map(),
    calls: [],
    figures: new Map(),
    faults: [],
    fetchMedia: false,
    fetched: new Map(),
    videoUploads: new Map(),
    videoChunkBytes: 1024 * 1024,
    approve(authUrl) {
      const u = new URL(authUrl);
      if (u.pathname !== `/${FB_VERSION}/dialog/oauth`) throw new Error(`not the Login dialog: ${u.pathname}`);
      if (u.searchParams.get('client_id') !== app.id) throw new Error('Invalid App ID');
      if (u.searchParams.get('response_type') !== 'code') throw new Error('response_type must be code');
      const code = `AQ${randomBytes(24).toString('base64url')}`;
      state.codes.set(code, {
        redirectUri: u.searchParams.get('redirect_uri') ?? '',
        scope: u.searchParams.get('scope') ?? '',
      });
      return { code, state: u.searchParams.get('state') ?? '' };
    },
    revokeAll() {
      state.userTokens.clear();
      state.pageTokens.clear();
      state.shortTokens.clear();
    },
    close: () => closeServer(fake.server),
  };
  state.fake = fake;
  fake.base = await listenLocally(fake.server);
  return fake;
}
