import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWeb } from '../../app.ts';
import { registerSecurityHeaders } from '../../platform/http/security-headers.ts';
import { authHeader, createTestUser } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toEqual(expect.any(String));
  expect(String(headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
}

describe('security headers of the studio', () => {
  let plain: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
    proxied = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), proxied?.close()]);
  });

  it('are on the web root and on API routes, and HSTS is absent over plain http', async () => {
    const root = await plain.app.inject({ method: 'GET', url: '/' });
    expectCommonHeaders(root.headers);
    expect(root.headers['strict-transport-security']).toBeUndefined();

    const user = await createTestUser(plain.ctx.db);
    const me = await plain.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(user.token) });
    expect(me.statusCode).toBe(200);
    expectCommonHeaders(me.headers);
    expect(me.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(me.headers['strict-transport-security']).toBeUndefined();

    const missing = await plain.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(missing.statusCode).toBe(404);
    expectCommonHeaders(missing.headers);
  });

  it('ignores X-Forwarded-Proto unless TRUST_PROXY is set, then sends HSTS for https', async () => {
    const spoofed = await plain.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();

    const overTls = await proxied.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overTls.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    const overHttp = await proxied.app.inject({ method: 'GET', url: '/api/health' });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps the stricter policy a page sets for itself (dev mail outbox)', async () => {
    const page = await plain.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('the HTML policy', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-csp-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('allows scripts from our origin and the hashed inline bootstrap, never unsafe-inline scripts', async () => {
    const inline = "\n  document.documentElement.classList.add('dark');\n";
    const indexHtml = path.join(dir, 'index.html');
    await writeFile(indexHtml, `<!doctype html><script>${inline}</script><script type="module" src="/a.js"></script>`);
    const app = Fastify();
    registerSecurityHeaders(app, { indexHtml });
    app.get('/', (_request, reply) => reply.type('text/html').send('<p>hi</p>'));
    const response = await app.inject({ method: 'GET', url: '/' });
    await app.close();

    const csp = String(response.headers['content-security-policy']);
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src ')) ?? '';
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toMatch(/img-src 'self' data: blob:/);
    expect(csp).toMatch(/object-src 'none'/);
  });
});

describe('a revalidated page', () => {
  let dir: string;
  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-web-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(
      path.join(dir, 'index.html'),
      '<!doctype html><script>document.title="x"</script><div id="root"></div>',
    );
    await writeFile(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
    app = Fastify();
    const { htmlCsp } = registerSecurityHeaders(app, { indexHtml: path.join(dir, 'index.html') });
    await registerWeb(app, { root: dir, htmlCsp });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const SAME_ON_304 = [
    'content-security-policy',
    'x-content-type-options',
    'x-frame-options',
    'referrer-policy',
    'cache-control',
  ];

  // A 304 carrying the API's `sandbox` policy was merged into the cached page: the app was blank on reload.
  it.each(['/', '/dashboard', '/dashboard?view=creators', '/assets/app-1a2b.js'])(
    '%s answers 304 with the same headers as its 200',
    async (url) => {
      const first = await app.inject({ method: 'GET', url });
      expect(first.statusCode).toBe(200);
      const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } });
      expect(again.statusCode).toBe(304);
      for (const name of SAME_ON_304) expect(again.headers[name], name).toBe(first.headers[name]);
      if (!url.startsWith('/assets/')) {
        expect(String(again.headers['content-security-policy'])).toMatch(/script-src 'self'/);
        expect(String(again.headers['content-security-policy'])).not.toMatch(/sandbox/);
      }
    },
  );
});

describe('a built file with a compressed copy beside it', () => {
  let dir: string;
  let app: ReturnType<typeof Fastify>;
  const page = '<!doctype html><script>document.title="x"</script><div id="root"></div>';
  const script = `console.log(${'"compressible "'.repeat(100)})`;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-web-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), page);
    await writeFile(path.join(dir, 'index.html.gz'), gzipSync(page));
    await writeFile(path.join(dir, 'assets', 'app-1a2b.js'), script);
    await writeFile(path.join(dir, 'assets', 'app-1a2b.js.gz'), gzipSync(script));
    app = Fastify();
    const { htmlCsp } = registerSecurityHeaders(app, { indexHtml: path.join(dir, 'index.html') });
    await registerWeb(app, { root: dir, htmlCsp });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is sent gzipped to a browser that accepts gzip, with the headers of the file itself', async () => {
    const reply = await app.inject({
      method: 'GET',
      url: '/assets/app-1a2b.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(String(reply.headers['content-type'])).toMatch(/javascript/);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(reply.headers.vary)).toMatch(/accept-encoding/i);
    expect(gunzipSync(reply.rawPayload).toString()).toBe(script);
  });

  it.each(['/', '/dashboard'])('%s: the page, gzipped, keeps its Content-Security-Policy', async (url) => {
    const reply = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(String(reply.headers['content-type'])).toMatch(/text\/html/);
    expect(String(reply.headers['content-security-policy'])).toMatch(/script-src 'self'/);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(reply.rawPayload).toString()).toBe(page);
  });

  it('is sent as is to a client that takes no compression', async () => {
    const reply = await app.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body).toBe(script);
  });
});
