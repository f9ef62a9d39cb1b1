import type { StorageClass } from '../../../common/api/media.constants.ts';
import type { Base64ToUrlBody, RemoteUploadReply, TempUploadBody } from '../../../common/api/remote-upload.ts';
import { REMOTE_UPLOAD_MIME_TYPES } from '../../../common/api/uploads.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { AppError, tooLarge } from '../../platform/errors.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { assertCleanMedia } from '../../platform/media/integrity.ts';
import { storageLimitBytes } from '../../platform/media/quota.ts';
import { signMediaUrl } from '../../platform/media/signing.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { parseHttpUrl, type SafeFetchOptions, safeFetch } from '../../platform/net/safe-fetch.ts';
import { largestUploadLimitMb, MB, type Sniffed, sniffBuffer, uploadLimitMb } from './sniff.ts';

const unsupportedMime = () => new AppError(400, 'unsupported_type', MESSAGES.remote.unsupportedMime);
const invalidBase64 = () => new AppError(400, 'invalid_base64', MESSAGES.upload.invalidBase64);

/** Overrides of safeFetch's address checks; only tests pass them. */
export type FetchPolicy = Pick<SafeFetchOptions, 'isAllowedAddress' | 'resolve'>;

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The payload of a `data:…;base64,` URI. Null when the string is not a data URI. */
function dataUriPayload(value: string): string | null {
  if (!/^data:/i.test(value)) return null;
  const comma = value.indexOf(',');
  if (comma < 0 || !/;base64$/i.test(value.slice(5, comma))) throw invalidBase64();
  return value.slice(comma + 1);
}

/**
 * Decodes base64 (standard or URL-safe, whitespace ignored), refusing anything that decodes to more
 * than `maxBytes` before decoding it (413 with `tooLargeError`).
 */
function decodeBase64(payload: string, maxBytes: number, tooLargeError: () => AppError): Buffer {
  const compact = /\s/.test(payload) ? payload.replace(/\s+/g, '') : payload;
  if (compact.length === 0 || !BASE64.test(compact)) throw invalidBase64();
  if (Math.floor((compact.length * 3) / 4) - 2 > maxBytes) throw tooLargeError();
  const data = Buffer.from(compact, 'base64');
  if (data.length === 0) throw invalidBase64();
  if (data.length > maxBytes) throw tooLargeError();
  return data;
}

/**
 * The sniffed type, which must be one of REMOTE_UPLOAD_MIME_TYPES (else 400 'Unsupported MIME type'),
 * and the bytes to store (a phone's trailer after a JPEG left out).
 */
async function checkAllowed(
  data: Buffer,
): Promise<{ media: Buffer; sniffed: Sniffed & { kind: NonNullable<Sniffed['kind']> } }> {
  const sniffed = await sniffBuffer(data);
  if (!sniffed?.kind || !(REMOTE_UPLOAD_MIME_TYPES as readonly string[]).includes(sniffed.mime))
    throw unsupportedMime();
  const kept = await assertCleanMedia(data, sniffed);
  return { media: data.subarray(0, kept), sniffed: { ...sniffed, kind: sniffed.kind } };
}

async function store(
  ctx: AppContext,
  userId: string,
  data: Buffer,
  sniffed: Sniffed,
  storageClass: StorageClass,
  source: string,
): Promise<RemoteUploadReply> {
  const stored = await new MediaStore(ctx).put({
    body: data,
    contentType: sniffed.mime,
    ext: sniffed.ext,
    storageClass,
    userId,
    source,
    quotaBytes: storageLimitBytes(ctx.config),
  });
  return {
    success: true,
    url: stored.url,
    signed_url: `${ctx.config.publicUrl}${signMediaUrl(ctx.config, stored.url, undefined, ctx.clock.now())}`,
    mime_type: stored.contentType,
    size: stored.size,
    expires_at: stored.expiresAt ? stored.expiresAt.toISOString() : null,
  };
}

/** JSON body limit of the base64 calls: the largest file limit in base64, plus room for the rest. */
export function base64BodyLimit(ctx: AppContext): number {
  return BODY_LIMITS.base64File(largestUploadLimitMb(ctx.config) * MB);
}

/**
 * POST /api/upload/base64-to-url: decodes a data URI or bare base64, checks the bytes (an accepted
 * image, video or audio type within its limit: 'File size exceeds {n}MB limit') and stores them as a
 * temporary object (one day) when `forRunway`, else as a permanent upload.
 */
export async function base64ToUrl(ctx: AppContext, userId: string, body: Base64ToUrlBody): Promise<RemoteUploadReply> {
  const raw = body.base64Data.trim();
  const payload = dataUriPayload(raw) ?? raw;
  const largest = largestUploadLimitMb(ctx.config);
  const data = decodeBase64(payload, largest * MB, () => tooLarge(MESSAGES.upload.tooLarge(largest)));
  const { media, sniffed } = await checkAllowed(data);
  const limitMb = uploadLimitMb(ctx.config, sniffed.kind);
  if (data.length > limitMb * MB) throw tooLarge(MESSAGES.upload.tooLarge(limitMb));
  return store(ctx, userId, media, sniffed, body.forRunway ? 'temporary' : 'upload', 'upload');
}

/**
 * Bytes of a `data:` URL or a public http(s) URL (fetched with safeFetch: private addresses
 * refused, at most `maxBytes`). Anything else is 400 'Invalid URL format'.
 */
async function fetchSource(value: string, maxBytes: number, policy: FetchPolicy): Promise<Buffer> {
  const payload = dataUriPayload(value);
  if (payload !== null) {
    return decodeBase64(payload, maxBytes, () => new AppError(413, 'too_large', MESSAGES.remote.tooLarge));
  }
  const url = parseHttpUrl(value);
  const { data } = await safeFetch(url.href, { maxBytes, ...policy });
  return data;
}

/**
 * POST /api/temp-upload: `videoData` is a data URL or a public http(s) URL. The bytes must be one
 * of REMOTE_UPLOAD_MIME_TYPES within its limit ('Remote file too large'); a declared contentType
 * must at least be image/*, video/* or audio/*. Stored as a temporary object (expires in a day).
 */
export async function tempUpload(
  ctx: AppContext,
  userId: string,
  body: TempUploadBody,
  policy: FetchPolicy = {},
): Promise<RemoteUploadReply> {
  if (body.contentType && !/^(image|video|audio)\//i.test(body.contentType.trim())) throw unsupportedMime();
  const largest = largestUploadLimitMb(ctx.config);
  const data = await fetchSource(body.videoData.trim(), largest * MB, policy);
  const { media, sniffed } = await checkAllowed(data);
  if (data.length > uploadLimitMb(ctx.config, sniffed.kind) * MB) {
    throw new AppError(413, 'too_large', MESSAGES.remote.tooLarge);
  }
  return store(ctx, userId, media, sniffed, 'temporary', 'temp-upload');
}
