import type { ScheduledJob } from '../../platform/jobs/types.ts';
import { dispatchDuePosts } from './scheduled-posts.ts';

/**
 * The post scheduler: hands due scheduled posts to the publishing queue (`social.publish` tasks). A pg-boss
 * job run by the workers of any process (the API process with RUN_WORKERS, `npm run worker`), one run at a
 * time across all of them: once when a process's workers start (posts that fell due while none ran) and then
 * every SOCIAL_SCHEDULER_INTERVAL_SECONDS. The claim in dispatchDuePosts is atomic besides, so a post is
 * handed over once whatever runs it.
 */
export const postSchedulerJob: ScheduledJob = {
  name: 'social.post-scheduler',
  everySeconds: (ctx) => ctx.config.SOCIAL_SCHEDULER_INTERVAL_SECONDS,
  async run(ctx) {
    try {
      const sent = await dispatchDuePosts(ctx);
      if (sent > 0) ctx.log.info({ posts: sent }, 'due scheduled posts handed to the publishing queue');
      return { sent };
    } catch (error) {
      ctx.log.warn({ err: error }, 'scheduled posts dispatch failed');
      throw error;
    }
  },
};
