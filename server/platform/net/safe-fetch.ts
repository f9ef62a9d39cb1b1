import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';
import { isPublicAddress } from './address.ts';

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetchOptions {
  /** The most bytes accepted: a larger Content-Length answers 413 at once, a longer body is cut off (413). */
  maxBytes: number;
  /** For the whole fetch, redirects and body included. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Redirects followed (each one checked like the first URL). Default 5. */
  maxRedirects?: number;
  /**
   * Which resolved addresses may be reached. Default: public unicast only (isPublicAddress). Only
   * tests override it, to reach a local fixture server.
   */
  isAllowedAddress?: (address: string) => boolean;
  /** Host name resolution. Default: the system resolver (every A/AAAA answer). Tests only. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface SafeFetchResult {
  data: Buffer;
  /** The Content-Type header as sent (not trusted: sniff the bytes), or application/octet-stream. */
  contentType: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'GenProStudio/0.1 (media fetch)';

const invalidUrl = () => new AppError(400, 'invalid_url', MESSAGES.remote.invalidUrl);
const notAllowed = () => new AppError(400, 'url_not_allowed', MESSAGES.remote.privateAddress);
const fetchFailed = (code = 'fetch_failed') => new AppError(502, code, MESSAGES.remote.fetchFailed);

/**
 * GET of a user-given URL from the server, safe against server-side request forgery:
 * - only http and https URLs without credentials (else 400 'Invalid URL format');
 * - the host is resolved here and every address it resolves to must be public (no loopback,
 *   private, link-local/metadata, CGNAT, multicast, reserved, nor IPv6 forms of them): else 400;
 * - the connection goes to the vetted address itself (a pinned `lookup`), so a second DNS answer
 *   cannot switch it (DNS rebinding), and the connected peer is checked again;
 * - redirects are followed by hand, at most 5, each target vetted the same way;
 * - a Content-Length over `maxBytes` answers 413 'Remote file too large', a body that runs past it
 *   is cut off with 413 'Stream size exceeded limit';
 * - any other failure (DNS, connection, TLS, non-2xx status, timeout) answers 502
 *   'Failed to fetch media from URL'.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  if (!Number.isFinite(options.maxBytes) || options.maxBytes < 0) throw new RangeError('maxBytes must be >= 0');
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const resolve = options.resolve ?? resolveHost;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let current = parseHttpUrl(url);
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await vetHost(current, isAllowed, resolve);
      const response = await get(current, target, signal);
      const peer = response.socket?.remoteAddress;
      if (!peer || !isAllowed(peer)) {
        response.destroy();
        throw notAllowed();
      }
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        response.destroy();
        if (redirects >= maxRedirects) throw fetchFailed('too_many_redirects');
        current = parseHttpUrl(resolveLocation(location, current));
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw fetchFailed();
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.destroy();
        throw new AppError(413, 'too_large', MESSAGES.remote.tooLarge);
      }
      const data = await readCapped(response, options.maxBytes);
      return {
        data,
        contentType: response.headers['content-type'] ?? 'application/octet-stream',
        finalUrl: current.href,
      };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The caller's own cancellation (a task stopping) passes through unchanged.
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : error;
    throw fetchFailed(timeout.aborted ? 'fetch_timeout' : 'fetch_failed');
  }
}

/** An absolute http(s) URL without user:password, else 400 'Invalid URL format'. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidUrl();
  if (url.username || url.password || !url.hostname) throw invalidUrl();
  return url;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw invalidUrl();
  }
}

async function resolveHost(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

/** The address to connect to: the literal, or the first DNS answer when every answer is allowed. */
async function vetHost(
  url: URL,
  isAllowed: (address: string) => boolean,
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
): Promise<ResolvedAddress> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(host);
  if (literal !== 0) {
    if (!isAllowed(host)) throw notAllowed();
    return { address: host, family: literal === 6 ? 6 : 4 };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw fetchFailed('dns_failed');
  }
  if (addresses.length === 0) throw fetchFailed('dns_failed');
  // One private answer is enough to refuse: a mixed record set is how rebinding attacks start.
  if (addresses.some((a) => !isAllowed(a.address))) throw notAllowed();
  return addresses[0];
}

/** A lookup that answers every query with the vetted address, so the socket connects there and nowhere else. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function get(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'GET',
        // A fresh socket per request: a pooled one could have been opened to another address.
        agent: false,
        lookup: pinnedLookup(target),
        signal,
        headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity' },
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      response.destroy();
      throw new AppError(413, 'stream_too_large', MESSAGES.remote.streamTooLarge);
    }
    chunks.push(buffer);
  }
  if (!response.complete) throw fetchFailed();
  return Buffer.concat(chunks, size);
}
