import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { bearerOf, listenLocally, readBody, sendJson } from './fake-http.ts';

// What the fakes of X and LinkedIn share: their OAuth 2.0 authorization code + PKCE flows (the consent page, the
// code exchange, refresh tokens that work once), a local HTTP server on port 0, JSON replies.

export interface FakeRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  raw: Buffer;
  /** The Bearer token of the request, or ''. */
  bearer: string;
  send(status: number, body: unknown, headers?: Record<string, string>): void;
}

export class FakeOAuth {
  /** code → PKCE challenge, issued when the "user approves". */
  readonly codes = new Map<string, string>();
  /** access token → the member it was issued to. */
  readonly access = new Map<string, string>();
  readonly refresh = new Set<string>();
  readonly tokenCalls: Array<Record<string, string>> = [];

  constructor(readonly memberId: string) {}

  issue() {
    const access = randomBytes(16).toString('hex');
    const refresh = randomBytes(16).toString('hex');
    this.access.set(access, this.memberId);
    this.refresh.add(refresh);
    return { token_type: 'bearer', access_token: access, refresh_token: refresh, expires_in: 7200 };
  }

  /** What the authorize page does when the user approves: a code bound to the PKCE challenge. */
  approve(authUrl: string): { code: string; state: string; redirectUri: string } {
    const u = new URL(authUrl);
    const code = randomBytes(8).toString('hex');
    this.codes.set(code, u.searchParams.get('code_challenge') ?? '');
    return { code, state: u.searchParams.get('state') ?? '', redirectUri: u.searchParams.get('redirect_uri') ?? '' };
  }

  /** The consent page: refuses a request without the PKCE challenge, else offers "Allow" back to the app. */
  consentPage(r: FakeRequest, clientId: string, networkName: string) {
    const q = r.url.searchParams;
    if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || !q.get('redirect_uri')) {
      return r.send(400, { error: 'invalid_request' });
    }
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      return r.send(400, { error: 'invalid_request', error_description: 'PKCE required' });
    }
    const { code, state, redirectUri } = this.approve(r.url.toString());
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', state);
    const href = back.toString().replaceAll('&', '&amp;').replaceAll('"', '&quot;');
    r.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    r.res.end(
      `<!doctype html><html lang="en"><head><title>${networkName}: authorize</title></head><body><main>` +
        `<h1>Authorize GenPro Studio on ${networkName}</h1><p>Scopes: ${escapeHtml(q.get('scope') ?? '')}</p>` +
        `<a href="${href}">Allow</a></main></body></html>`,
    );
  }

  /** The token endpoint's grants, once the client is authenticated. */
  token(r: FakeRequest, form: Record<string, string>) {
    this.tokenCalls.push(form);
    if (form.grant_type === 'authorization_code') {
      const challenge = this.codes.get(form.code ?? '');
      this.codes.delete(form.code ?? '');
      const verified = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (!challenge || challenge !== verified) return r.send(400, { error: 'invalid_grant' });
      return r.send(200, this.issue());
    }
    if (form.grant_type === 'refresh_token') {
      if (!this.refresh.delete(form.refresh_token ?? '')) {
        return r.send(400, { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' });
      }
      return r.send(200, this.issue());
    }
    return r.send(400, { error: 'unsupported_grant_type' });
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A local HTTP server on port 0 answering with `handle`; answers its base URL and a close function. */
export async function startFakeServer(
  handle: (r: FakeRequest) => unknown,
): Promise<{ server: Server; base: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, body, headers);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'fake'}`);
    try {
      await handle({ req, res, url, raw, bearer: bearerOf(req), send });
    } catch (error) {
      if (!res.headersSent) send(500, { message: String(error) });
    }
  });
  const base = await listenLocally(server);
  return {
    server,
    base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request's multipart/form-data body, or null when it is not one. */
export async function formDataOf(r: FakeRequest): Promise<FormData | null> {
  const type = r.req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return null;
  try {
    return await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(r.raw),
    }).formData();
  } catch {
    return null;
  }
}
