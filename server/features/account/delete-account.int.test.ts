import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_ACCOUNT_PHRASE } from '../../../common/api/account.constants.ts';
import type { DeleteAccountBody } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  bankAccounts,
  creatorProfiles,
  creditTransactions,
  mediaObjects,
  sessions,
  userSettings,
  users,
} from '../../db/schema/index.ts';
import { authHeader, createTestUser, multipart, solidPng, storeUpload } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createAdmin } from '../auth/service.ts';
import { bearer, register } from '../auth/testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const remove = (token: string, body: Partial<Record<keyof DeleteAccountBody, string>>) =>
  t.app.inject({ method: 'DELETE', url: '/api/users/delete-account', payload: body, headers: bearer(token) });

describe('DELETE /api/users/delete-account', () => {
  it('needs a session, the exact phrase and the password', async () => {
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/users/delete-account',
          payload: { password: 'x', confirmDelete: DELETE_ACCOUNT_PHRASE },
        })
      ).statusCode,
    ).toBe(401);
    const reg = await register(t.app);
    for (const confirmDelete of ['delete my account', 'DELETE MY ACCOUNT ', 'DELETE', undefined]) {
      const res = await remove(reg.token, { password: reg.password, confirmDelete });
      expect(res.statusCode, String(confirmDelete)).toBe(400);
      expect(res.json()).toMatchObject({ error: MESSAGES.account.deletePhraseMismatch });
    }
    const wrong = await remove(reg.token, { password: 'not the password', confirmDelete: DELETE_ACCOUNT_PHRASE });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: MESSAGES.account.passwordWrong });
    const [still] = await t.ctx.db.select().from(users).where(eq(users.id, reg.userId));
    expect(still).toBeDefined();
  });

  it("removes the user's rows and every stored file, and signs out; other users keep theirs", async () => {
    const reg = await register(t.app);
    // Uploads need a verified email (issue 27).
    await t.ctx.db.update(users).set({ isVerified: true }).where(eq(users.id, reg.userId));
    const bystander = await createTestUser(t.ctx.db);
    const png = await solidPng(64, 64, '#ff8800');
    const theirs = await storeUpload(t.ctx, bystander.id, png, 'image/png', 'png');

    // Files of every kind of origin: an upload through the API, a stored object, an avatar.
    const body = multipart({ type: 'ai-asset' }, { filename: 'a.png', contentType: 'image/png', data: png });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...body.headers, ...authHeader(reg.token) },
    });
    expect(uploaded.statusCode).toBe(200);
    await storeUpload(t.ctx, reg.userId, png, 'image/png', 'png');
    const avatar = multipart({}, { filename: 'me.png', contentType: 'image/png', data: png });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/users/avatar',
          payload: avatar.payload,
          headers: { ...avatar.headers, ...authHeader(reg.token) },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/creators/bank-accounts',
      payload: { accountHolderName: 'Rita', iban: 'DE89370400440532013000' },
      headers: bearer(reg.token),
    });
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/settings',
      payload: { themePreference: 'light' },
      headers: bearer(reg.token),
    });
    await t.app.inject({ method: 'GET', url: '/api/creators/profile', headers: bearer(reg.token) });

    const keys = (await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, reg.userId))).map(
      (o) => o.key,
    );
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) expect(await t.ctx.storage.head(key)).not.toBeNull();

    const res = await remove(reg.token, { password: reg.password, confirmDelete: DELETE_ACCOUNT_PHRASE });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MESSAGES.account.deleted });
    expect(String(res.headers['set-cookie'])).toMatch(/genpro_session=;/);

    for (const key of keys) expect(await t.ctx.storage.head(key), key).toBeNull();
    for (const table of [users])
      expect(await t.ctx.db.select().from(table).where(eq(table.id, reg.userId))).toEqual([]);
    for (const table of [sessions, mediaObjects, bankAccounts, userSettings, creatorProfiles, creditTransactions]) {
      expect(await t.ctx.db.select().from(table).where(eq(table.userId, reg.userId))).toEqual([]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.token) })).statusCode).toBe(
      401,
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: reg.email, password: reg.password },
        })
      ).statusCode,
    ).toBe(401);

    expect(await t.ctx.storage.head(theirs.key)).not.toBeNull();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(bystander.token) })).statusCode,
    ).toBe(200);
  });

  it('keeps the last admin and lets an admin go when another remains', async () => {
    const password = 'granite willow lantern 1';
    await createAdmin(t.ctx, { email: 'first.admin@example.com', password });
    const login = async (email: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).json().data
        .token as string;
    const firstToken = await login('first.admin@example.com');
    const refused = await remove(firstToken, { password, confirmDelete: DELETE_ACCOUNT_PHRASE });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: MESSAGES.account.lastAdmin });

    await createAdmin(t.ctx, { email: 'second.admin@example.com', password });
    const ok = await remove(firstToken, { password, confirmDelete: DELETE_ACCOUNT_PHRASE });
    expect(ok.statusCode).toBe(200);
    const secondToken = await login('second.admin@example.com');
    expect((await remove(secondToken, { password, confirmDelete: DELETE_ACCOUNT_PHRASE })).statusCode).toBe(409);
  });
});
