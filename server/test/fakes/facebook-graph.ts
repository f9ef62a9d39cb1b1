import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { formFields } from './fake-http.ts';

// What the Facebook fake's handlers share: what it keeps, the Graph call a handler gets, Meta's replies and error
// body, how Graph reads a call's query and body, and Facebook's crawler fetching a media URL.

export interface FakePage {
  id: string;
  name: string;
  followers: number;
  fans: number;
  tasks: string[];
}

export interface FakeFbPost {
  id: string;
  pageId: string;
  kind: 'photo' | 'feed' | 'video';
  /** The form fields the request carried. */
  params: Record<string, string>;
  message: string;
  createdTime: number;
}

export interface FakeVideoUpload {
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

export { sendMetaError as fail, sendMetaJson as send } from './meta-replies.ts';

/** The fake and the Login state only its handlers see. */
export interface State {
  fake: FakeFacebook;
  /** Login codes → the redirect URI and scope they were issued for. */
  codes: Map<string, { redirectUri: string; scope: string }>;
  shortTokens: Set<string>;
  userTokens: Set<string>;
  /** Page token → page id. */
  pageTokens: Map<string, string>;
  seq: number;
}

export const nextId = (state: State) => String(++state.seq);

export interface FbRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path after the version. */
  path: string;
  /** The query and form (or JSON, or multipart) fields. */
  params: Record<string, string>;
  /** The file of a multipart request (a resumable upload's video_file_chunk). */
  file: Buffer | null;
}

/** A call with a valid user or Page token. */
export interface GraphCall extends FbRequest {
  asUser: boolean;
  /** The page of a Page token. */
  asPage: string | undefined;
  fields: string[];
}

export type Handler = (state: State, r: GraphCall, params: string[]) => unknown;

/** The post (or video) a publishing call made, and the reply it gets (or the lost-reply fault). */
export type Made = (post: Omit<FakeFbPost, 'createdTime' | 'pageId' | 'params'>, reply: unknown) => void;

/** The fields asked for among `all` (the id always). */
export const pick = (r: GraphCall, all: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || r.fields.includes(k)));

/** Facebook's crawler fetching a media URL: the file, if it answers 200 with the kind of file expected. */
export async function fetchFile(fake: FakeFacebook, url: string, kind: 'image' | 'video'): Promise<boolean> {
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

/** The query with a POST's fields, and its file; null for a body Graph does not read. */
export async function paramsOf(
  req: IncomingMessage,
  url: URL,
  rawBytes: Buffer<ArrayBuffer>,
): Promise<{ params: Record<string, string>; file: Buffer | null } | null> {
  let params: Record<string, string> = Object.fromEntries(url.searchParams);
  let file: Buffer | null = null;
  if (req.method !== 'POST') return { params, file };
  const raw = rawBytes.toString('utf8');
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(rawBytes, { headers: { 'content-type': type } }).formData();
    for (const [name, value] of form) {
      if (typeof value === 'string') params[name] = value;
      else if (name === 'video_file_chunk') file = Buffer.from(await value.arrayBuffer());
    }
    return { params, file };
  }
  if (raw && !type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('application/json')) {
    return null;
  }
  const body = type.startsWith('application/json')
    ? (JSON.parse(raw || '{}') as Record<string, string>)
    : formFields(raw);
  params = { ...params, ...body };
  return { params, file };
}
