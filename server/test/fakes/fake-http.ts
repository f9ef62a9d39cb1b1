import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The HTTP plumbing the local vendor fakes share: reading a request's body, JSON replies, the Bearer token, a route
// table (method + path → handler), and a server on a free local port.

/** The request's whole body. */
export async function readBody(req: IncomingMessage): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The fields of a form-encoded (application/x-www-form-urlencoded) body. */
export function formFields(raw: Buffer | string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(typeof raw === 'string' ? raw : raw.toString('utf8')));
}

/** A JSON reply; `headers` may name another content-type (Meta and Google add `; charset=UTF-8`). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A reply without a body. */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
  res.writeHead(status, headers);
  res.end();
}

/** The Authorization header without its `Bearer ` prefix ('' when there is none). */
export function bearerOf(req: IncomingMessage): string {
  return (req.headers.authorization ?? '').replace(/^Bearer /, '');
}

/** One entry of a fake's route table: `path` is the exact path or a pattern whose groups become the params. */
export interface Route<H> {
  /** The HTTP method, or '*' for any. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | '*';
  path: string | RegExp;
  handle: H;
}

/** The first route of `routes` for the request, with its path's captured groups; null when none matches. */
export function matchRoute<H>(
  routes: ReadonlyArray<Route<H>>,
  method: string,
  path: string,
): { handle: H; params: string[] } | null {
  for (const route of routes) {
    if (route.method !== '*' && route.method !== method) continue;
    if (typeof route.path === 'string') {
      if (route.path === path) return { handle: route.handle, params: [] };
      continue;
    }
    const match = route.path.exec(path);
    if (match) return { handle: route.handle, params: match.slice(1) };
  }
  return null;
}

/** Starts `server` on a free port of 127.0.0.1; answers its base URL. */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops `server` once its connections end. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}
