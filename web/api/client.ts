// fetch wrapper: JSON in and out, bearer token, X-Requested-With, and ApiError for every failure.
import { rememberMessageKey } from '../../common/message-keys.ts';
import { MESSAGES } from '../../common/messages.ts';
import { getToken } from './session.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: unknown;

  constructor(status: number, message: string, code?: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** True when the request never got an answer (offline, DNS, connection refused). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send this bearer token instead of the stored one (log-out sends the token it has just forgotten). */
  token?: string | null;
}

interface ErrorBody {
  success?: boolean;
  error?: unknown;
  message?: unknown;
  code?: unknown;
  details?: unknown;
  messageKey?: unknown;
  messageParams?: unknown;
}

/** The server's key for an error text (see common/message-keys.ts), kept so the page translates it by code. */
function rememberKey(message: string, payload: ErrorBody): void {
  if (typeof payload.messageKey !== 'string') return;
  const params = payload.messageParams;
  const valid =
    params && typeof params === 'object'
      ? Object.fromEntries(
          Object.entries(params).filter(
            (entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number',
          ),
        )
      : undefined;
  rememberMessageKey(message, { key: payload.messageKey, ...(valid ? { params: valid } : {}) });
}

export async function apiRequest<T>(
  path: string,
  { method = 'GET', body, signal, token = getToken() }: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, MESSAGES.verification.network, 'NETWORK');
  }

  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }

  const payload = (json ?? {}) as ErrorBody;
  if (!response.ok || payload.success === false) {
    const message =
      typeof payload.error === 'string'
        ? payload.error
        : typeof payload.message === 'string'
          ? payload.message
          : response.status === 429
            ? MESSAGES.generic.rateLimited
            : MESSAGES.generic.internal;
    rememberKey(message, payload);
    // Several catalogue messages in one error (a post the networks refuse, one line each): each line's key.
    const keyed = (payload.details as { keyed?: unknown } | undefined)?.keyed;
    if (Array.isArray(keyed)) {
      for (const item of keyed as { message?: unknown; key?: unknown; params?: unknown }[]) {
        if (typeof item?.message === 'string')
          rememberKey(item.message, { messageKey: item.key, messageParams: item.params });
      }
    }
    throw new ApiError(
      response.status,
      message,
      typeof payload.code === 'string' ? payload.code : undefined,
      payload.details,
    );
  }
  return json as T;
}

/** Field errors from a 400 reply's `details` ({ fieldErrors: { email: ['...'] } }). */
/** The message of a caught error (a failed call's, or any Error's), else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const details = error.details as { fieldErrors?: Record<string, unknown> } | undefined;
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(details?.fieldErrors ?? {})) {
    const first = Array.isArray(messages) ? messages.find((m) => typeof m === 'string') : messages;
    if (typeof first === 'string') result[field] = first;
  }
  return result;
}

/** A query function that GETs `path` and answers the reply's `data`. */
export function getData<T extends { data: unknown }>(path: string) {
  return ({ signal }: { signal?: AbortSignal }): Promise<T['data']> =>
    apiRequest<T>(path, { signal }).then((reply) => reply.data);
}
