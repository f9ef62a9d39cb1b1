import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { type AppContext, closeContext, createContext, createLogger } from '../context.ts';
import type { Database } from '../db/client.ts';
import { serverSecrets } from '../db/schema/index.ts';
import { seal, unseal } from '../features/security/secret-box.ts';
import { STUDIO_JOBS } from '../jobs.ts';
import { openTestDatabase } from '../test/databases.ts';
import { signMediaUrl } from './media/signing.ts';

// Generated secrets live in the database (server_secrets), so every process of a database — whatever its
// DATA_DIR — signs and seals alike; a secret an earlier version generated into DATA_DIR/secrets is adopted.

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataDir(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-secrets-'));
  dirs.push(dir);
  if (Object.keys(files).length > 0) await mkdir(path.join(dir, 'secrets'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, 'secrets', name), text);
  return dir;
}

/** A context as a process with this DATA_DIR (and env) would make it on `database`, its log lines in `lines`. */
async function processContext(database: Database, dir: string, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const log = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, SEED_DEMO: 'false', RUN_WORKERS: 'false', ...env });
  const ctx = await createContext(config, STUDIO_JOBS, { database, log });
  return { ctx, lines };
}

/** Stops the contexts' queues, then closes their shared database once. */
async function closeAll(...contexts: AppContext[]): Promise<void> {
  for (const ctx of contexts.slice(1)) await ctx.jobs.stop();
  if (contexts[0]) await closeContext(contexts[0]);
}

const IMAGE = '/api/images/upload/2030/01/00000000-0000-4000-8000-000000000000.png';

describe('generated secrets', () => {
  it('are created once in the database and loaded alike by every context, whatever its DATA_DIR', async () => {
    const database = await openTestDatabase(inject('dbTemplate'));
    const [dirA, dirB] = [await dataDir(), await dataDir()];
    const a = await processContext(database, dirA);
    const b = await processContext(database, dirB);
    try {
      expect(a.ctx.config.storedSecrets?.APP_SECRET?.length).toBeGreaterThanOrEqual(32);
      expect(b.ctx.config.storedSecrets).toEqual(a.ctx.config.storedSecrets);
      expect(unseal(b.ctx.config, 'totp-secret', seal(a.ctx.config, 'totp-secret', 'JBSWY3DPEHPK3PXP'))).toBe(
        'JBSWY3DPEHPK3PXP',
      );
      const now = new Date('2030-01-01T00:00:00Z');
      expect(signMediaUrl(b.ctx.config, IMAGE, 60, now)).toBe(signMediaUrl(a.ctx.config, IMAGE, 60, now));
      const rows = await a.ctx.db.select().from(serverSecrets);
      expect(rows.map((r) => r.name).sort()).toEqual(['app-secret', 'media-url-secret']);
      // Nothing is written beside the data any more.
      expect(await readdir(dirA)).not.toContain('secrets');
      expect(await readdir(dirB)).not.toContain('secrets');
      expect(a.lines.join('')).toContain('APP_SECRET is unset: generated one, kept in the database (server_secrets)');
      for (const row of rows) {
        for (const line of [...a.lines, ...b.lines]) expect(line).not.toContain(row.value);
      }
    } finally {
      await closeAll(a.ctx, b.ctx);
    }
  });

  it('adopt a secret generated earlier into DATA_DIR/secrets, so what it sealed still opens', async () => {
    const database = await openTestDatabase(inject('dbTemplate'));
    const earlier = randomBytes(48).toString('base64url');
    // What an earlier version sealed with the secret it kept in DATA_DIR/secrets/app-secret.
    const sealed = seal({ storedSecrets: { APP_SECRET: Buffer.from(earlier, 'base64url') } }, 'totp-secret', 'OLD2FA');
    const a = await processContext(database, await dataDir({ 'app-secret': `${earlier}\n` }));
    // Another machine's DATA_DIR with its own earlier secret: the database's wins, with a warning.
    const other = randomBytes(48).toString('base64url');
    const b = await processContext(database, await dataDir({ 'app-secret': other }));
    try {
      expect(unseal(a.ctx.config, 'totp-secret', sealed)).toBe('OLD2FA');
      expect(unseal(b.ctx.config, 'totp-secret', sealed)).toBe('OLD2FA');
      const rows = await a.ctx.db.select().from(serverSecrets);
      expect(rows.find((r) => r.name === 'app-secret')?.value).toBe(earlier);
      expect(a.lines.join('')).toMatch(
        /APP_SECRET is unset: the secret generated earlier in \S+app-secret is now kept/,
      );
      expect(b.lines.join('')).toContain('holds another generated secret than the database');
      for (const line of [...a.lines, ...b.lines]) {
        expect(line).not.toContain(earlier);
        expect(line).not.toContain(other);
      }
      // The same secret set as the variable (base64url: and its value) opens it too.
      expect(unseal({ APP_SECRET: `base64url:${earlier}` }, 'totp-secret', sealed)).toBe('OLD2FA');
    } finally {
      await closeAll(a.ctx, b.ctx);
    }
  });

  it('give way to configured values, which are never stored', async () => {
    const database = await openTestDatabase(inject('dbTemplate'));
    const appSecret = 'configured-app-secret-0123456789abcdef';
    const a = await processContext(database, await dataDir(), { APP_SECRET: appSecret });
    try {
      expect(a.ctx.config.storedSecrets?.APP_SECRET).toBeUndefined();
      const rows = await a.ctx.db.select().from(serverSecrets);
      expect(rows.map((r) => r.name)).toEqual(['media-url-secret']);
      const sealed = seal(a.ctx.config, 'social-token', 'token');
      expect(unseal({ APP_SECRET: appSecret }, 'social-token', sealed)).toBe('token');
    } finally {
      await closeAll(a.ctx);
    }
  });
});
