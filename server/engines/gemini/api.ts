// The Gemini API (generativelanguage.googleapis.com) calls the three Gemini engines share: Google's
// official SDK (@google/genai) pointed at the configured origin, the shared retry policy around it, and
// how Google's error bodies map onto the product's error kinds.

import { ApiError, GoogleGenAI } from '@google/genai';
import type { MediaBuffer } from '../types.ts';
import {
  type SdkHttpFailure,
  VendorBalanceError,
  VendorError,
  vendorContentFiltered,
  vendorSdkCall,
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

export function authHeaders(settings: GeminiSettings): Record<string, string> {
  return { 'x-goog-api-key': settings.apiKey };
}

const clients = new WeakMap<GeminiSettings, GoogleGenAI>();

/**
 * The SDK client for these settings (one per settings object): Gemini Developer API mode, `v1beta`
 * under the configured origin, the SDK's own retries off (geminiCall retries with the shared policy).
 */
export function geminiClient(settings: GeminiSettings): GoogleGenAI {
  let client = clients.get(settings);
  if (!client) {
    client = new GoogleGenAI({
      // Always the Gemini Developer API, whatever GOOGLE_GENAI_USE_VERTEXAI says in the environment.
      vertexai: false,
      apiKey: settings.apiKey,
      httpOptions: { baseUrl: settings.base.replace(/\/+$/, ''), apiVersion: 'v1beta', timeout: 10 * 60_000 },
    });
    clients.set(settings, client);
  }
  return client;
}

/** Google's RetryInfo (`retryDelay: "12s"`) from an error body, as Retry-After seconds. */
function retryDelayOf(body: unknown): string | null {
  const details = (body as { error?: { details?: Array<{ retryDelay?: unknown }> } } | null)?.error?.details;
  for (const detail of Array.isArray(details) ? details : []) {
    const match = typeof detail?.retryDelay === 'string' ? /^([\d.]+)s$/.exec(detail.retryDelay) : null;
    if (match) return match[1];
  }
  return null;
}

/** The SDK's ApiError carries the status and the error body as its JSON message. */
export function geminiFailure(error: unknown): SdkHttpFailure | undefined {
  if (!(error instanceof ApiError)) return undefined;
  let body: unknown = error.message;
  try {
    body = JSON.parse(error.message);
  } catch {
    // not JSON: keep the text
  }
  return { status: error.status, body, retryAfter: retryDelayOf(body) };
}

/** One SDK call with the shared retry policy, Google's error bodies and the quota classification. */
export async function geminiCall<T>(call: () => PromiseLike<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await vendorSdkCall(VENDOR, call, { failureOf: geminiFailure, signal, describe: describeGoogleError });
  } catch (error) {
    throw classifyVendorFailure(error);
  }
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
