import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { DIGEST_LOCAL_HOUR } from '../../../common/api/notifications.constants.ts';
import { dayInZone, isValidTimeZone, wallTimeToInstant } from '../../../common/rules/scheduling.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { notificationSchedule, notifications, users } from '../../db/schema/index.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { storedSettings } from '../../platform/user-settings.ts';
import { digestMail, notificationMail } from './mails.ts';

// Account and campaign notifications (docs/notifications.md). An event is recorded in the transaction that
// makes it happen (recordNotification), so a rolled-back change tells nobody and a crash loses nothing; it is
// mailed right after the commit (deliverNotifications), or in the user's daily or weekly digest, or not at
// all when email notifications are off. The scheduled job retries what could not be sent and sends digests.

export type NotificationDeps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log' | 'config'>;
type Deps = NotificationDeps;

/** Delivery tries of one notification before it is marked failed. */
const MAX_ATTEMPTS = 3;
/** A notification claimed by a sender that never finished (a crash) is tried again after this long. */
const STALE_SENDING_MS = 10 * 60_000;
const BATCH = 100;

export interface NotificationInput {
  userId: string;
  /** e.g. 'payout.paid', 'application.accepted'. */
  kind: string;
  subject: string;
  /** The body lines, without greeting or sign-off (the mail adds them). */
  lines: readonly string[];
  /** A studio path the mail links to, e.g. '/dashboard?account=billing'. */
  path: string;
}

/** Writes the notification with the status the user's settings give it. Call inside the event's transaction. */
export async function recordNotification(db: DbOrTx, now: Date, input: NotificationInput): Promise<void> {
  const settings = await storedSettings(db, input.userId);
  const status = !settings.emailNotifications ? 'off' : settings.notificationFrequency === 'instant' ? 'due' : 'digest';
  await db.insert(notifications).values({
    userId: input.userId,
    kind: input.kind,
    subject: input.subject,
    text: input.lines.join('\n'),
    path: input.path,
    status,
    createdAt: now,
    updatedAt: now,
  });
}

type NotificationRow = typeof notifications.$inferSelect;

/**
 * Mails the notifications that are due (of one user, or everyone's): each is claimed first, so two senders
 * never mail the same one. A failed delivery is tried again by the next run, up to MAX_ATTEMPTS times.
 * Never throws: the event it tells of has happened whatever the mail does.
 */
export async function deliverNotifications(deps: Deps, userId?: string): Promise<number> {
  let sent = 0;
  try {
    const now = deps.clock.now();
    const claimable = or(
      eq(notifications.status, 'due'),
      and(eq(notifications.status, 'sending'), lt(notifications.updatedAt, new Date(now.getTime() - STALE_SENDING_MS))),
    );
    const claimed = await deps.db
      .update(notifications)
      .set({ status: 'sending', updatedAt: now })
      .where(
        inArray(
          notifications.id,
          deps.db
            .select({ id: notifications.id })
            .from(notifications)
            .where(userId ? and(claimable, eq(notifications.userId, userId)) : claimable)
            .orderBy(asc(notifications.createdAt))
            .limit(BATCH)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();
    for (const row of claimed) {
      if (await sendOne(deps, row)) sent++;
    }
  } catch (error) {
    deps.log.error({ err: error }, 'notifications could not be delivered');
  }
  return sent;
}

async function sendOne(deps: Deps, row: NotificationRow): Promise<boolean> {
  const [user] = await deps.db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, row.userId));
  if (!user) return false;
  try {
    await deps.mail.send(notificationMail(user, row, deps.config.publicUrl));
    await deps.db
      .update(notifications)
      .set({ status: 'sent', sentAt: deps.clock.now(), updatedAt: deps.clock.now() })
      .where(eq(notifications.id, row.id));
    return true;
  } catch (error) {
    const attempts = row.attempts + 1;
    const reason = mailFailureForLog(error).error;
    deps.log.warn({ notificationId: row.id, kind: row.kind, attempts, error: reason }, 'notification not delivered');
    await deps.db
      .update(notifications)
      .set({
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'due',
        attempts,
        lastError: reason.slice(0, 500),
        updatedAt: deps.clock.now(),
      })
      .where(eq(notifications.id, row.id));
    return false;
  }
}

/**
 * The latest digest time at or before `now` for a frequency: today's DIGEST_LOCAL_HOUR in the user's zone (or
 * yesterday's, before that hour), and for weekly the Monday of that week.
 */
export function digestDueAt(now: Date, zone: string, frequency: 'daily' | 'weekly'): Date {
  const tz = isValidTimeZone(zone) ? zone : 'UTC';
  const hour = `${String(DIGEST_LOCAL_HOUR).padStart(2, '0')}:00`;
  const atHourOn = (day: string) => wallTimeToInstant(day, hour, tz) as Date;
  let day = dayInZone(now, tz);
  if (atHourOn(day).getTime() > now.getTime()) day = shiftDay(day, -1);
  if (frequency === 'weekly') {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
    day = shiftDay(day, -((weekday + 6) % 7));
  }
  return atHourOn(day);
}

function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Sends each user's digest of waiting notifications when it is due: what was recorded before the latest
 * digest time, once per digest time. Settings changed since are followed: emails off drops the waiting ones,
 * instant sends them now.
 */
export async function sendDueDigests(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const waiting = await deps.db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(eq(notifications.status, 'digest'));
  let sent = 0;
  for (const { userId } of waiting) {
    try {
      if (await sendDigestOf(deps, userId, now)) sent++;
    } catch (error) {
      deps.log.error({ err: error, userId }, 'notification digest could not be sent');
    }
  }
  return sent;
}

async function sendDigestOf(deps: Deps, userId: string, now: Date): Promise<boolean> {
  const settings = await storedSettings(deps.db, userId);
  const [user] = await deps.db
    .select({ email: users.email, firstName: users.firstName, timezone: users.timezone })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return false;
  const waitingOf = eq(notifications.userId, userId);
  if (!settings.emailNotifications) {
    await deps.db
      .update(notifications)
      .set({ status: 'off', updatedAt: now })
      .where(and(waitingOf, eq(notifications.status, 'digest')));
    return false;
  }
  const frequency = settings.notificationFrequency;
  const dueAt = frequency === 'daily' || frequency === 'weekly' ? digestDueAt(now, user.timezone, frequency) : now;

  const items = await deps.db.transaction(async (tx) => {
    await tx.insert(notificationSchedule).values({ userId }).onConflictDoNothing();
    const [schedule] = await tx
      .select()
      .from(notificationSchedule)
      .where(eq(notificationSchedule.userId, userId))
      .for('update');
    const instant = frequency === 'instant';
    if (!instant && schedule?.lastDigestAt && schedule.lastDigestAt.getTime() >= dueAt.getTime()) return [];
    const rows = await tx
      .update(notifications)
      .set({ status: 'sending', updatedAt: now })
      .where(
        and(
          waitingOf,
          eq(notifications.status, 'digest'),
          instant ? lte(notifications.createdAt, now) : lt(notifications.createdAt, dueAt),
        ),
      )
      .returning();
    if (rows.length > 0 && !instant) {
      await tx
        .update(notificationSchedule)
        .set({ lastDigestAt: dueAt, updatedAt: now })
        .where(eq(notificationSchedule.userId, userId));
    }
    return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  });
  if (items.length === 0) return false;

  const ids = items.map((r) => r.id);
  try {
    await deps.mail.send(digestMail(user, items, frequency, deps.config.publicUrl));
    await deps.db
      .update(notifications)
      .set({ status: 'sent', sentAt: now, updatedAt: now })
      .where(inArray(notifications.id, ids));
    return true;
  } catch (error) {
    // Back to waiting: the next run sends them again, as the digest of the same time.
    deps.log.warn({ userId, ...mailFailureForLog(error) }, 'notification digest not delivered');
    await deps.db.transaction(async (tx) => {
      await tx
        .update(notifications)
        .set({
          status: sql`case when ${notifications.attempts} + 1 >= ${MAX_ATTEMPTS} then 'failed' else 'digest' end`,
          attempts: sql`${notifications.attempts} + 1`,
          updatedAt: now,
        })
        .where(inArray(notifications.id, ids));
      await tx
        .update(notificationSchedule)
        .set({ lastDigestAt: null, updatedAt: now })
        .where(eq(notificationSchedule.userId, userId));
    });
    return false;
  }
}
