// The Gemini API (generativelanguage.googleapis.com) calls the three Gemini engines share: the URL and
// key header, and how Google's error bodies map onto the product's error kinds.

import type { MediaBuffer } from '../types.ts';
import {
  VendorBalanceError,
  VendorError,
  type VendorRequest,
  type VendorResponse,
  vendorContentFiltered,
  vendorJson,
} from '../vendor/http.ts';

export const VENDOR = 'Gemini';

export interface GeminiSettings {
  apiKey: string;
  /** Origin (or origin + path prefix) of the API; `/v1beta/...` is appended. */
  base: string;
}

/** A `generateContent` part: text, or inline data (camelCase, as the API answers). */
export type Part = { text: string } | { inlineData: { mimeType: string; data: string } };

interface Candidate {
  content?: {
    parts?: Array<Partial<{ text: string; inlineData: { mimeType: string; data: string }; thought: boolean }>>;
  };
  finishReason?: string;
  finishMessage?: string;
}

export interface GenerateContentReply {
  candidates?: Candidate[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: Record<string, unknown>;
  modelVersion?: string;
}

export function apiUrl(settings: GeminiSettings, path: string): string {
  return `${settings.base.replace(/\/+$/, '')}/v1beta/${path.replace(/^\/+/, '')}`;
}

export function authHeaders(settings: GeminiSettings): Record<string, string> {
  return { 'x-goog-api-key': settings.apiKey };
}

export function inlinePart(media: MediaBuffer): Part {
  return { inlineData: { mimeType: media.mimeType, data: media.data.toString('base64') } };
}

/**
 * Google's error body `{error:{code,message,status,details}}` as one line. Quota failures carry their
 * quota ids in `details` (…PerMinute… or …PerDay…); they are appended so classification can see them.
 */
export function describeGoogleError(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error !== 'object') return undefined;
  const parts = [typeof error.message === 'string' ? error.message : undefined];
  if (typeof error.status === 'string') parts.push(`(${error.status})`);
  const quotaIds: string[] = [];
  for (const detail of Array.isArray(error.details) ? error.details : []) {
    for (const v of Array.isArray(detail?.violations) ? detail.violations : [])
      if (typeof v?.quotaId === 'string') quotaIds.push(v.quotaId);
  }
  if (quotaIds.length > 0) parts.push(`[quota: ${quotaIds.join(', ')}]`);
  const text = parts.filter(Boolean).join(' ');
  return text || undefined;
}

const DAILY_OR_BILLING = /PerDay|billing|prepayment|credits? (are|is) depleted|spending cap/i;
const PER_MINUTE = /PerMinute/i;

/**
 * A 429 that outlived the retries is a rate limit (retryable) unless it names a daily quota or
 * billing without a per-minute quota: then the account cannot pay for more today (balance).
 */
export function classifyVendorFailure(error: unknown): unknown {
  if (error instanceof VendorError && error.vendorStatus === 429) {
    if (DAILY_OR_BILLING.test(error.message) && !PER_MINUTE.test(error.message))
      return new VendorBalanceError(VENDOR, error.message.replace(`${VENDOR}: `, ''));
  }
  return error;
}

/** vendorJson with the key header, Google's error bodies and the quota classification. */
export async function geminiJson<T>(
  settings: GeminiSettings,
  path: string,
  request: VendorRequest = {},
): Promise<VendorResponse<T>> {
  try {
    return await vendorJson<T>(
      VENDOR,
      apiUrl(settings, path),
      { ...request, headers: { ...authHeaders(settings), ...request.headers } },
      describeGoogleError,
    );
  } catch (error) {
    throw classifyVendorFailure(error);
  }
}

/** The model id for a URL path (`models/<id>`), accepting ids given with or without the prefix. */
export function modelPath(id: string): string {
  return id.startsWith('models/') ? id : `models/${id}`;
}

/** Finish reasons that mean a safety or policy stop (the reply is a 200 all the same). */
const BLOCKING_FINISH_REASONS = new Set([
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'IMAGE_PROHIBITED_CONTENT',
  'RECITATION',
  'IMAGE_RECITATION',
  'BLOCKLIST',
  'SPII',
]);

/** Throws ContentFilteredError when the prompt was blocked or the first candidate stopped on safety. */
export function assertNotBlocked(reply: GenerateContentReply): void {
  const blockReason = reply.promptFeedback?.blockReason;
  if (blockReason && blockReason !== 'BLOCK_REASON_UNSPECIFIED')
    throw vendorContentFiltered(VENDOR, `prompt blocked (${blockReason})`);
  const finish = reply.candidates?.[0]?.finishReason;
  if (finish && BLOCKING_FINISH_REASONS.has(finish)) throw vendorContentFiltered(VENDOR, `output blocked (${finish})`);
}
