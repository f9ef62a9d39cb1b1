// Account and campaign notifications (docs/notifications.md): each event a user should hear about is written
// in the transaction that made it happen, then mailed at once, in a daily or weekly digest, or not at all, as
// the user's settings say. notification_schedule remembers the last digest and weekly report per user.
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users.ts';

export const NOTIFICATION_STATUSES = ['due', 'sending', 'digest', 'sent', 'off', 'failed'] as const;

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** e.g. 'payout.paid', 'application.accepted' (NOTIFICATION_KINDS). */
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The studio page the mail links to, e.g. '/dashboard?account=billing'. */
    path: text('path').notNull(),
    /**
     * due: to be mailed now; sending: claimed by a sender; digest: waits for the daily or weekly digest;
     * sent; off: email notifications were off; failed: delivery failed NOTIFICATION_MAX_ATTEMPTS times.
     */
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('notifications_status_idx').on(t.status, t.createdAt), index('notifications_user_idx').on(t.userId)],
);

export const notificationSchedule = pgTable('notification_schedule', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
  lastWeeklyReportAt: timestamp('last_weekly_report_at', { withTimezone: true }),
  ...timestamps,
});
