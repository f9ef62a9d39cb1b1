import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanLogDir, secretsInLine } from './log-secrets.ts';

const line = (fields: object) =>
  JSON.stringify({ level: 30, time: 1, pid: 1, hostname: 'h', reqId: 'a1b2', ...fields });

describe('secretsInLine', () => {
  it('catches tokens, keys, passwords and headers', () => {
    const leaks: [string, string][] = [
      [line({ msg: 'stripe call', key: 'sk_test_51Habcdefghij' }), 'Stripe secret key'],
      [line({ msg: 'webhook', secret: 'whsec_abcdef123456' }), 'Stripe webhook secret'],
      [line({ req: { headers: { authorization: 'Bearer abc.def.ghi123456789' } } }), 'bearer token'],
      [line({ req: { headers: { cookie: 'genpro_session=QmFzZTY0VG9rZW5WYWx1ZTEyMzQ1' } } }), 'session cookie'],
      [line({ body: { email: 'a@b.c', password: 'correct horse battery' } }), 'password value'],
      [line({ url: 'otpauth://totp/GenPro:a@b.c?secret=JBSWY3DPEHPK3PXPJBSWY3DP' }), 'TOTP secret'],
      [line({ tokens: { access_token: 'ya29.a0AfH6SMBx', refresh_token: '1//0gAbCdEf' } }), 'access/refresh token'],
      [line({ req: { url: '/api/auth/verify?token=Zm9vYmFyYmF6cXV4cXV1eA' } }), 'credential in a URL'],
      [line({ req: { url: '/api/social/oauth/x?state=s&code=rBTOqj9FcUQ17dFpdt9v8k' } }), 'credential in a URL'],
      [line({ req: { url: '/api/images/u/a.png?expires=1&sig=0123456789abcdef0123' } }), 'credential in a URL'],
      [line({ msg: 'vendor', apiKey: 'anything-at-all' }), 'API key value'],
      [line({ msg: 'configured with ark-int-key' }), 'known test secret "ark-int-key"'],
    ];
    for (const [text, name] of leaks) expect(secretsInLine(text), text).toContain(name);
    expect(secretsInLine(line({ msg: 'custom' }), ['s3cr3t-value']).length).toBe(0);
    expect(secretsInLine(line({ msg: 'has s3cr3t-value' }), ['s3cr3t-value'])).toEqual([
      'known test secret "s3cr3t-value"',
    ]);
  });

  it('passes clean and redacted lines', () => {
    const clean = [
      line({ msg: 'incoming request', req: { method: 'GET', url: '/api/auth/me', remoteAddress: '127.0.0.1' } }),
      line({ msg: 'request completed', res: { statusCode: 200 }, responseTime: 3.2 }),
      line({
        req: { headers: { authorization: '[Redacted]', cookie: '[Redacted]' } },
        body: { password: '[Redacted]' },
      }),
      line({ msg: 'task completed', taskId: '6f1c2a9e-8d1b-4c3f-9a7e-2b5d8c4e1f00', kind: 'generate-image' }),
      line({ msg: 'password reset mail sent', userId: '6f1c2a9e-8d1b-4c3f-9a7e-2b5d8c4e1f00' }),
    ];
    for (const text of clean) expect(secretsInLine(text), text).toEqual([]);
  });
});

describe('scanLogDir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-logscan-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails when no log was written, so it cannot pass vacuously', async () => {
    expect(() => scanLogDir(dir)).toThrow(/no log files/);
    expect(() => scanLogDir(path.join(dir, 'missing'))).toThrow(/no log files/);
    await writeFile(path.join(dir, 'empty.log'), '');
    expect(() => scanLogDir(dir)).toThrow(/empty/);
  });

  it('reports file and line of each finding', async () => {
    await writeFile(
      path.join(dir, 'a.log'),
      `${line({ msg: 'ok' })}\n${line({ msg: 'ok' })}\n${line({ headers: { authorization: 'Bearer abcdefghijklmnop' } })}\n`,
    );
    await writeFile(path.join(dir, 'b.log'), `${line({ msg: 'fine' })}\n`);
    const result = scanLogDir(dir);
    expect(result.files).toBe(2);
    expect(result.lines).toBe(4);
    expect(result.findings.map((f) => [path.basename(f.file), f.line])).toEqual([
      ['a.log', 3],
      ['a.log', 3],
    ]);
    expect(result.findings.map((f) => f.name).sort()).toEqual(['authorization header', 'bearer token']);
  });
});
