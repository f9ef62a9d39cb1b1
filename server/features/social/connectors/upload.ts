import { ConnectorError } from './types.ts';

// Raw requests of the upload APIs (multipart segments, byte PUTs), with callApi's failure classes: 401 the
// token, 429/5xx and network errors transient (with Retry-After), any other refusal the content's fault.

export async function callRaw(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: FormData | Buffer },
  signal?: AbortSignal,
): Promise<{ status: number; headers: Headers; text: string }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body: Buffer.isBuffer(init.body) ? new Uint8Array(init.body) : (init.body as FormData | undefined),
      signal,
    });
  } catch (error) {
    throw new ConnectorError('retry', `network error: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let detail = text.slice(0, 300) || res.statusText;
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      detail = String(body.detail ?? body.message ?? body.error ?? detail);
    } catch {}
    const failure =
      res.status === 401 ? 'refresh-token' : res.status === 429 || res.status >= 500 ? 'retry' : 'bad-body';
    const after = Number(res.headers.get('retry-after'));
    throw new ConnectorError(
      failure,
      `${res.status} ${detail}`,
      Number.isFinite(after) && after > 0 ? after : undefined,
      res.status,
    );
  }
  return { status: res.status, headers: res.headers, text };
}

/** Waits `seconds` (aborted with the signal). */
export function pause(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
