// The real studio process in its two modes: `NODE_ENV=production` with nothing else set refuses to start,
// naming SMTP_URL, TRUST_PROXY and PUBLIC_URL (an http:// PUBLIC_URL is refused too,
// issue 27); with SMTP_URL it starts without demo accounts, outbox or local checkout, on loopback only;
// demo mode with HOST set warns that the demo accounts are reachable.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../platform/mail/smtp-sink.ts';
import { startStudioProcess, studioPort } from '../reliability/crash-studio.ts';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-modes-'));
  dirs.push(dir);
  return dir;
}

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The start-up banner, which the process may print just after /healthz first answers. */
async function banner(run: { output(): string }): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (!run.output().includes('API docs:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return run.output();
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

describe('the studio process', () => {
  it('refuses NODE_ENV=production with nothing else set, naming SMTP_URL, TRUST_PROXY and PUBLIC_URL', {
    timeout: 60_000,
  }, async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: await dataDir() };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('SMTP_URL: required when NODE_ENV=production');
    // Behind a proxy, an unset TRUST_PROXY makes every client the proxy (one attacker locks everyone out).
    expect(output).toContain('TRUST_PROXY: required when NODE_ENV=production');
    expect(output).toContain('TRUST_PROXY=false to confirm it');
    // Session cookies without Secure on an http:// PUBLIC_URL.
    expect(output).toContain("PUBLIC_URL: must be the studio's public https:// address when NODE_ENV=production");
  });

  it('refuses NODE_ENV=production with an http:// PUBLIC_URL, naming PUBLIC_URL and the opt-out', {
    timeout: 60_000,
  }, async () => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      SMTP_URL: sink.url,
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'http://studio.example',
      DATA_DIR: await dataDir(),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(
      "PUBLIC_URL: must be the studio's public https:// address when NODE_ENV=production (got http://studio.example)",
    );
    expect(output).toContain('SECURE_COOKIES=false');
    expect(output).not.toContain('TRUST_PROXY');
  });

  it.each(['server/main.ts', 'server/worker.ts'])(
    '%s refuses NODE_ENV=production on PostgreSQL without APP_SECRET and MEDIA_URL_SECRET, naming both',
    {
      timeout: 60_000,
    },
    async (entry) => {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        SMTP_URL: sink.url,
        // Never reached: the configuration is refused before any connection.
        DATABASE_URL: 'postgres://genpro@127.0.0.1:1/genpro',
        MEDIA_URL_SECRET: 'm'.repeat(40),
        DATA_DIR: await dataDir(),
      };
      const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(
        'APP_SECRET and MEDIA_URL_SECRET: both required when NODE_ENV=production with DATABASE_URL (unset: APP_SECRET)',
      );
      expect(output).toContain('protects nothing in a database dump');
      expect(output).toContain('DATA_DIR/secrets');
      expect(output).not.toContain('m'.repeat(40));
      expect(output).not.toContain('ECONNREFUSED');
    },
  );

  it('in production: no demo accounts, no outbox, no local checkout, loopback only', { timeout: 150_000 }, async () => {
    const port = await studioPort();
    const run = await startStudioProcess({
      dataDir: await dataDir(),
      port,
      env: {
        NODE_ENV: 'production',
        SMTP_URL: sink.url,
        TRUST_PROXY: 'false',
        PUBLIC_URL: 'https://studio.example',
        HOST: '',
        LOG_LEVEL: 'info',
      },
    });
    try {
      const output = await banner(run);
      expect(output).toContain(`listening on 127.0.0.1:${port}`);
      expect(output).toContain('payments: off (set STRIPE_SECRET_KEY)');
      // No vendor key and no LOCAL_ENGINES: nothing can generate, and the banner says so and what enables it.
      expect(output).toMatch(
        /engines: 0 models on vendors, 0 on the local previews, \d+ unavailable \(set vendor keys or LOCAL_ENGINES=true/,
      );
      expect(output).not.toContain('Demo accounts');
      expect(output).not.toContain('Warning:');
      const login = await fetch(`${run.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@genpro.local', password: 'genpro-admin' }),
      });
      expect(login.status).toBe(401);
      for (const url of ['/dev/mail', '/dev/mail.json', '/checkout/local/00000000-0000-4000-8000-000000000000']) {
        expect((await fetch(`${run.baseUrl}${url}`)).status, url).toBe(404);
      }
      const external = externalAddress();
      if (external) {
        await expect(
          fetch(`http://${external}:${port}/healthz`, { signal: AbortSignal.timeout(3000) }),
        ).rejects.toThrow();
      }
    } finally {
      await run.stop();
    }
  });

  it('in demo mode with HOST set: prints the demo accounts and warns they are reachable', {
    timeout: 150_000,
  }, async () => {
    const run = await startStudioProcess({
      dataDir: await dataDir(),
      port: await studioPort(),
      env: { HOST: '0.0.0.0' },
    });
    try {
      const output = await banner(run);
      expect(output).toContain('admin@genpro.local');
      expect(output).toMatch(/Warning: HOST=0\.0\.0\.0 opens the studio to other machines, and the demo accounts/);
    } finally {
      await run.stop();
    }
  });
});
