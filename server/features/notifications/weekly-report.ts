import { and, eq, gt, gte, lt, sql } from 'drizzle-orm';
import { formatEuros } from '../../../common/api/money.ts';
import type { AppContext } from '../../context.ts';
import {
  campaignApplications,
  campaigns,
  creditTransactions,
  moneyTransactions,
  notificationSchedule,
  socialPosts,
  tasks,
  users,
} from '../../db/schema/index.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { storedSettings } from '../../platform/user-settings.ts';
import { digestDueAt, type NotificationDeps } from './service.ts';

// The "Weekly reports" setting (on by default): on Monday at the digest hour in the user's time zone, a
// summary of the seven days before, from the studio's own records. A week with nothing in it sends nothing.

type Deps = NotificationDeps;

const WEEK_MS = 7 * 86_400_000;
const BATCH = 500;

interface WeekFigures {
  finishedTasks: number;
  creditsUsed: number;
  postsPublished: number;
  /** Over the posts published in the week that report them; null when none does. */
  views: number | null;
  likes: number | null;
  earnedCents: number;
  applicationsReceived: number;
}

async function weekFigures(deps: Pick<AppContext, 'db'>, userId: string, from: Date, to: Date) {
  const inWeek = (column: Parameters<typeof gte>[0]) => and(gte(column, from), lt(column, to));
  const [[done], [credits], [posts], [earned], [applications]] = await Promise.all([
    deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(and(eq(tasks.userId, userId), eq(tasks.status, 'completed'), inWeek(tasks.finishedAt))),
    deps.db
      .select({
        used: sql<number>`coalesce(sum(case when ${creditTransactions.type} = 'deduction' then ${creditTransactions.amount}
          when ${creditTransactions.source} = 'refund' then -${creditTransactions.amount} else 0 end), 0)::int`,
      })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, userId), inWeek(creditTransactions.createdAt))),
    deps.db
      .select({
        n: sql<number>`count(*)::int`,
        views: sql<number | null>`sum(${socialPosts.views})::int`,
        likes: sql<number | null>`sum(${socialPosts.likes})::int`,
      })
      .from(socialPosts)
      .where(and(eq(socialPosts.userId, userId), eq(socialPosts.status, 'published'), inWeek(socialPosts.publishedAt))),
    deps.db
      .select({ cents: sql<number>`coalesce(sum(${moneyTransactions.amountCents}), 0)::int` })
      .from(moneyTransactions)
      .where(
        and(
          eq(moneyTransactions.userId, userId),
          eq(moneyTransactions.account, 'earnings'),
          eq(moneyTransactions.source, 'collaboration_payout'),
          inWeek(moneyTransactions.createdAt),
        ),
      ),
    deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(campaignApplications)
      .innerJoin(campaigns, eq(campaigns.id, campaignApplications.campaignId))
      .where(and(eq(campaigns.brandUserId, userId), inWeek(campaignApplications.createdAt))),
  ]);
  return {
    finishedTasks: Number(done?.n ?? 0),
    creditsUsed: Math.max(0, Number(credits?.used ?? 0)),
    postsPublished: Number(posts?.n ?? 0),
    views: posts?.views === null || posts?.views === undefined ? null : Number(posts.views),
    likes: posts?.likes === null || posts?.likes === undefined ? null : Number(posts.likes),
    earnedCents: Number(earned?.cents ?? 0),
    applicationsReceived: Number(applications?.n ?? 0),
  } satisfies WeekFigures;
}

const isQuiet = (f: WeekFigures) =>
  f.finishedTasks === 0 &&
  f.creditsUsed === 0 &&
  f.postsPublished === 0 &&
  f.earnedCents === 0 &&
  f.applicationsReceived === 0;

function weeklyReportLines(f: WeekFigures): string[] {
  const lines = [
    `Generations finished: ${f.finishedTasks}`,
    `Credits used: ${f.creditsUsed}`,
    `Posts published: ${f.postsPublished}`,
  ];
  if (f.postsPublished > 0) {
    lines.push(`Views of those posts: ${f.views ?? 'not reported yet'}`);
    lines.push(`Likes of those posts: ${f.likes ?? 'not reported yet'}`);
  }
  if (f.earnedCents > 0) lines.push(`Earnings from completed collaborations: ${formatEuros(f.earnedCents)}`);
  if (f.applicationsReceived > 0) lines.push(`Applications to your campaigns: ${f.applicationsReceived}`);
  return lines;
}

const dayLabel = (d: Date, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: zone }).format(d);

/**
 * Sends the weekly reports that are due: verified users with weekly reports on whose Monday report time has
 * passed since their last report. Each user is marked before the mail goes, so a report is sent at most once.
 */
export async function sendWeeklyReports(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  let sent = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await deps.db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        timezone: users.timezone,
        last: notificationSchedule.lastWeeklyReportAt,
      })
      .from(users)
      .leftJoin(notificationSchedule, eq(notificationSchedule.userId, users.id))
      .where(and(eq(users.isVerified, true), gt(users.id, after)))
      .orderBy(users.id)
      .limit(BATCH);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]?.id ?? after;
    for (const user of batch) {
      const dueAt = digestDueAt(now, user.timezone, 'weekly');
      if (user.last && user.last.getTime() >= dueAt.getTime()) continue;
      try {
        if (await reportOne(deps, user, dueAt)) sent++;
      } catch (error) {
        deps.log.error({ err: error, userId: user.id }, 'weekly report could not be prepared');
      }
    }
  }
  return sent;
}

async function reportOne(
  deps: Deps,
  user: { id: string; email: string; firstName: string; timezone: string },
  dueAt: Date,
): Promise<boolean> {
  const now = deps.clock.now();
  // Claim this week's report (one sender across processes), then decide whether there is anything to say.
  const claimed = await deps.db.transaction(async (tx) => {
    await tx.insert(notificationSchedule).values({ userId: user.id }).onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(notificationSchedule)
      .where(eq(notificationSchedule.userId, user.id))
      .for('update');
    if (row?.lastWeeklyReportAt && row.lastWeeklyReportAt.getTime() >= dueAt.getTime()) return false;
    await tx
      .update(notificationSchedule)
      .set({ lastWeeklyReportAt: dueAt, updatedAt: now })
      .where(eq(notificationSchedule.userId, user.id));
    return true;
  });
  if (!claimed) return false;
  if (!(await storedSettings(deps.db, user.id)).weeklyReports) return false;
  const from = new Date(dueAt.getTime() - WEEK_MS);
  const figures = await weekFigures(deps, user.id, from, dueAt);
  if (isQuiet(figures)) return false;
  const base = deps.config.publicUrl.replace(/\/$/, '');
  const zone = user.timezone;
  const last = new Date(dueAt.getTime() - 86_400_000);
  try {
    await deps.mail.send({
      to: user.email,
      subject: `Your GenPro Studio week: ${dayLabel(from, zone)} – ${dayLabel(last, zone)}`,
      text: [
        `Hi ${user.firstName},`,
        '',
        `Your week in GenPro Studio (${dayLabel(from, zone)} – ${dayLabel(last, zone)}):`,
        '',
        ...weeklyReportLines(figures),
        '',
        `${base}/dashboard`,
        '',
        '—',
        `You get this report because weekly reports are on. Change it in Settings: ${base}/dashboard?account=settings`,
      ].join('\n'),
    });
    return true;
  } catch (error) {
    deps.log.warn({ userId: user.id, ...mailFailureForLog(error) }, 'weekly report not delivered');
    return false;
  }
}
