// What every vendor adapter shares: JSON calls with retries on 429/5xx (exponential back-off with full
// jitter, honouring Retry-After), the mapping of vendor failures onto the product's error kinds, and
// downloading outputs into memory before the vendor's URLs expire. Adapters live in
// server/engines/<vendor>/ and never call fetch directly.
import { videoPollAttempt, videoPollProgress, videoPollSecondsLeft } from '../../../common/rules/generation-state.ts';
import { AppError } from '../../platform/errors.ts';
import { ContentFilteredError } from '../types.ts';

/** The vendor's account cannot pay for the work (HTTP 402 or a balance message). Not retried. */
export class VendorBalanceError extends AppError {
  constructor(vendor: string, detail?: string) {
    super(
      402,
      'vendor_balance',
      `The ${vendor} account balance is insufficient for this request. Add credits with the provider and try again.`,
      detail ? { detail } : undefined,
    );
    this.name = 'VendorBalanceError';
  }
}

/** Any other vendor failure. Retryable failures (429, 5xx, network) are retried by the task queue too. */
export class VendorError extends AppError {
  constructor(
    vendor: string,
    message: string,
    readonly retryable: boolean,
    readonly vendorStatus?: number,
  ) {
    // 502 for the task queue means "may be retried"; a refused request (4xx) is a permanent 400. A refused key
    // (401/403) is the operator's problem, not the request's: vendor_auth, which users see as a generic failure.
    const auth = !retryable && (vendorStatus === 401 || vendorStatus === 403);
    const code = retryable ? 'vendor_unavailable' : auth ? 'vendor_auth' : 'vendor_rejected';
    // A refused key is not described in the vendor's words: some echo the key they refused, and this
    // message reaches the logs and the task row.
    const text = auth
      ? `the studio's API key was refused (HTTP ${vendorStatus}); check the key in the configuration`
      : message;
    super(retryable ? 502 : 400, code, `${vendor}: ${text}`);
    this.name = 'VendorError';
  }
}

/** A vendor's refusal on content grounds, as the product's content-filtered error. */
export function vendorContentFiltered(vendor: string, reason: string): ContentFilteredError {
  return new ContentFilteredError(`The request was blocked by ${vendor}'s safety filters: ${reason}`, [
    `${vendor}: ${reason}`,
  ]);
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface VendorRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  headers?: Record<string, string>;
  /** JSON body (serialised here) or a raw body. */
  json?: unknown;
  body?: BodyInit;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
}

export interface VendorResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Milliseconds to wait before attempt `n` (1-based retry count): Retry-After when given, else jittered back-off. */
function retryDelayMs(retry: number, policy: RetryPolicy, retryAfter: string | null): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.min(policy.maxDelayMs, Math.max(0, seconds * 1000));
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.min(policy.maxDelayMs, Math.max(0, at - Date.now()));
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(Math.random() * ceiling);
}

const BALANCE_WORDS = /insufficient[_ ]?(balance|funds|credits?)|balance|quota exceeded|payment required|billing/i;

/**
 * Calls a vendor endpoint and parses JSON. 429 and 5xx (and network errors) are retried with back-off;
 * 402 or a balance message → VendorBalanceError; other 4xx → VendorError (not retried) carrying the
 * vendor's message. `describe` pulls a readable message out of the vendor's error body.
 */
export async function vendorJson<T>(
  vendor: string,
  url: string,
  request: VendorRequest = {},
  describe: (body: unknown) => string | undefined = defaultDescribe,
): Promise<VendorResponse<T>> {
  const policy = { ...DEFAULT_RETRY, ...request.retry };
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body = request.body;
  if (request.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(request.json);
  }
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method ?? (body ? 'POST' : 'GET'),
        headers,
        body,
        signal: request.signal,
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      if (attempt >= policy.attempts) throw new VendorError(vendor, `network error: ${(error as Error).message}`, true);
      await sleep(retryDelayMs(attempt, policy, null), request.signal);
      continue;
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text for the error message
    }
    if (response.ok) return { status: response.status, headers: response.headers, data: parsed as T };
    const retryable = response.status === 429 || response.status >= 500;
    if (retryable && attempt < policy.attempts) {
      await sleep(retryDelayMs(attempt, policy, response.headers.get('retry-after')), request.signal);
      continue;
    }
    throw httpFailure(vendor, response.status, parsed, describe);
  }
}

/** A vendor's HTTP failure as the product's error: 402 or a balance message → balance; 429/5xx → retryable. */
export function httpFailure(
  vendor: string,
  status: number,
  body: unknown,
  describe: (body: unknown) => string | undefined = defaultDescribe,
): VendorError | VendorBalanceError {
  const message = describe(body) ?? `HTTP ${status}`;
  const retryable = status === 429 || status >= 500;
  if (status === 402 || (!retryable && BALANCE_WORDS.test(message))) return new VendorBalanceError(vendor, message);
  return new VendorError(vendor, message, retryable, status);
}

/** What a vendor SDK's HTTP error carries: the status, the vendor's error body and the Retry-After header. */
export interface SdkHttpFailure {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/**
 * Calls a vendor's official SDK (configured with its own retries off) under the same policy as
 * vendorJson: 429/5xx and network errors retried with back-off and jitter (Retry-After honoured),
 * then mapped onto the product's error kinds. `failureOf` reads the SDK's HTTP error; an error it does
 * not recognise is a network failure (retried) unless the caller's signal aborted.
 */
export async function vendorSdkCall<T>(
  vendor: string,
  call: () => PromiseLike<T>,
  options: {
    failureOf: (error: unknown) => SdkHttpFailure | undefined;
    signal?: AbortSignal;
    retry?: Partial<RetryPolicy>;
    describe?: (body: unknown) => string | undefined;
    /** A vendor-specific final answer for a failure (e.g. a quota 429 that must not be retried). */
    immediate?: (failure: SdkHttpFailure) => Error | undefined;
  },
): Promise<T> {
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (error instanceof AppError) throw error;
      const failure = options.failureOf(error);
      const final = failure && options.immediate?.(failure);
      if (final) throw final;
      const retryable = !failure || failure.status === 429 || failure.status >= 500;
      if (retryable && attempt < policy.attempts) {
        await sleep(retryDelayMs(attempt, policy, failure?.retryAfter ?? null), options.signal);
        continue;
      }
      if (!failure) throw new VendorError(vendor, `network error: ${(error as Error).message}`, true);
      throw httpFailure(vendor, failure.status, failure.body, options.describe);
    }
  }
}

/** The HTTP error of the Stainless-generated SDKs (openai, @runwayml/sdk): `status`, `error` (the body), `headers`. */
export function stainlessFailure(error: unknown): SdkHttpFailure | undefined {
  const e = error as { status?: unknown; error?: unknown; headers?: unknown } | null;
  if (!e || typeof e !== 'object' || typeof e.status !== 'number') return undefined;
  const headers = e.headers instanceof Headers ? e.headers : undefined;
  return { status: e.status, body: e.error, retryAfter: headers?.get('retry-after') ?? null };
}

function defaultDescribe(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const error = b.error as Record<string, unknown> | string | undefined;
    if (typeof error === 'string') return error;
    if (error && typeof error.message === 'string') return error.message;
    if (typeof b.message === 'string') return b.message;
    if (typeof b.detail === 'string') return b.detail;
  }
  return undefined;
}

/**
 * Downloads a vendor output (URLs expire, so this happens as soon as the work is done) with the same
 * retries. Returns the bytes and their type; the feature stores them in our storage.
 */
export async function downloadOutput(
  vendor: string,
  url: string,
  options: { headers?: Record<string, string>; signal?: AbortSignal; maxBytes?: number } = {},
): Promise<{ data: Buffer; mimeType: string }> {
  const maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { headers: options.headers, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted || attempt >= DEFAULT_RETRY.attempts)
        throw new VendorError(vendor, `output download failed: ${(error as Error).message}`, true);
      await sleep(retryDelayMs(attempt, DEFAULT_RETRY, null), options.signal);
      continue;
    }
    if (response.ok) {
      const data = Buffer.from(await response.arrayBuffer());
      if (data.byteLength > maxBytes) throw new VendorError(vendor, 'output larger than allowed', false);
      return { data, mimeType: response.headers.get('content-type')?.split(';')[0] ?? 'application/octet-stream' };
    }
    const retryable = response.status === 429 || response.status >= 500;
    if (retryable && attempt < DEFAULT_RETRY.attempts) {
      await sleep(retryDelayMs(attempt, DEFAULT_RETRY, response.headers.get('retry-after')), options.signal);
      continue;
    }
    throw new VendorError(vendor, `output download failed: HTTP ${response.status}`, retryable, response.status);
  }
}

/** Polls `check` until it returns a value, at `intervalMs`, within `timeoutMs`; reports progress by time. */
/**
 * Progress of vendor work that reports none (Veo operations, Seedance tasks): the spec's rule, 5 plus 2 per
 * 15-second attempt capped at 95, as a 0–1 fraction, and its estimate of 15 s per attempt left. It keeps
 * rising for the whole polling budget instead of creeping up to a guessed end and stalling there.
 */
export function unreportedProgress(elapsedMs: number): { fraction: number; secondsLeft: number } {
  const attempt = videoPollAttempt(elapsedMs);
  return { fraction: videoPollProgress(attempt) / 100, secondsLeft: videoPollSecondsLeft(attempt) };
}

export async function pollUntil<T>(
  vendor: string,
  check: () => Promise<T | undefined>,
  options: { intervalMs: number; timeoutMs: number; signal?: AbortSignal; onTick?: (elapsedMs: number) => void },
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    const elapsed = Date.now() - started;
    if (elapsed + options.intervalMs > options.timeoutMs)
      throw new VendorError(vendor, 'timed out waiting for the result', true);
    options.onTick?.(elapsed);
    await sleep(options.intervalMs, options.signal);
  }
}
