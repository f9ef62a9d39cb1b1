import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, subscriptions, users } from '../../db/schema/index.ts';
import { authHeader, createTestUser, eventually, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ManualClock } from '../clock.ts';

// The session cache must never answer from a stale user or session: each write below, however it
// reaches `users` or `sessions`, is followed at once by a request that must see it.
let t: TestApp;
let clock: ManualClock;

const adminList = (user: TestUser) =>
  t.app.inject({ method: 'GET', url: '/api/admin/creators', headers: authHeader(user.token) });
const me = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(user.token) });

beforeAll(async () => {
  clock = new ManualClock();
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('session cache', () => {
  it('sees a role change, a revocation and a deletion made behind its back in the very next request', async () => {
    const user = await createTestUser(t.ctx.db);
    expect((await adminList(user)).statusCode).toBe(403);
    expect((await adminList(user)).statusCode).toBe(403);
    await t.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    expect((await adminList(user)).statusCode).toBe(200);
    await t.ctx.database.executeSql('UPDATE users SET role = $1 WHERE id = $2', ['creator', user.id]);
    expect((await adminList(user)).statusCode).toBe(403);

    await t.ctx.db.transaction(async (tx) => {
      await tx.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.userId, user.id));
    });
    expect((await me(user)).statusCode).toBe(401);

    const gone = await createTestUser(t.ctx.db);
    expect((await me(gone)).statusCode).toBe(200);
    await t.ctx.database.executeSql('DELETE FROM users WHERE id = $1', [gone.id]);
    expect((await me(gone)).statusCode).toBe(401);
  });

  it('shows credits and subscription changes made behind its back on the very next GET /api/auth/me', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 3, subscription: false });
    const meOf = async () => (await me(user)).json().data as { credits: number; user: { subscription: unknown } };
    expect(await meOf()).toMatchObject({ credits: 3, user: { subscription: null } });
    expect(await meOf()).toMatchObject({ credits: 3, user: { subscription: null } });
    await t.ctx.database.executeSql('UPDATE users SET credits = 7 WHERE id = $1', [user.id]);
    await t.ctx.db.insert(subscriptions).values({ userId: user.id, planType: 'pro', status: 'active' });
    expect(await meOf()).toMatchObject({ credits: 7, user: { subscription: { status: 'active', planType: 'pro' } } });
    await t.ctx.database.executeSql('UPDATE subscriptions SET status = $1 WHERE user_id = $2', ['canceled', user.id]);
    expect(await meOf()).toMatchObject({ user: { subscription: { status: 'canceled', isActive: false } } });
    await t.ctx.database.executeSql('DELETE FROM subscriptions WHERE user_id = $1', [user.id]);
    expect(await meOf()).toMatchObject({ user: { subscription: null } });
  });

  it('stops at the session’s expiry', async () => {
    const user = await createTestUser(t.ctx.db);
    expect((await me(user)).statusCode).toBe(200);
    clock.advance(2 * 86_400_000);
    expect((await me(user)).statusCode).toBe(401);
    clock.advance(-2 * 86_400_000);
  });

  // With the trigger off a raw write goes unheard, which shows that the cache serves, and for how long.
  it('serves a resolved session until its TTL', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'admin' });
    expect((await adminList(user)).statusCode).toBe(200);
    await t.ctx.database.executeSql('ALTER TABLE users DISABLE TRIGGER users_change_notify');
    try {
      await t.ctx.db.update(users).set({ role: 'creator' }).where(eq(users.id, user.id));
    } finally {
      await t.ctx.database.executeSql('ALTER TABLE users ENABLE TRIGGER users_change_notify');
    }
    expect((await adminList(user)).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await adminList(user)).statusCode).toBe(403);
  });

  it('announces changes of users and sessions with the user’s id on genpro_users_changed', async () => {
    const user = await createTestUser(t.ctx.db);
    const heard: string[] = [];
    const stop = await t.ctx.database.listen?.('genpro_users_changed', (userId) => heard.push(userId));
    try {
      await t.ctx.db.update(users).set({ credits: 5 }).where(eq(users.id, user.id));
      await t.ctx.db.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.userId, user.id));
      await t.ctx.database.executeSql('DELETE FROM users WHERE id = $1', [user.id]);
      // PostgreSQL folds identical notifications of one transaction (the user row and its cascaded session) into one.
      await eventually(async () => (heard.length >= 3 ? true : undefined), { what: 'three notifications' });
      expect(new Set(heard)).toEqual(new Set([user.id]));
    } finally {
      await stop?.();
    }
  });
});
