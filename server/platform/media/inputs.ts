import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { MEDIA_URL_PREFIX, UPLOAD_SNIFFED_TYPES } from '../../../common/api/media.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import { AppError, badRequest, notFound, tooLarge } from '../errors.ts';
import { isPublicAddress } from '../net/address.ts';
import { parseHttpUrl, safeFetch } from '../net/safe-fetch.ts';
import { isValidKey } from '../storage/keys.ts';
import type { ObjectStorage } from '../storage/types.ts';
import { assertCleanMedia } from './integrity.ts';
import { storageLimitBytes } from './quota.ts';
import { type MediaObjectRow, MediaStore, mediaUrl } from './store.ts';

// Media handed to a generation (reference images, first/last frames, driving videos) arrives as one
// of three kinds of reference: one of the user's own media URLs, a `data:` URI, or a public http(s)
// URL. This module turns each into bytes, checking ownership, size and type (by the bytes).

export type InputKind = 'image' | 'video' | 'audio';

export interface MediaInputOptions {
  /** Largest accepted input in bytes. */
  maxBytes: number;
  /**
   * Largest accepted object among the user's own stored media (default `maxBytes`): media already in
   * storage passed the upload ceilings, so a call may take bigger files by reference than inline.
   */
  maxStoredBytes?: number;
  /** Which kinds of media are accepted (checked on the sniffed bytes or the stored content type). */
  allowed: readonly InputKind[];
  /** Narrower than `allowed` where a spec names the formats (Magic Selector: png, jpg, jpeg, webp). */
  formats?: MediaFormats;
  signal?: AbortSignal;
  /** For public URLs; default 30 s. */
  timeoutMs?: number;
}

export interface MediaFormats {
  mimeTypes: readonly string[];
  /** The message a refused format answers with (400 unsupported_type). */
  message: string;
}

type AcceptedMedia = Pick<MediaInputOptions, 'allowed' | 'formats'>;

export interface MediaInput {
  data: Buffer;
  mimeType: string;
}

interface InputDeps {
  config: Config;
  db: Db;
  storage: ObjectStorage;
  clock: Clock;
}

export type ParsedMediaRef =
  | { kind: 'stored'; key: string }
  | { kind: 'data'; mimeType: string; base64: string }
  | { kind: 'remote'; url: string };

const MEDIA_PREFIXES = Object.values(MEDIA_URL_PREFIX);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
/** Browser-friendly names for the MIME types file-type reports (as uploads store them). */
const MIME_ALIASES: Record<string, string> = {
  'video/vnd.avi': 'video/x-msvideo',
  'audio/x-m4a': 'audio/mp4',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-wav': 'audio/wav',
};
const DEFAULT_REMOTE_TIMEOUT_MS = 30_000;

function keyFromPath(pathname: string): string | null {
  const prefix = MEDIA_PREFIXES.find((p) => pathname.startsWith(p));
  if (!prefix) return null;
  let key: string;
  try {
    key = decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    return null;
  }
  return isValidKey(key) ? key : null;
}

/**
 * Classifies a media reference. Own media: a path under one of the media prefixes
 * (`/api/images/<key>`, query such as a signature ignored), also absolute on PUBLIC_URL's origin or
 * on a loopback host. Anything else must be a base64 `data:` URI or an http(s) URL (400 'Invalid URL
 * format' otherwise).
 */
export function parseMediaRef(config: Pick<Config, 'publicUrl'>, ref: string): ParsedMediaRef {
  const value = ref.trim();
  if (value.startsWith('data:')) {
    const comma = value.indexOf(',');
    const header = comma > 0 ? value.slice(5, comma).toLowerCase() : '';
    const params = header.split(';');
    if (comma < 0 || !params.includes('base64')) throw badRequest(MESSAGES.remote.invalidUrl);
    return { kind: 'data', mimeType: params[0] ?? '', base64: value.slice(comma + 1) };
  }
  if (value.startsWith('/')) {
    if (value.startsWith('//')) throw badRequest(MESSAGES.remote.invalidUrl);
    const key = keyFromPath(value.split(/[?#]/)[0] ?? '');
    if (!key) throw badRequest(MESSAGES.inputs.notAMediaUrl);
    return { kind: 'stored', key };
  }
  const url = parseHttpUrl(value);
  const ownOrigin = new URL(config.publicUrl).origin;
  if (url.origin === ownOrigin || LOOPBACK_HOSTS.has(url.hostname)) {
    const key = keyFromPath(url.pathname);
    if (key) return { kind: 'stored', key };
    if (url.origin === ownOrigin) throw badRequest(MESSAGES.inputs.notAMediaUrl);
  }
  return { kind: 'remote', url: url.toString() };
}

/** Standard base64 (padding optional): a media path never is, its key has a dotted extension. */
const BARE_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A reference as the canvas clients send images: a `data:` URI or an http(s) URL as it is; a string
 * matching one of the studio's media paths (a media prefix and a valid key) as that path; bare base64
 * (the NanoBana clients' form, a JPEG's starting with '/9j/') as a data URI of the given MIME type
 * (the type is sniffed from the bytes later). Anything else is left for parseMediaRef to refuse.
 */
export function inlineOrMediaRef(value: string, mimeType?: string): string {
  const v = value.trim();
  if (v.startsWith('data:') || /^https?:\/\//i.test(v)) return v;
  if (v.startsWith('/') && keyFromPath(v.split(/[?#]/)[0] ?? '') !== null) return v;
  const compact = v.replace(/\s+/g, '');
  if (mimeType || BARE_BASE64.test(compact)) return `data:${mimeType || 'application/octet-stream'};base64,${compact}`;
  return v;
}

/** The stored key behind one of the studio's own media URLs, or null for anything else. */
export function storedKeyOf(config: Pick<Config, 'publicUrl'>, ref: string): string | null {
  try {
    const parsed = parseMediaRef(config, ref);
    return parsed.kind === 'stored' ? parsed.key : null;
  } catch {
    return null;
  }
}

function kindOfMime(mimeType: string): InputKind | null {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  return null;
}

function assertAllowed(mimeType: string, { allowed, formats }: AcceptedMedia): void {
  const kind = kindOfMime(mimeType);
  if (!kind || !allowed.includes(kind)) throw new AppError(400, 'unsupported_type', MESSAGES.remote.unsupportedMime);
  if (formats && !formats.mimeTypes.includes(mimeType)) throw new AppError(400, 'unsupported_type', formats.message);
}

const megabytes = (bytes: number) => Math.max(1, Math.floor(bytes / (1024 * 1024)));

/**
 * The stored object behind a key, if the user may use it: their own, or public. Unknown, expired or
 * another user's objects answer 404, the same as the media routes.
 */
export async function ownedMediaObject(
  deps: Pick<InputDeps, 'db' | 'storage' | 'clock'>,
  userId: string,
  key: string,
): Promise<MediaObjectRow> {
  const row = await new MediaStore(deps).get(key);
  if (!row || !(row.userId === userId || row.isPublic)) throw notFound();
  if (row.expiresAt && row.expiresAt.getTime() < deps.clock.now().getTime()) throw notFound();
  return row;
}

/**
 * Sniffs the bytes (never the name or a claimed type): an accepted kind, checked by assertCleanMedia.
 * Answers the media (a phone's trailer after a JPEG left out) and its MIME type.
 */
async function sniff(data: Buffer, accepted: AcceptedMedia): Promise<MediaInput> {
  const type = await fileTypeFromBuffer(data);
  if (!type || !UPLOAD_SNIFFED_TYPES[type.ext]) {
    throw new AppError(400, 'unsupported_type', MESSAGES.remote.unsupportedMime);
  }
  const mimeType = MIME_ALIASES[type.mime] ?? type.mime;
  assertAllowed(mimeType, accepted);
  const kept = await assertCleanMedia(data, { ext: type.ext, kind: UPLOAD_SNIFFED_TYPES[type.ext] });
  return { data: data.subarray(0, kept), mimeType };
}

function decodeDataUri(ref: Extract<ParsedMediaRef, { kind: 'data' }>, maxBytes: number): Buffer {
  const payload = ref.base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload)) throw badRequest(MESSAGES.remote.invalidUrl);
  if (Math.floor((payload.length * 3) / 4) > maxBytes + 2)
    throw tooLarge(MESSAGES.upload.tooLarge(megabytes(maxBytes)));
  const data = Buffer.from(payload, payload.includes('-') || payload.includes('_') ? 'base64url' : 'base64');
  if (data.length === 0) throw badRequest(MESSAGES.remote.invalidUrl);
  if (data.length > maxBytes) throw tooLarge(MESSAGES.upload.tooLarge(megabytes(maxBytes)));
  return data;
}

async function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      stream.destroy();
      throw tooLarge(MESSAGES.upload.tooLarge(megabytes(maxBytes)));
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The bytes and MIME type of a media reference. Own media is read from storage after checking its
 * `media_objects` owner (another user's answers 404); `data:` URIs are decoded and sniffed; public
 * http(s) URLs are fetched with safeFetch (private addresses refused, size capped) and sniffed.
 * Throws AppErrors (400 unsupported type / invalid URL, 404, 413), which fail a task at once.
 */
export async function resolveMediaInput(
  deps: InputDeps,
  userId: string,
  ref: string,
  options: MediaInputOptions,
): Promise<MediaInput> {
  const parsed = parseMediaRef(deps.config, ref);
  if (parsed.kind === 'stored') {
    const row = await ownedMediaObject(deps, userId, parsed.key);
    assertAllowed(row.contentType, options);
    const limit = options.maxStoredBytes ?? options.maxBytes;
    if (row.size > limit) throw tooLarge(MESSAGES.upload.tooLarge(megabytes(limit)));
    const data = await readAll(await deps.storage.read(parsed.key), limit);
    return { data, mimeType: row.contentType };
  }
  if (parsed.kind === 'data') return sniff(decodeDataUri(parsed, options.maxBytes), options);
  const fetched = await safeFetch(parsed.url, {
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS,
    signal: options.signal,
  }).catch((error: unknown) => {
    throw asInputFetchError(error);
  });
  return sniff(fetched.data, options);
}

/**
 * A media input the user named by URL that cannot be fetched (unknown host, refused, error status,
 * timeout, redirect loop) is the request's fault, not the studio's: 422 'Failed to fetch media from
 * URL' (code fetch_failed, kept by failed tasks), never a retry or a generic 500. Oversize stays 413.
 */
function asInputFetchError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.status === 413) return new AppError(413, 'too_large', error.message);
  if (error.status >= 500) return new AppError(422, 'fetch_failed', MESSAGES.remote.fetchFailed);
  return error;
}

const EXT_OF_MIME: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-msvideo': 'avi',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/mp4': 'm4a',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
};

/** File extension for a MIME type the studio stores (`bin` when unknown). */
export function extensionOf(mimeType: string): string {
  return EXT_OF_MIME[mimeType] ?? 'bin';
}

export interface PreparedRef {
  /** What to hand to the task: a media URL of the studio, or the public URL as given. */
  ref: string;
  /** Keys stored while preparing (temporary `reference` objects), to remove if the request is refused. */
  storedKeys: string[];
}

/**
 * Checks a reference in the request, before any credit is reserved, so that tasks carry small
 * inputs: own media is checked for owner and kind (and given back as its canonical URL); a `data:`
 * URI is decoded, sniffed and stored as a temporary `reference` object (its URL replaces it); a
 * public URL is only checked for form here (it is fetched by the task).
 */
export async function prepareMediaRef(
  deps: InputDeps,
  userId: string,
  ref: string,
  options: Pick<MediaInputOptions, 'maxBytes' | 'maxStoredBytes' | 'allowed' | 'formats'>,
): Promise<PreparedRef> {
  const parsed = parseMediaRef(deps.config, ref);
  if (parsed.kind === 'stored') {
    const row = await ownedMediaObject(deps, userId, parsed.key);
    assertAllowed(row.contentType, options);
    const limit = options.maxStoredBytes ?? options.maxBytes;
    if (row.size > limit) throw tooLarge(MESSAGES.upload.tooLarge(megabytes(limit)));
    return { ref: mediaUrl(row.key, row.contentType, row.storageClass), storedKeys: [] };
  }
  if (parsed.kind === 'data') {
    const { data, mimeType } = await sniff(decodeDataUri(parsed, options.maxBytes), options);
    const stored = await new MediaStore(deps).put({
      body: data,
      contentType: mimeType,
      ext: extensionOf(mimeType),
      storageClass: 'reference',
      userId,
      source: 'reference',
      quotaBytes: storageLimitBytes(deps.config),
    });
    return { ref: stored.url, storedKeys: [stored.key] };
  }
  // Host names are resolved and vetted when the task fetches; a literal private address is refused now.
  const host = new URL(parsed.url).hostname;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0 ? !isPublicAddress(literal) : host === 'localhost' || host.endsWith('.localhost')) {
    throw new AppError(400, 'url_not_allowed', MESSAGES.remote.privateAddress);
  }
  return { ref: parsed.url, storedKeys: [] };
}
