import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local fake of the Facebook Graph API (v24.0) as the Pages connector uses it: Facebook Login's code exchange and
// fb_exchange_token, /me/accounts with Page tokens, Page photos (published and unpublished), feed posts with
// attached_media, videos by file_url or by the resumable upload (upload_phase start/transfer/finish, multipart
// chunks at the offsets it names), published_posts/videos listings, post fields (reactions, comments, shares)
// and insights. It answers failures with Meta's error body {error:{message,type,code,error_subcode,fbtrace_id}}
// and the status Graph uses, and keeps what was posted.

const FB_VERSION = 'v24.0';

export interface FakePage {
  id: string;
  name: string;
  followers: number;
  fans: number;
  tasks: string[];
}

interface FakeFbPost {
  id: string;
  pageId: string;
  kind: 'photo' | 'feed' | 'video';
  /** The form fields the request carried. */
  params: Record<string, string>;
  message: string;
  createdTime: number;
}

interface FakeVideoUpload {
  sessionId: string;
  videoId: string;
  pageId: string;
  fileSize: number;
  /** The next byte Facebook expects. */
  offset: number;
  chunks: Buffer[];
  /** Every phase call in order, with the offset it carried. */
  phases: Array<{ phase: string; startOffset: number | null; bytes: number }>;
  finished: boolean;
  /** The whole file, once finished. */
  bytes: Buffer | null;
}

type FakeFbFault =
  /** Meta's Page rate limit: 400 code 32 with X-Business-Use-Case-Usage (1 minute to regain access). */
  | 'throttle'
  /** 500 with a transient error, nothing made. */
  | 'server-error'
  /** The post IS made, but the reply is a 500 (the answer was lost on the way). */
  | 'lost-reply';

export interface FakeFacebook {
  server: Server;
  base: string;
  app: { id: string; secret: string };
  pages: FakePage[];
  /** Everything published (photos, feed posts, videos), in order; unpublished photos are not posts. */
  posts: FakeFbPost[];
  /** Unpublished photos: id → page and url, until a feed post attaches them. */
  unpublished: Map<string, { pageId: string; url: string }>;
  /** Every call: method, path, query/form. */
  calls: Array<{ method: string; path: string; params: Record<string, string> }>;
  /** Post figures by post (or video) id. */
  figures: Map<string, { reactions: number; comments: number; shares: number; views: number }>;
  /** Faults answered by the next publishing calls (POST to /photos, /feed, /videos), in order. */
  faults: FakeFbFault[];
  /**
   * Fetch each photo `url` and video `file_url` as Facebook does, refusing what cannot be fetched (photos: 324,
   * videos: 389). Off by default: the connector's own tests send URLs nobody serves.
   */
  fetchMedia: boolean;
  /** What was fetched, by URL: the content type and the bytes. */
  fetched: Map<string, { type: string; bytes: Buffer }>;
  /** Resumable video uploads (upload_phase start → transfer… → finish), by upload_session_id. */
  videoUploads: Map<string, FakeVideoUpload>;
  /** The chunk size the start and transfer phases ask for (Facebook chooses it; the fake's default is 1 MiB). */
  videoChunkBytes: number;
  /** What the Login dialog does when the person approves: a code for this redirect URI. */
  approve(authUrl: string): { code: string; state: string };
  /** Revokes every token of the user (a password change): Page and user tokens stop working. */
  revokeAll(): void;
  close(): Promise<void>;
}

const fbtrace = () => randomBytes(8).toString('base64url');

export async function startFakeFacebook(
  opts: { app?: { id: string; secret: string }; pages?: FakePage[] } = {},
): Promise<FakeFacebook> {
  const app = opts.app ?? { id: 'fb-app-1', secret: 'fb-secret-1' };
  const codes = new Map<string, { redirectUri: string; scope: string }>();
  const shortTokens = new Set<string>();
  const userTokens = new Set<string>();
  /** Page token → page id. */
  const pageTokens = new Map<string, string>();
  let seq = 100;
  const nextId = () => String(++seq);

  const fake: FakeFacebook = {
    server: undefined as unknown as Server,
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
      codes.set(code, {
        redirectUri: u.searchParams.get('redirect_uri') ?? '',
        scope: u.searchParams.get('scope') ?? '',
      });
      return { code, state: u.searchParams.get('state') ?? '' };
    },
    revokeAll() {
      userTokens.clear();
      pageTokens.clear();
      shortTokens.clear();
    },
    close: () => new Promise((resolve) => fake.server.close(() => resolve())),
  };

  /** Facebook's crawler fetching a media URL: the file, if it answers 200 with the kind of file expected. */
  async function fetchFile(url: string, kind: 'image' | 'video'): Promise<boolean> {
    try {
      const res = await fetch(url);
      const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      const bytes = Buffer.from(await res.arrayBuffer());
      if (!res.ok || !type.startsWith(`${kind}/`)) return false;
      fake.fetched.set(url, { type, bytes });
      return true;
    } catch {
      return false;
    }
  }

  fake.server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBytes = Buffer.concat(chunks);
    const raw = rawBytes.toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const fail = (
      status: number,
      code: number,
      message: string,
      extra: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ) =>
      send(
        status,
        {
          error: {
            message,
            type: code === 190 ? 'OAuthException' : 'OAuthException',
            code,
            fbtrace_id: fbtrace(),
            ...extra,
          },
        },
        headers,
      );
    if (!url.pathname.startsWith(`/${FB_VERSION}/`)) {
      return fail(400, 2635, `(#2635) You are calling a deprecated or unknown version of the Graph API.`);
    }
    const path = url.pathname.slice(FB_VERSION.length + 1);
    let params: Record<string, string> = Object.fromEntries(url.searchParams);
    /** The file of a multipart request (a resumable upload's video_file_chunk). */
    let file: Buffer | null = null;
    if (req.method === 'POST') {
      const type = String(req.headers['content-type'] ?? '');
      if (type.startsWith('multipart/form-data')) {
        const form = await new Response(rawBytes, { headers: { 'content-type': type } }).formData();
        for (const [name, value] of form) {
          if (typeof value === 'string') params[name] = value;
          else if (name === 'video_file_chunk') file = Buffer.from(await value.arrayBuffer());
        }
      } else {
        if (raw && !type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('application/json')) {
          return fail(400, 100, '(#100) Unsupported content type');
        }
        const body = type.startsWith('application/json')
          ? (JSON.parse(raw || '{}') as Record<string, string>)
          : Object.fromEntries(new URLSearchParams(raw));
        params = { ...params, ...body };
      }
    }
    fake.calls.push({ method: req.method ?? 'GET', path, params });

    /**
     * POST /{page}/videos with upload_phase (Graph's resumable upload, on graph-video.facebook.com): start (file_size)
     * opens a session and names the first byte range; each transfer carries exactly that range as video_file_chunk
     * at start_offset and gets the next; finish (once every byte is in) publishes the video with its description.
     */
    const resumable = (
      pageId: string,
      phase: string,
      made: (post: Omit<FakeFbPost, 'createdTime' | 'pageId' | 'params'>, reply: unknown) => void,
    ) => {
      const uploadError = (message: string, subcode: number, extra: Record<string, unknown> = {}) =>
        fail(400, 6000, `(#6000) ${message}`, { error_subcode: subcode, ...extra });
      const rangeFor = (offset: number, size: number) => ({
        start_offset: String(offset),
        end_offset: String(Math.min(size, offset + fake.videoChunkBytes)),
      });
      if (phase === 'start') {
        const size = Number(params.file_size);
        if (!Number.isInteger(size) || size <= 0) {
          return fail(400, 100, '(#100) Param file_size must be a positive integer');
        }
        const upload: FakeVideoUpload = {
          sessionId: nextId(),
          videoId: nextId(),
          pageId,
          fileSize: size,
          offset: 0,
          chunks: [],
          phases: [{ phase, startOffset: null, bytes: 0 }],
          finished: false,
          bytes: null,
        };
        fake.videoUploads.set(upload.sessionId, upload);
        return send(200, { video_id: upload.videoId, upload_session_id: upload.sessionId, ...rangeFor(0, size) });
      }
      const upload = fake.videoUploads.get(params.upload_session_id ?? '');
      if (!upload || upload.pageId !== pageId || upload.finished) {
        return fail(400, 100, '(#100) Invalid upload_session_id');
      }
      if (phase === 'transfer') {
        const start = Number(params.start_offset);
        const expected = Math.min(upload.fileSize, upload.offset + fake.videoChunkBytes) - upload.offset;
        upload.phases.push({ phase, startOffset: start, bytes: file?.length ?? 0 });
        if (!file) return fail(400, 100, '(#100) The parameter video_file_chunk is required');
        if (start !== upload.offset || file.length !== expected) {
          return uploadError('Your video upload timed out before it could be completed.', 1363037, {
            error_data: rangeFor(upload.offset, upload.fileSize),
          });
        }
        upload.chunks.push(file);
        upload.offset += file.length;
        const next = rangeFor(upload.offset, upload.fileSize);
        return send(200, next);
      }
      if (phase === 'finish') {
        upload.phases.push({ phase, startOffset: null, bytes: 0 });
        if (upload.offset !== upload.fileSize) {
          return uploadError('The video file is incomplete: not every byte was transferred.', 1363019);
        }
        const bytes = Buffer.concat(upload.chunks);
        if (bytes.subarray(4, 8).toString('latin1') !== 'ftyp') {
          return fail(400, 352, "(#352) The video file you selected is in a format that we don't support.");
        }
        upload.finished = true;
        upload.bytes = bytes;
        return made({ id: upload.videoId, kind: 'video', message: params.description ?? '' }, { success: true });
      }
      return fail(400, 100, `(#100) Invalid upload_phase ${phase}`);
    };

    // ---- Facebook Login: code exchange and long-lived token ----
    if (req.method === 'GET' && path === '/oauth/access_token') {
      if (params.client_id !== app.id) return fail(400, 101, 'Error validating application. Invalid application ID.');
      if (params.client_secret !== app.secret) return fail(400, 1, 'Error validating client secret.');
      if (params.grant_type === 'fb_exchange_token') {
        if (!shortTokens.has(params.fb_exchange_token ?? '') && !userTokens.has(params.fb_exchange_token ?? '')) {
          return fail(400, 190, 'Invalid OAuth access token - Cannot parse access token');
        }
        const token = `EAAL${randomBytes(24).toString('hex')}`;
        userTokens.add(token);
        return send(200, { access_token: token, token_type: 'bearer', expires_in: 5_183_944 });
      }
      const pending = codes.get(params.code ?? '');
      if (!pending) {
        return fail(400, 100, 'Invalid verification code format.', { error_subcode: 36007 });
      }
      codes.delete(params.code ?? '');
      if (pending.redirectUri !== params.redirect_uri) {
        return fail(400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical.', {
          error_subcode: 36008,
        });
      }
      const token = `EAAS${randomBytes(24).toString('hex')}`;
      shortTokens.add(token);
      return send(200, { access_token: token, token_type: 'bearer', expires_in: 5_183 });
    }

    const header = String(req.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : (params.access_token ?? '');
    if (!token) return fail(400, 104, 'An access token is required to request this resource.');
    const asUser = userTokens.has(token) || shortTokens.has(token);
    const asPage = pageTokens.get(token);
    if (!asUser && !asPage) {
      return fail(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const fields = (params.fields ?? '').split(',').filter(Boolean);
    const pick = (all: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || fields.includes(k)));

    if (req.method === 'GET' && path === '/me/accounts') {
      if (!asUser) return fail(400, 100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)');
      const data = fake.pages.map((p) => {
        // A Page token per page and user token, as Graph returns a fresh one per call.
        const pageToken = `EAAP${randomBytes(20).toString('hex')}`;
        pageTokens.set(pageToken, p.id);
        return pick({
          id: p.id,
          name: p.name,
          access_token: pageToken,
          category: 'Brand',
          followers_count: p.followers,
          fan_count: p.fans,
          tasks: p.tasks,
        });
      });
      return send(200, { data, paging: { cursors: { before: 'b', after: 'a' } } });
    }
    if (req.method === 'GET' && path === '/me') {
      const page = fake.pages.find((p) => p.id === asPage);
      if (!page) return send(200, { id: '9999', name: 'Gen Person' });
      return send(200, pick({ id: page.id, name: page.name, followers_count: page.followers, fan_count: page.fans }));
    }

    const pageRoute = /^\/(\d+)\/(photos|feed|videos|published_posts)$/.exec(path);
    if (pageRoute) {
      const [, pageId, edge] = pageRoute as unknown as [string, string, string];
      const page = fake.pages.find((p) => p.id === pageId);
      if (!page)
        return fail(400, 100, `(#100) Unsupported request: object with ID '${pageId}' does not exist`, {
          error_subcode: 33,
        });
      if (asPage !== pageId) {
        return fail(403, 200, "(#200) The user hasn't authorized the application to perform this action");
      }
      if (req.method === 'GET') {
        const since = Number(params.since ?? 0) * 1000;
        const kind = edge === 'videos' ? 'video' : null;
        const data = fake.posts
          .filter((p) => p.pageId === pageId && p.createdTime >= since && (kind ? p.kind === kind : p.kind !== 'video'))
          .reverse()
          .map((p) =>
            pick({
              id: p.id,
              message: p.kind === 'video' ? undefined : p.message,
              description: p.kind === 'video' ? p.message : undefined,
              created_time: new Date(p.createdTime).toISOString().replace('.000Z', '+0000'),
            }),
          );
        return send(200, { data });
      }
      if (edge === 'published_posts') return fail(400, 100, '(#100) Unsupported post request');
      // A resumable upload's start and transfer phases make nothing: the faults wait for the call that publishes.
      const phase = edge === 'videos' ? params.upload_phase : undefined;
      const fault = phase === 'start' || phase === 'transfer' ? undefined : fake.faults.shift();
      if (fault === 'throttle') {
        return fail(
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
        return fail(500, 2, 'An unexpected error has occurred. Please retry your request later.', {
          is_transient: true,
        });
      }
      const made = (post: Omit<FakeFbPost, 'createdTime' | 'pageId' | 'params'>, reply: unknown) => {
        fake.posts.push({ ...post, pageId, params, createdTime: Date.now() });
        if (fault === 'lost-reply') {
          return fail(500, 2, 'An unexpected error has occurred. Please retry your request later.', {
            is_transient: true,
          });
        }
        return send(200, reply);
      };
      if (edge === 'photos') {
        if (!params.url && !params.source) return fail(400, 324, '(#324) Requires upload file');
        if (params.url && !/^https?:\/\//.test(params.url))
          return fail(400, 100, '(#100) url should represent a valid URL');
        if (fake.fetchMedia && params.url && !(await fetchFile(params.url, 'image'))) {
          return fail(400, 324, '(#324) Missing or invalid image file');
        }
        const photoId = nextId();
        if (params.published === 'false') {
          fake.unpublished.set(photoId, { pageId, url: params.url ?? '' });
          return send(200, { id: photoId });
        }
        const postId = `${pageId}_${nextId()}`;
        return made(
          { id: postId, kind: 'photo', message: params.caption ?? params.message ?? '' },
          { id: photoId, post_id: postId },
        );
      }
      if (edge === 'videos' && phase) return resumable(pageId, phase, made);
      if (edge === 'videos') {
        if (!params.file_url && !params.source && !params.upload_phase) {
          return fail(400, 100, '(#100) Invalid parameter: the video has no file_url or source', {
            error_subcode: 1363020,
          });
        }
        if (params.file_url && !/^https?:\/\//.test(params.file_url)) {
          return fail(400, 100, '(#100) file_url should represent a valid URL');
        }
        if (fake.fetchMedia && params.file_url && !(await fetchFile(params.file_url, 'video'))) {
          return fail(400, 389, 'Unable to fetch video file from URL.');
        }
        const videoId = nextId();
        return made({ id: videoId, kind: 'video', message: params.description ?? '' }, { id: videoId });
      }
      // feed
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
            400,
            100,
            `(#100) param attached_media[media_fbid] must be a valid unpublished photo of this Page`,
          );
        }
      }
      if (!params.message && !params.link && attached.length === 0) {
        return fail(400, 100, '(#100) Missing message or attachment');
      }
      if (params.link && !/^https?:\/\//.test(params.link)) return fail(400, 100, '(#100) The link is not a valid URL');
      for (const id of attached) fake.unpublished.delete(id);
      const postId = `${pageId}_${nextId()}`;
      return made({ id: postId, kind: 'feed', message: params.message ?? '' }, { id: postId });
    }

    // ---- A post's (or video's) fields and insights ----
    const objectRoute = /^\/([\d_]+)(?:\/(insights|video_insights))?$/.exec(path);
    if (req.method === 'GET' && objectRoute) {
      const [, id, edge] = objectRoute as unknown as [string, string, string | undefined];
      const post = fake.posts.find((p) => p.id === id);
      if (!post) {
        return fail(
          400,
          100,
          `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          { error_subcode: 33, type: 'GraphMethodException' },
        );
      }
      if (asPage !== post.pageId)
        return fail(403, 10, '(#10) This endpoint requires the pages_read_engagement permission');
      const f = fake.figures.get(id) ?? { reactions: 0, comments: 0, shares: 0, views: 0 };
      if (edge) {
        const wanted = edge === 'insights' ? 'post_media_view' : 'total_video_views';
        if ((edge === 'insights') === (post.kind === 'video')) return fail(400, 100, '(#100) Unsupported request');
        const metrics = (params.metric ?? '').split(',').filter(Boolean);
        if (metrics.length === 0) {
          return fail(400, 3001, 'No metric was specified to be fetched.', { error_subcode: 1504028 });
        }
        if (metrics.some((m) => m !== wanted)) {
          return fail(400, 100, '(#100) The value must be a valid insights metric');
        }
        return send(200, {
          data: [
            {
              name: wanted,
              period: 'lifetime',
              values: [{ value: f.views }],
              title: 'Views',
              description: 'Lifetime: the number of times the post was seen.',
              id: `${id}/${edge}/${wanted}/lifetime`,
            },
          ],
          paging: {},
        });
      }
      const out: Record<string, unknown> = { id };
      for (const field of fields) {
        const name = field.split('.')[0];
        if (name === 'reactions' || name === 'comments') {
          const total = name === 'reactions' ? f.reactions : f.comments;
          out[name] = {
            data: [],
            summary: field.includes('summary(total_count)') ? { total_count: total } : undefined,
          };
        } else if (name === 'shares') {
          if (post.kind === 'video')
            return fail(400, 100, '(#100) Tried accessing nonexisting field (shares) on node type (Video)');
          // Graph leaves `shares` out of a post nobody shared.
          if (f.shares > 0) out.shares = { count: f.shares };
        } else if (name !== 'id') {
          out[name] = null;
        }
      }
      return send(200, out);
    }
    return fail(400, 100, `(#100) Unknown path components: ${path}`);
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}
