import type { ScheduledJob } from '../../platform/jobs/types.ts';
import { deliverNotifications, sendDueDigests } from './service.ts';
import { sendWeeklyReports } from './weekly-report.ts';

/**
 * Every five minutes, one run across all processes: notifications whose mail failed or whose sender stopped
 * are sent again, and the daily and weekly digests that are due go out.
 */
export const notificationsJob: ScheduledJob = {
  name: 'notifications.deliver',
  cron: '*/5 * * * *',
  async run(ctx) {
    const sent = await deliverNotifications(ctx);
    const digests = await sendDueDigests(ctx);
    return { sent, digests };
  },
};

/** Hourly: the weekly reports whose Monday time (in each user's zone) has come. */
export const weeklyReportJob: ScheduledJob = {
  name: 'notifications.weekly-report',
  cron: '7 * * * *',
  async run(ctx) {
    return { sent: await sendWeeklyReports(ctx) };
  },
};
