import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminBrandsQuery,
  AdminBrandsReply,
  AdminCreatorsQuery,
  AdminCreatorsReply,
  ApproveUserReply,
  AuditLogQuery,
  AuditLogReply,
  DeleteUserReply,
} from '../../../common/api/admin.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  adminAuditLog,
  assets,
  brandProfiles,
  campaigns,
  creatorProfiles,
  mailOutbox,
  mediaObjects,
  sessions,
  users,
} from '../../db/schema/index.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeBrand, makeCreator } from '../directory/testing.ts';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user?: TestUser, payload?: unknown) =>
  t.app.inject({ method, url, headers: user ? authHeader(user.token) : {}, ...(payload ? { payload } : {}) });
const approve = (userId: string, action: string, creatorType?: string | null, as: TestUser = admin) =>
  call('POST', '/api/admin/users/approve', as, { userId, action, creatorType });
const auditFor = (targetId: string) =>
  t.ctx.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, targetId))
    .orderBy(desc(adminAuditLog.createdAt));
const statusOf = async (id: string) =>
  (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0] as typeof users.$inferSelect | undefined;
const qs = (query: AdminCreatorsQuery | AdminBrandsQuery | AuditLogQuery) =>
  new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString();
const tag = () => `zq${randomUUID().slice(0, 8)}`;

describe('admin routes refuse everyone but admins', () => {
  it('401 without a session, 403 for creators (approved too) and brands', async () => {
    const someone = randomUUID();
    const routes: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', '/api/admin/creators'],
      ['GET', '/api/admin/brands'],
      ['GET', '/api/admin/audit-log'],
      ['POST', '/api/admin/users/approve', { userId: someone, action: 'approve', creatorType: 'actor' }],
      ['POST', '/api/admin/brands/approve', { brandId: someone, action: 'approve' }],
      ['DELETE', '/api/admin/users/delete', { userId: someone }],
    ];
    const creator = await makeCreator(t.ctx.db);
    const brand = await makeBrand(t.ctx.db);
    for (const [method, url, body] of routes) {
      expect((await call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
      // Even an invalid body gets 401/403 first.
      expect((await call(method, url, undefined, body ? {} : undefined)).statusCode).toBe(401);
      for (const user of [creator, brand]) {
        const res = await call(method, url, user, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: MESSAGES.auth.forbidden });
      }
    }
    expect(await auditFor(someone)).toHaveLength(0);
  });
});

describe('POST /api/admin/users/approve', () => {
  it('requires a valid creator type to approve', async () => {
    const pending = await makeCreator(t.ctx.db, { status: 'pending' });
    for (const creatorType of [undefined, null, '']) {
      const res = await approve(pending.id, 'approve', creatorType);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: MESSAGES.admin.creatorTypeRequired });
    }
    const unknown = await approve(pending.id, 'approve', 'wizard');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: MESSAGES.admin.creatorTypeUnknown });
    expect((await approve(pending.id, 'maybe', 'actor')).statusCode).toBe(400);
    expect((await statusOf(pending.id))?.userStatus).toBe('pending');
    expect(await auditFor(pending.id)).toHaveLength(0);
  });

  it('approves a pending creator with its type, audits it, mails the creator and opens the directories', async () => {
    const pending = await makeCreator(t.ctx.db, { status: 'pending' });
    expect((await call('GET', '/api/creators', pending)).statusCode).toBe(403);

    const res = await approve(pending.id, 'approve', 'film_director');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ApproveUserReply;
    expect(body).toMatchObject({
      success: true,
      message: MESSAGES.admin.creatorApproved,
      data: { id: pending.id, user_status: 'approved_creator', creator_type: 'film_director', email: pending.email },
    });
    expect(await statusOf(pending.id)).toMatchObject({ userStatus: 'approved_creator', creatorType: 'film_director' });
    const [entry] = await auditFor(pending.id);
    expect(entry).toMatchObject({
      adminUserId: admin.id,
      adminEmail: admin.email,
      action: 'creator.approve',
      targetType: 'user',
      details: { email: pending.email, from: 'pending', to: 'approved_creator', creatorType: 'film_director' },
    });
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, pending.email));
    expect(mail?.subject).toMatch(/approved/);
    expect((await call('GET', '/api/creators', pending)).statusCode).toBe(200);

    // Decided once: a second decision is a conflict and writes nothing.
    const again = await approve(pending.id, 'reject');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: MESSAGES.admin.notPending });
    expect(await auditFor(pending.id)).toHaveLength(1);
  });

  it('rejects a pending creator to regular_user without needing a type', async () => {
    const pending = await makeCreator(t.ctx.db, { status: 'pending' });
    const res = await approve(pending.id, 'reject');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.admin.creatorRejected,
      data: { user_status: 'regular_user', creator_type: null },
    });
    expect(await statusOf(pending.id)).toMatchObject({ userStatus: 'regular_user', creatorType: null });
    const [entry] = await auditFor(pending.id);
    expect(entry).toMatchObject({ action: 'creator.reject', details: { to: 'regular_user' } });
    expect((await call('GET', '/api/creators', pending)).statusCode).toBe(403);
    expect((await approve(pending.id, 'approve', 'actor')).statusCode).toBe(409);
  });

  it('answers 404 for users who are not creators, and 409 for already approved creators', async () => {
    const brand = await makeBrand(t.ctx.db);
    expect((await approve(brand.id, 'approve', 'actor')).statusCode).toBe(404);
    expect((await approve(randomUUID(), 'reject')).statusCode).toBe(404);
    const approvedCreator = await makeCreator(t.ctx.db);
    expect((await approve(approvedCreator.id, 'reject')).statusCode).toBe(409);
  });

  it('lets one of two concurrent decisions win', async () => {
    const pending = await makeCreator(t.ctx.db, { status: 'pending' });
    const results = await Promise.all([approve(pending.id, 'approve', 'actor'), approve(pending.id, 'reject')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await auditFor(pending.id)).toHaveLength(1);
  });
});

describe('POST /api/admin/brands/approve', () => {
  it('verifies or rejects a pending brand, once, with an audit row', async () => {
    const brand = await makeBrand(t.ctx.db, { profile: { companyName: 'Acme' } });
    const res = await call('POST', '/api/admin/brands/approve', admin, { brandId: brand.id, action: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.admin.brandVerified,
      data: { id: brand.id, verification_status: 'verified', company_name: 'Acme' },
    });
    expect((await auditFor(brand.id))[0]).toMatchObject({
      action: 'brand.verify',
      targetType: 'brand',
      details: { from: 'pending', to: 'verified', companyName: 'Acme' },
    });
    const again = await call('POST', '/api/admin/brands/approve', admin, { brandId: brand.id, action: 'reject' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: MESSAGES.admin.brandNotPending });

    // A brand that never saved its profile can still be decided.
    const bare = await makeBrand(t.ctx.db);
    const rejected = await call('POST', '/api/admin/brands/approve', admin, { brandId: bare.id, action: 'reject' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [profile] = await t.ctx.db.select().from(brandProfiles).where(eq(brandProfiles.userId, bare.id));
    expect(profile?.verificationStatus).toBe('rejected');
    expect((await auditFor(bare.id))[0]).toMatchObject({ action: 'brand.reject' });

    const creator = await makeCreator(t.ctx.db);
    expect(
      (await call('POST', '/api/admin/brands/approve', admin, { brandId: creator.id, action: 'approve' })).statusCode,
    ).toBe(404);
  });
});

describe('GET /api/admin/creators and /api/admin/brands', () => {
  it('lists every creator, searches email, filters by status and sorts by credits', async () => {
    const word = tag();
    const pending = await makeCreator(t.ctx.db, { status: 'pending', profile: { bio: word }, user: { credits: 5 } });
    const rich = await makeCreator(t.ctx.db, { profile: { bio: word }, user: { credits: 900 } });
    const regular = await makeCreator(t.ctx.db, { status: 'regular_user', profile: { bio: word } });
    const hidden = await makeCreator(t.ctx.db, { profile: { bio: word }, visibility: 'private' });

    const list = async (query: string) => {
      const res = await call('GET', `/api/admin/creators?${query}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as AdminCreatorsReply;
    };
    const all = await list(`search=${word}&sort=credits`);
    // Most credits first, then newest.
    expect(all.data.map((c) => c.id)).toEqual([rich.id, pending.id, hidden.id, regular.id]);
    expect(all.data.map((c) => c.id).sort()).toEqual([pending.id, rich.id, regular.id, hidden.id].sort());
    expect(all.data.find((c) => c.id === pending.id)).toMatchObject({
      email: pending.email,
      credits: 5,
      user_status: 'pending',
      stats: { totalFollowers: null, avgEngagementRate: null },
    });
    expect(all.counts.all).toBe(all.counts.pending + all.counts.approved_creator + all.counts.regular_user);
    expect(all.counts.pending).toBeGreaterThanOrEqual(1);

    expect((await list(qs({ search: word, status: 'pending' }))).data.map((c) => c.id)).toEqual([pending.id]);
    expect((await list(`search=${word}&status=regular_user`)).data.map((c) => c.id)).toEqual([regular.id]);
    // Email search.
    expect((await list(`search=${encodeURIComponent(pending.email.toUpperCase())}`)).data.map((c) => c.id)).toEqual([
      pending.id,
    ]);
    expect((await call('GET', '/api/admin/creators?sort=random', admin)).statusCode).toBe(400);
  });

  it('lists every brand with its verification status and counts', async () => {
    const word = tag();
    const pending = await makeBrand(t.ctx.db, { profile: { companyName: `P ${word}` } });
    const rejected = await makeBrand(t.ctx.db, {
      profile: { companyName: `R ${word}`, verificationStatus: 'rejected' },
    });
    const res = await call('GET', `/api/admin/brands?search=${word}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AdminBrandsReply;
    expect(body.data.map((b) => b.id).sort()).toEqual([pending.id, rejected.id].sort());
    expect(body.data.find((b) => b.id === rejected.id)).toMatchObject({
      verification_status: 'rejected',
      email: rejected.email,
    });
    expect(body.counts.all).toBe(body.counts.pending + body.counts.verified + body.counts.rejected);
    const onlyRejected = (
      await call('GET', `/api/admin/brands?${qs({ search: word, status: 'rejected' })}`, admin)
    ).json();
    expect((onlyRejected as AdminBrandsReply).data.map((b) => b.id)).toEqual([rejected.id]);
    const byEmail = (await call('GET', `/api/admin/brands?search=${encodeURIComponent(pending.email)}`, admin)).json();
    expect((byEmail as AdminBrandsReply).data.map((b) => b.id)).toEqual([pending.id]);
  });
});

describe('DELETE /api/admin/users/delete', () => {
  it("removes the user's rows and stored files, audits it, and leaves others alone", async () => {
    const brand = await makeBrand(t.ctx.db, { profile: { companyName: 'Gone Inc' } });
    const creator = await makeCreator(t.ctx.db, { profile: { displayName: 'Gone' } });
    const bystander = await makeCreator(t.ctx.db);
    const png = await solidPng(32, 32, '#3366ff');
    const stored = await storeUpload(t.ctx, creator.id, png, 'image/png', 'png');
    const theirs = await storeUpload(t.ctx, bystander.id, png, 'image/png', 'png');
    await t.ctx.db.insert(campaigns).values({ brandUserId: brand.id, title: 'c', objective: 'o', budgetCents: 100 });

    const res = await call('DELETE', '/api/admin/users/delete', admin, { userId: creator.id });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as DeleteUserReply;
    expect(body).toMatchObject({ message: MESSAGES.admin.userDeleted, data: { userId: creator.id } });
    expect(body.data.filesDeleted).toBeGreaterThanOrEqual(1);

    expect(await statusOf(creator.id)).toBeUndefined();
    expect(await t.ctx.db.select().from(creatorProfiles).where(eq(creatorProfiles.userId, creator.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, creator.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, creator.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(assets).where(eq(assets.userId, creator.id))).toHaveLength(0);
    expect(await t.ctx.storage.head(stored.key)).toBeNull();
    expect(await t.ctx.storage.head(theirs.key)).not.toBeNull();
    // Its session no longer works.
    expect((await call('GET', '/api/creators', creator)).statusCode).toBe(401);

    const [entry] = await auditFor(creator.id);
    expect(entry).toMatchObject({
      adminUserId: admin.id,
      action: 'user.delete',
      targetType: 'user',
      details: { email: creator.email, role: 'creator', files: body.data.filesDeleted },
    });

    // A brand goes with its campaigns and profile.
    expect((await call('DELETE', '/api/admin/users/delete', admin, { userId: brand.id })).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(campaigns).where(eq(campaigns.brandUserId, brand.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(brandProfiles).where(eq(brandProfiles.userId, brand.id))).toHaveLength(0);

    // Unknown user: 404, nothing audited.
    const ghost = randomUUID();
    expect((await call('DELETE', '/api/admin/users/delete', admin, { userId: ghost })).statusCode).toBe(404);
    expect(await auditFor(ghost)).toHaveLength(0);
  });

  it('refuses to delete the acting admin or the last admin', async () => {
    const self = await call('DELETE', '/api/admin/users/delete', admin, { userId: admin.id });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ error: MESSAGES.admin.cannotDeleteSelf });

    // Another admin can be deleted while one remains; deleting the last one is refused inside the transaction.
    const other = await createTestUser(t.ctx.db, { role: 'admin' });
    const res = await call('DELETE', '/api/admin/users/delete', admin, { userId: other.id });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = await auditFor(other.id);
    expect(entry).toMatchObject({ action: 'user.delete', details: { role: 'admin' } });
  });

  it('two admins deleting each other at once cannot remove both', async () => {
    const a = await createTestUser(t.ctx.db, { role: 'admin' });
    const b = await createTestUser(t.ctx.db, { role: 'admin' });
    // Leave a and b as the only admins.
    const others = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    for (const { id } of others) {
      if (id !== a.id && id !== b.id) await t.ctx.db.update(users).set({ role: 'creator' }).where(eq(users.id, id));
    }
    try {
      const results = await Promise.all([
        call('DELETE', '/api/admin/users/delete', a, { userId: b.id }),
        call('DELETE', '/api/admin/users/delete', b, { userId: a.id }),
      ]);
      // One wins; the other is refused (409: the last admin, or 401: its own session went with it), never a 500.
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      for (const code of codes) expect([200, 401, 409]).toContain(code);
      const remaining = await t.ctx.db.select().from(users).where(eq(users.role, 'admin'));
      expect(remaining.length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const { id } of others) {
        if (id !== a.id && id !== b.id) await t.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
      }
    }
  });
});

describe('GET /api/admin/audit-log', () => {
  it('pages the actions newest first', async () => {
    const pending = await makeCreator(t.ctx.db, { status: 'pending' });
    expect((await approve(pending.id, 'approve', 'musician')).statusCode).toBe(200);
    const res = await call('GET', `/api/admin/audit-log?${qs({ limit: 2 })}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AuditLogReply;
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({
      action: 'creator.approve',
      target_id: pending.id,
      admin_email: admin.email,
      target_type: 'user',
    });
    expect(body.pagination.hasMore).toBe(true);
    expect(body.pagination.total).toBeGreaterThan(2);
  });
});

describe('OpenAPI', () => {
  it('documents the directory and admin routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const route of [
      '/api/creators',
      '/api/brands',
      '/api/creators/{id}',
      '/api/brands/{id}',
      '/api/admin/creators',
      '/api/admin/brands',
      '/api/admin/users/approve',
      '/api/admin/brands/approve',
      '/api/admin/users/delete',
      '/api/admin/audit-log',
    ]) {
      expect(paths).toContain(route);
    }
  });
});
