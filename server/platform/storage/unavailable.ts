import { setTimeout as sleep } from 'node:timers/promises';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';
import type { ObjectStorage } from './types.ts';

/** What a 503 for a storage outage asks clients to wait before trying again (the Retry-After header). */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * The media storage cannot be reached or answers that it is failing (S3 down, throttling, a network or disk I/O
 * fault): nothing is wrong with the request, it can be made again in a moment. HTTP answers 503 with Retry-After;
 * a task retries (it is not a permanent failure). The storage's own error is kept as `cause`, for the log only.
 */
export class StorageUnavailableError extends AppError {
  constructor(override readonly cause: unknown) {
    super(503, 'storage_unavailable', MESSAGES.media.storageUnavailable, {
      retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS,
    });
    this.name = 'StorageUnavailableError';
  }
}

/** Socket and name-resolution failures: the storage service cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/**
 * A disk (or a network mount) that fails to do I/O: a device error, a device gone, a stale NFS handle, a file
 * system the kernel remounted read-only after errors. A full disk (ENOSPC, EDQUOT) is not here: waiting does not
 * free space, so it fails as it always did.
 */
const DISK_CODES = new Set(['EIO', 'ENXIO', 'ENODEV', 'ESTALE', 'EROFS', 'ENOTCONN', 'EREMOTEIO']);
/** S3 error codes that mean "try again later" whatever the status (some S3-compatible servers answer 500 for them). */
const S3_RETRY_CODES = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'TimeoutError']);

interface ErrorShape {
  code?: unknown;
  name?: unknown;
  cause?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** Whether a storage adapter's error means the storage is unavailable (see StorageUnavailableError). */
export function isStorageOutage(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, name, $metadata } = e as ErrorShape;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || DISK_CODES.has(code))) return true;
    if (typeof name === 'string' && S3_RETRY_CODES.has(name)) return true;
    const status = $metadata?.httpStatusCode;
    // 501 NotImplemented is an S3-compatible server lacking a feature: waiting does not help.
    if (typeof status === 'number' && status >= 500 && status !== 501) return true;
    e = (e as ErrorShape).cause;
  }
  return false;
}

/**
 * The error an adapter throws: a StorageUnavailableError for an outage, the error itself otherwise. A failure of
 * the body being stored (the uploading client went away) is the body's, never the storage's.
 */
export function storageError(error: unknown, body?: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isStorageOutage(error)) return error;
  if (body && typeof body === 'object' && 'errored' in body && (body as { errored: unknown }).errored) return error;
  return new StorageUnavailableError(error);
}

/** Waits between tries of one storage call while the storage is unavailable: about 15 s in all. */
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];

/**
 * The storage as a task attempt uses it: a call that meets an outage is tried again after a short wait, backing
 * off, for at most `budgetMs` of waiting over the whole attempt (so a long outage fails the attempt in bounded
 * time and the task's own retry, or its refund, takes over). A put whose body is a stream is not tried again
 * (the stream is spent). Waits end when `signal` aborts.
 */
export function retryingStorage(
  storage: ObjectStorage,
  options: { signal?: AbortSignal; budgetMs?: number; onRetry?: (error: unknown, waitMs: number) => void } = {},
): ObjectStorage {
  let budget = options.budgetMs ?? RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
  const retried = async <T>(call: () => Promise<T>, retryable = true): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const wait = Math.min(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)], budget);
        if (!retryable || !(error instanceof StorageUnavailableError) || wait <= 0 || options.signal?.aborted) {
          throw error;
        }
        budget -= wait;
        options.onRetry?.(error, wait);
        await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
        if (options.signal?.aborted) throw error;
      }
    }
  };
  return {
    kind: storage.kind,
    put: (key, body, putOptions) => retried(() => storage.put(key, body, putOptions), Buffer.isBuffer(body)),
    head: (key) => retried(() => storage.head(key)),
    read: (key, range) => retried(() => storage.read(key, range)),
    delete: (key) => retried(() => storage.delete(key)),
    ping: () => storage.ping(),
    localPath: (key) => storage.localPath(key),
  };
}
