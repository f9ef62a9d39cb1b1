import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';

/** Hashes of the inline <script> blocks of the built index.html (the theme bootstrap), for script-src. */
function inlineScriptHashes(indexHtml: string): string[] {
  if (!existsSync(indexHtml)) return [];
  const html = readFileSync(indexHtml, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The policy of the studio's HTML pages: scripts only from our origin (plus the hashed inline theme
 * bootstrap, never 'unsafe-inline'); inline styles allowed (server pages use <style>, React style
 * props); images and media only from our origin and the media origin (PUBLIC_URL's: every stored file
 * is served by the studio's own /api/images|videos|audio routes, also with S3 storage), plus data: and
 * blob: (canvas exports, editor-session thumbnails, local previews of a chosen file). No https: or
 * other host: a URL a user typed can never make a viewer's browser load a third party's image (a
 * tracking pixel), issue 27. No plugins, no framing.
 */
function htmlPolicy(scriptHashes: string[], mediaOrigin: string | undefined): string {
  const own = ["'self'", ...(mediaOrigin ? [mediaOrigin] : [])].join(' ');
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scriptHashes].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${own} data: blob:`,
    `media-src ${own} data: blob:`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Anything else (JSON, stored media): a document opened directly runs nothing and cannot be framed. */
const OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * Adds the security headers to every response: Content-Security-Policy (a route's own policy is
 * kept; the policy follows the content type, so a reply without one — a 304 — must set its policy
 * itself, as the web's static files do with the returned `htmlCsp`), X-Content-Type-Options nosniff, Referrer-Policy, X-Frame-Options, and
 * Strict-Transport-Security only when the request came over TLS (request.protocol honours
 * X-Forwarded-Proto when TRUST_PROXY is set).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { indexHtml: string; mediaOrigin?: string },
): { htmlCsp: string } {
  const htmlCsp = htmlPolicy(inlineScriptHashes(options.indexHtml), options.mediaOrigin);
  // A callback hook, not an async one: it runs on every response and has nothing to wait for.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('content-security-policy')) {
      const type = String(reply.getHeader('content-type') ?? '');
      reply.header('content-security-policy', type.startsWith('text/html') ? htmlCsp : OTHER_POLICY);
    }
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
  return { htmlCsp };
}
