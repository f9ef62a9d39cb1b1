import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application, Campaign } from '../../../common/api/campaigns.ts';
import type { PayoutReply } from '../../../common/api/payouts.ts';
import { mailOutbox, moneyTransactions, notifications, sessions } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { startSmtpSink } from '../../platform/mail/smtp-sink.ts';
import { creditMoney } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { notificationsJob, weeklyReportJob } from './jobs.ts';
import { deliverNotifications } from './service.ts';

// A Wednesday, 12:00 UTC.
const START = new Date('2030-05-08T12:00:00Z');
let t: TestApp;
let clock: ManualClock;
let admin: TestUser;

beforeAll(async () => {
  clock = new ManualClock(START);
  // No workers: the scheduled jobs run when the test says, not when their cron fires mid-test.
  t = await createTestApp({ clock, env: { RUN_WORKERS: 'false' } });
  admin = await userAs(t, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

/** A test user whose session outlives the test clock's dates (the fixture's lasts a day of real time). */
async function userAs(app: TestApp, options: { role: 'creator' | 'brand' | 'admin' }): Promise<TestUser> {
  const user = await createTestUser(app.ctx.db, options);
  await app.ctx.db
    .update(sessions)
    .set({ expiresAt: new Date('2100-01-01T00:00:00Z') })
    .where(eq(sessions.userId, user.id));
  return user;
}

type Method = 'GET' | 'POST' | 'PUT';
async function api<T = unknown>(method: Method, url: string, user: TestUser, payload?: object): Promise<T> {
  const res = await t.app.inject({ method, url, payload, headers: authHeader(user.token) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
}

const mailsTo = (user: TestUser) =>
  t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email)).orderBy(desc(mailOutbox.createdAt));

const notificationsOf = (user: TestUser) =>
  t.ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));

/** A creator with €`euros` of earnings and a bank account. */
async function earningCreator(euros: number): Promise<TestUser> {
  const creator = await userAs(t, { role: 'creator' });
  await creditMoney(t.ctx.db, {
    userId: creator.id,
    account: 'earnings',
    amountCents: euros * 100,
    source: 'collaboration_payout',
    referenceId: randomUUID(),
    description: 'Campaign completed',
  });
  await api('POST', '/api/creators/bank-accounts', creator, {
    accountHolderName: 'Rana Haddad',
    iban: 'DE89370400440532013000',
  });
  return creator;
}

async function payoutDecided(creator: TestUser, amount: number, decision: 'mark-paid' | 'mark-failed') {
  const { data } = await api<PayoutReply>('POST', '/api/creators/payouts', creator, { amount });
  await api('POST', `/api/admin/payouts/${data.id}/${decision}`, admin, {
    ...(decision === 'mark-paid' ? { reference: 'SEPA-4711' } : { reason: 'The bank returned the transfer' }),
  });
}

describe('notifications', () => {
  it('mail the creator at once when an admin pays or fails a payout; with email notifications off, nothing is sent', async () => {
    const creator = await earningCreator(100);
    await payoutDecided(creator, 40, 'mark-paid');
    const [paid] = await mailsTo(creator);
    expect(paid?.subject).toBe('Your payout of €40.00 has been paid');
    expect(paid?.text).toContain(
      '€40.00 from your earnings was paid to the bank account ending in 3000 (reference SEPA-4711).',
    );
    expect(paid?.text).toContain('/dashboard?account=billing');
    expect(paid?.text).toContain('email notifications are on');

    await payoutDecided(creator, 20, 'mark-failed');
    const [failed] = await mailsTo(creator);
    expect(failed?.subject).toBe('Your payout of €20.00 could not be paid');
    expect(failed?.text).toContain('failed: The bank returned the transfer');
    expect(failed?.text).toContain('The amount is back in your earnings');

    const quiet = await earningCreator(100);
    await api('PUT', '/api/users/settings', quiet, { emailNotifications: false });
    await payoutDecided(quiet, 40, 'mark-paid');
    expect(await mailsTo(quiet)).toHaveLength(0);
    expect((await notificationsOf(quiet)).map((n) => [n.kind, n.status])).toEqual([['payout.paid', 'off']]);
    // The job never sends what was recorded while notifications were off.
    await notificationsJob.run(t.ctx);
    expect(await mailsTo(quiet)).toHaveLength(0);
  });

  it('tell the brand of an application and the creator of the decision and of a completed collaboration', async () => {
    const brand = await userAs(t, { role: 'brand' });
    await creditMoney(t.ctx.db, {
      userId: brand.id,
      account: 'wallet',
      amountCents: 50_000,
      source: 'topup',
      referenceId: randomUUID(),
      description: 'test top-up',
    });
    const { data: campaign } = await api<{ data: Campaign }>('POST', '/api/campaigns', brand, {
      title: 'Spring launch',
      description: 'Our new running shoe',
      objective: 'Awareness for the spring running shoe',
      budget: 200,
      platforms: ['instagram'],
      contentTypes: ['video'],
      deliverables: [{ type: 'Instagram reels', quantity: 1, platform: 'instagram', contentType: 'video' }],
    });
    const url = `/api/campaigns/${campaign.id}/applications`;
    const chosen = await userAs(t, { role: 'creator' });
    const other = await userAs(t, { role: 'creator' });
    const { data: first } = await api<{ data: Application }>('POST', url, chosen, { message: 'I run daily', rate: 80 });
    const { data: second } = await api<{ data: Application }>('POST', url, other, { message: 'Pick me', rate: 90 });

    const toBrand = await mailsTo(brand);
    expect(toBrand.map((m) => m.subject)).toEqual([
      'New application to “Spring launch”',
      'New application to “Spring launch”',
    ]);
    expect(toBrand[1]?.text).toContain('Test User applied for €80.00:');
    expect(toBrand[1]?.text).toContain('“I run daily”');
    expect(toBrand[1]?.text).toContain(`/dashboard/campaigns/${campaign.id}/manage`);

    await api('POST', `/api/applications/${first.id}/accept`, brand);
    await api('POST', `/api/applications/${second.id}/decline`, brand);
    expect((await mailsTo(chosen)).map((m) => m.subject)).toEqual([
      "You're in: “Spring launch” accepted your application",
    ]);
    expect((await mailsTo(other)).map((m) => m.subject)).toEqual(['Your application to “Spring launch” was declined']);

    const { data: collaborations } = await api<{ data: Array<{ id: string }> }>(
      'GET',
      `/api/campaigns/${campaign.id}/collaborations`,
      brand,
    );
    await api('POST', `/api/collaborations/${collaborations[0]?.id}/complete`, brand);
    const [done] = await mailsTo(chosen);
    expect(done?.subject).toBe('“Spring launch” is complete: €80.00 added to your earnings');
    // A replayed completion pays nothing and tells nothing.
    await api('POST', `/api/collaborations/${collaborations[0]?.id}/complete`, brand);
    expect(await mailsTo(chosen)).toHaveLength(2);
  });

  it("send a daily digest at 08:00 in the user's time zone, of what came before it, once", async () => {
    clock.set(START);
    const creator = await earningCreator(100);
    await api('PUT', '/api/users/settings', creator, { notificationFrequency: 'daily', timezone: 'Asia/Tokyo' });
    // 21:00 in Tokyo: the payout is paid, nothing is mailed yet.
    await payoutDecided(creator, 30, 'mark-paid');
    expect(await mailsTo(creator)).toHaveLength(0);
    expect((await notificationsOf(creator))[0]?.status).toBe('digest');

    // Tokyo's next 08:00 is 23:00 UTC. At 07:59 there, nothing; at 08:00, one digest.
    clock.set(new Date('2030-05-08T22:59:00Z'));
    await notificationsJob.run(t.ctx);
    expect(await mailsTo(creator)).toHaveLength(0);
    clock.set(new Date('2030-05-08T23:00:00Z'));
    expect(await notificationsJob.run(t.ctx)).toMatchObject({ digests: 1 });
    const [digest] = await mailsTo(creator);
    expect(digest?.subject).toBe('Your daily GenPro Studio digest: 1 update');
    expect(digest?.text).toContain('• Your payout of €30.00 has been paid');
    expect((await notificationsOf(creator))[0]).toMatchObject({ status: 'sent' });
    await notificationsJob.run(t.ctx);
    expect(await mailsTo(creator)).toHaveLength(1);

    // Two events during the next day come together the morning after.
    clock.set(new Date('2030-05-09T03:00:00Z'));
    await payoutDecided(creator, 10, 'mark-failed');
    await payoutDecided(creator, 10, 'mark-paid');
    clock.set(new Date('2030-05-09T22:00:00Z'));
    await notificationsJob.run(t.ctx);
    expect(await mailsTo(creator)).toHaveLength(1);
    clock.set(new Date('2030-05-09T23:05:00Z'));
    await notificationsJob.run(t.ctx);
    const [second] = await mailsTo(creator);
    expect(second?.subject).toBe('Your daily GenPro Studio digest: 2 updates');
    expect(second?.text.indexOf('could not be paid')).toBeLessThan(second?.text.indexOf('has been paid') ?? 0);
  });

  it('follow a change of settings: waiting updates go at once when switched to instant, and are dropped when off', async () => {
    clock.set(START);
    const creator = await earningCreator(100);
    await api('PUT', '/api/users/settings', creator, { notificationFrequency: 'weekly' });
    await payoutDecided(creator, 15, 'mark-paid');
    expect(await mailsTo(creator)).toHaveLength(0);
    await api('PUT', '/api/users/settings', creator, { notificationFrequency: 'instant' });
    await notificationsJob.run(t.ctx);
    expect((await mailsTo(creator))[0]?.subject).toBe('Your latest GenPro Studio digest: 1 update');

    await api('PUT', '/api/users/settings', creator, { notificationFrequency: 'daily' });
    await payoutDecided(creator, 15, 'mark-paid');
    await api('PUT', '/api/users/settings', creator, { emailNotifications: false });
    clock.set(new Date('2030-05-10T12:00:00Z'));
    await notificationsJob.run(t.ctx);
    expect(await mailsTo(creator)).toHaveLength(1);
    expect((await notificationsOf(creator)).map((n) => n.status).sort()).toEqual(['off', 'sent']);
  });

  it("send a weekly report on Monday at 08:00 in the user's zone, only of a week with something in it, once", async () => {
    // Monday 2030-05-13, 08:00 in Berlin (06:00 UTC); the week is 6–12 May.
    clock.set(new Date('2030-05-10T09:00:00Z'));
    const busy = await userAs(t, { role: 'creator' });
    await api('PUT', '/api/users/settings', busy, { timezone: 'Europe/Berlin' });
    await creditMoney(t.ctx.db, {
      userId: busy.id,
      account: 'earnings',
      amountCents: 1234,
      source: 'collaboration_payout',
      referenceId: randomUUID(),
      description: 'Campaign completed',
    });
    const idle = await userAs(t, { role: 'creator' });
    const optedOut = await userAs(t, { role: 'creator' });
    await api('PUT', '/api/users/settings', optedOut, { weeklyReports: false, timezone: 'Europe/Berlin' });
    await creditMoney(t.ctx.db, {
      userId: optedOut.id,
      account: 'earnings',
      amountCents: 500,
      source: 'collaboration_payout',
      referenceId: randomUUID(),
      description: 'Campaign completed',
    });

    // The ledger stamps rows with the database's time: put them in the test clock's week.
    await t.ctx.db
      .update(moneyTransactions)
      .set({ createdAt: new Date('2030-05-10T09:00:00Z') })
      .where(inArray(moneyTransactions.userId, [busy.id, optedOut.id]));
    const reportsTo = async (user: TestUser) =>
      (await mailsTo(user)).filter((m) => m.subject.startsWith('Your GenPro Studio week'));
    clock.set(new Date('2030-05-13T05:59:00Z'));
    await weeklyReportJob.run(t.ctx);
    expect(await reportsTo(busy)).toHaveLength(0);
    clock.set(new Date('2030-05-13T06:00:00Z'));
    await weeklyReportJob.run(t.ctx);
    const [report] = await reportsTo(busy);
    expect(report?.subject).toBe('Your GenPro Studio week: 6 May – 12 May');
    expect(report?.text).toContain('Earnings from completed collaborations: €12.34');
    expect(report?.text).toContain('Posts published: 0');
    expect(report?.text).toContain('weekly reports are on');
    expect(await reportsTo(idle)).toHaveLength(0);
    expect(await reportsTo(optedOut)).toHaveLength(0);
    clock.set(new Date('2030-05-13T07:00:00Z'));
    await weeklyReportJob.run(t.ctx);
    expect(await reportsTo(busy)).toHaveLength(1);
  });

  it('try a failed delivery again, three times in all, and keep the reason', async () => {
    const rejecting = await startSmtpSink({ rejectRecipients: true });
    const other = await createTestApp({ clock, env: { SMTP_URL: rejecting.url, RUN_WORKERS: 'false' } });
    try {
      const creator = await userAs(other, { role: 'creator' });
      await other.ctx.db.insert(notifications).values({
        userId: creator.id,
        kind: 'payout.paid',
        subject: 'Your payout of €5.00 has been paid',
        text: '€5.00 from your earnings was paid.',
        path: '/dashboard?account=billing',
        status: 'due',
      });
      const row = () =>
        other.ctx.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, creator.id)))
          .then((rows) => rows[0]);
      expect(await deliverNotifications(other.ctx, creator.id)).toBe(0);
      expect(await row()).toMatchObject({ status: 'due', attempts: 1 });
      expect((await row())?.lastError).toMatch(/550|mailbox unavailable/i);
      await notificationsJob.run(other.ctx);
      await notificationsJob.run(other.ctx);
      expect(await row()).toMatchObject({ status: 'failed', attempts: 3 });
      await notificationsJob.run(other.ctx);
      expect(await row()).toMatchObject({ attempts: 3 });
    } finally {
      await other.close();
      await rejecting.close();
    }
  });
});
