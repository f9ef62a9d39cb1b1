import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson } from './fake-http.ts';

// The replies of Meta's Graph API, shared by the Facebook and Instagram fakes: JSON with Meta's content type, and
// Meta's error body {error: {message, type, code, …, fbtrace_id}}.

const JSON_UTF8 = 'application/json; charset=UTF-8';

export function sendMetaJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  sendJson(res, status, body, { 'content-type': JSON_UTF8, ...headers });
}

/** Meta's error body with the status Graph answers it with; `extra` adds error_subcode, error_user_msg and such. */
export function sendMetaError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const fbtrace_id = randomBytes(9).toString('base64url');
  sendMetaJson(res, status, { error: { message, type: 'OAuthException', code, ...extra, fbtrace_id } }, headers);
}
