import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect, inject, it } from 'vitest';
import type { SessionReply, VerifyCodeReply } from '../../../common/api/auth.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { closeContext, createContext, createLogger } from '../../context.ts';
import { openTestDatabase } from '../../test/databases.ts';
import { latestCode } from './testing.ts';

it('never logs passwords or session tokens (request logging on, level trace)', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger('trace', stream);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-log-'));
  const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'trace', DATA_DIR: dataDir, SEED_DEMO: 'false' });
  const database = await openTestDatabase(inject('dbTemplate'));
  const ctx = await createContext(config, { database, log });
  const app = await buildApp(ctx);
  await app.ready();
  try {
    const password = 'Very-Secret-Passw0rd!';
    const email = 'logged@example.com';
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Log', last_name: 'Check', email, password, role: 'creator' },
    });
    expect(reg.statusCode).toBe(201);
    const regToken = (reg.json() as SessionReply).data.token;

    const code = await latestCode(app, email);
    const verified = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-code',
      payload: { code },
      headers: { authorization: `Bearer ${regToken}` },
    });
    const verifiedToken = (verified.json() as VerifyCodeReply).token;

    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(login.statusCode).toBe(200);
    const loginToken = (login.json() as SessionReply).data.token;
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${loginToken}`, cookie },
    });
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: `${password}x` } });

    const output = lines.join('');
    expect(output.length).toBeGreaterThan(0);
    // The embedded outbox shows the mail (and its code) in the log on purpose…
    expect(output).toContain('mail stored in the local outbox');
    expect(output).toContain(email);
    // …but never a password or a token.
    for (const secret of [password, `${password}x`, regToken, verifiedToken, loginToken]) {
      expect(output).not.toContain(secret);
    }
  } finally {
    await app.close();
    await closeContext(ctx);
    await rm(dataDir, { recursive: true, force: true });
  }
});
