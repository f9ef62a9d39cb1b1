// Scheduled posts after they are created (posts.ts creates them): listing, editing, cancelling, the calendar,
// publishing again what failed, and handing due posts to the publishing workers.

import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { CalendarDay, ScheduledPost, SocialPlatform } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  dayInZone,
  dayStart,
  editedMessage,
  isChangeable,
  nextDay,
  statsOf,
} from '../../../common/rules/scheduling.ts';
import type { AppContext } from '../../context.ts';
import { socialPosts, tasks } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { storedSettings } from '../../platform/user-settings.ts';
import {
  assertFitsWhereRefused,
  momentOf,
  type PostRow,
  PUBLISH_TASK_KIND,
  postDto,
  postDtos,
  requireConnected,
  UUID,
} from './posts.ts';
import { SANDBOX_NAMES } from './sandbox/network.ts';

const M = MESSAGES.social;
const MAX_CALENDAR_DAYS = 370;

export async function listPosts(ctx: AppContext, userId: string, filter: 'upcoming' | 'all'): Promise<ScheduledPost[]> {
  const now = ctx.clock.now();
  const rows =
    filter === 'upcoming'
      ? await ctx.db
          .select()
          .from(socialPosts)
          .where(
            and(
              eq(socialPosts.userId, userId),
              eq(socialPosts.status, 'scheduled'),
              gt(socialPosts.scheduledTime, now),
            ),
          )
          .orderBy(asc(socialPosts.scheduledTime), asc(socialPosts.id))
      : await ctx.db
          .select()
          .from(socialPosts)
          .where(eq(socialPosts.userId, userId))
          .orderBy(desc(socialPosts.scheduledTime), desc(socialPosts.id))
          .limit(500);
  return postDtos(ctx, rows);
}

async function ownPost(ctx: AppContext, userId: string, id: string): Promise<PostRow> {
  if (!UUID.test(id)) throw notFound(M.postNotFound);
  const [row] = await ctx.db
    .select()
    .from(socialPosts)
    .where(and(eq(socialPosts.id, id), eq(socialPosts.userId, userId)));
  if (!row) throw notFound(M.postNotFound);
  return row;
}

/** Changes a post that has not been handed to the workers yet (guarded, so a due post is never changed). */
async function changeWaiting(ctx: AppContext, row: PostRow, set: Partial<PostRow>): Promise<PostRow> {
  const now = ctx.clock.now();
  const [updated] = await ctx.db
    .update(socialPosts)
    .set({ ...set, updatedAt: now })
    .where(
      and(
        eq(socialPosts.id, row.id),
        eq(socialPosts.status, 'scheduled'),
        isNull(socialPosts.taskId),
        gt(socialPosts.scheduledTime, now),
      ),
    )
    .returning();
  if (!updated) throw conflict(M.onlyFutureScheduled);
  return updated;
}

/** PUT: `{id, message}` edits (blank or unchanged is ignored); `{id, scheduled_time, timezone}` reschedules. */
export async function updatePost(
  ctx: AppContext,
  userId: string,
  body: { id: string; message?: string; scheduled_time?: string; timezone?: string },
): Promise<ScheduledPost> {
  const row = await ownPost(ctx, userId, body.id);
  if (body.message === undefined && body.scheduled_time === undefined) throw badRequest(M.nothingToUpdate);
  const now = ctx.clock.now();
  if (!isChangeable({ status: row.status, scheduled_time: row.scheduledTime }, now))
    throw conflict(M.onlyFutureScheduled);
  const set: Partial<PostRow> = {};
  if (body.message !== undefined) {
    const next = editedMessage(row.message, body.message);
    if (next !== null) {
      await assertFitsWhereRefused(ctx, userId, next, row.mediaUrls, [row.platform as SocialPlatform]);
      set.message = next;
    }
  }
  if (body.scheduled_time !== undefined) {
    const zone = body.timezone ?? row.timezone;
    set.scheduledTime = momentOf(body.scheduled_time, zone, now, M.rescheduleInvalid);
    set.timezone = zone;
  }
  if (Object.keys(set).length === 0) return postDto(ctx, row);
  return postDto(ctx, await changeWaiting(ctx, row, set));
}

/** DELETE ?id=: cancels a future scheduled post (spec 4: cancel is done as a delete). */
export async function cancelPost(ctx: AppContext, userId: string, id: string): Promise<ScheduledPost> {
  const row = await ownPost(ctx, userId, id);
  if (!isChangeable({ status: row.status, scheduled_time: row.scheduledTime }, ctx.clock.now())) {
    throw conflict(M.onlyFutureScheduled);
  }
  return postDto(ctx, await changeWaiting(ctx, row, { status: 'cancelled' }));
}

async function postsBetween(ctx: AppContext, userId: string, from: Date, to: Date): Promise<PostRow[]> {
  return ctx.db
    .select()
    .from(socialPosts)
    .where(and(eq(socialPosts.userId, userId), gte(socialPosts.scheduledTime, from), lt(socialPosts.scheduledTime, to)))
    .orderBy(asc(socialPosts.scheduledTime), asc(socialPosts.id));
}

/** GET calendar: the days (in `zone`) from start to end that have posts, with their stats. */
export async function calendar(
  ctx: AppContext,
  userId: string,
  q: { start: string; end: string; timezone: string },
): Promise<CalendarDay[]> {
  const from = dayStart(q.start, q.timezone);
  const to = dayStart(nextDay(q.end), q.timezone);
  if (!from) throw badRequest(M.calendarDateInvalid('start'));
  if (!to) throw badRequest(M.calendarDateInvalid('end'));
  if (to <= from) throw badRequest(M.calendarRangeReversed);
  if (to.getTime() - from.getTime() > MAX_CALENDAR_DAYS * 86_400_000) {
    throw badRequest(M.calendarRangeTooLong(MAX_CALENDAR_DAYS));
  }
  const byDay = new Map<string, PostRow[]>();
  for (const row of await postsBetween(ctx, userId, from, to)) {
    const day = dayInZone(row.scheduledTime, q.timezone);
    byDay.set(day, [...(byDay.get(day) ?? []), row]);
  }
  const days = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b));
  const dtos = new Map(
    (
      await postDtos(
        ctx,
        days.flatMap(([, rows]) => rows),
      )
    ).map((p) => [p.id, p]),
  );
  return days.map(([date, rows]) => ({
    date,
    stats: statsOf(rows),
    posts: rows.map((r) => dtos.get(r.id) as ScheduledPost),
  }));
}

/** POST calendar {date}: that day's posts in the zone. */
export async function dayPosts(ctx: AppContext, userId: string, date: string, zone: string): Promise<ScheduledPost[]> {
  const from = dayStart(date, zone);
  const to = dayStart(nextDay(date), zone);
  if (!from || !to) throw badRequest(M.dateRequired);
  return postDtos(ctx, await postsBetween(ctx, userId, from, to));
}

// ---- Missed posts ----

/** How far back a post missed for want of a connection is still published when its account comes back. */
const MISSED_WINDOW_MS = 7 * 86_400_000;

/** The failures a reconnection cures: the account was gone or its connection had expired at the post's time. */
const connectionFailures = (platform: SocialPlatform) => [
  M.tokenExpired,
  M.platformNotConnected(SANDBOX_NAMES[platform]),
];

/** Puts failed posts back in the queue (their time has passed, so the dispatcher sends them at once). */
async function requeue(ctx: AppContext, where: ReturnType<typeof and>): Promise<PostRow[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .update(socialPosts)
    .set({ status: 'scheduled', taskId: null, errorMessage: null, updatedAt: now })
    .where(and(eq(socialPosts.status, 'failed'), where))
    .returning();
  if (rows.length > 0) await dispatchDuePosts(ctx);
  return rows;
}

/**
 * After the user (re)connects `platform`: with Auto publish on (Settings), the scheduled posts of the last
 * MISSED_WINDOW_MS that failed because that account was missing or expired are published now. Off, they wait
 * for Publish again. Answers how many were sent.
 */
export async function resumeMissedPosts(ctx: AppContext, userId: string, platform: SocialPlatform): Promise<number> {
  if (!(await storedSettings(ctx.db, userId)).autoPublish) return 0;
  const since = new Date(ctx.clock.now().getTime() - MISSED_WINDOW_MS);
  const rows = await requeue(
    ctx,
    and(
      eq(socialPosts.userId, userId),
      eq(socialPosts.platform, platform),
      eq(socialPosts.origin, 'scheduled'),
      gte(socialPosts.scheduledTime, since),
      inArray(socialPosts.errorMessage, connectionFailures(platform)),
    ),
  );
  if (rows.length > 0) ctx.log.info({ userId, platform, posts: rows.length }, 'missed posts published after reconnect');
  return rows.length;
}

/** POST /api/social/scheduled-posts/{id}/publish-again: a failed post of the user's is published now. */
export async function publishAgain(ctx: AppContext, userId: string, id: string): Promise<ScheduledPost> {
  const row = await ownPost(ctx, userId, id);
  if (row.status !== 'failed') throw conflict(M.onlyFailedRepublish);
  await requireConnected(ctx, userId, [row.platform as SocialPlatform]);
  await assertFitsWhereRefused(ctx, userId, row.message, row.mediaUrls, [row.platform as SocialPlatform]);
  const [queued] = await requeue(ctx, eq(socialPosts.id, row.id));
  if (!queued) throw conflict(M.onlyFailedRepublish);
  const [current] = await ctx.db.select().from(socialPosts).where(eq(socialPosts.id, row.id));
  return postDto(ctx, current ?? queued);
}

// ---- The due-post dispatcher ----

/**
 * Hands every due scheduled post to the workers exactly once: the claim (setting task_id) is one guarded
 * UPDATE, so concurrent dispatchers (several processes, a restart) never claim a post twice; a claim whose
 * task row was never written (crash in between) is completed by the next run with the same task id.
 */
export async function dispatchDuePosts(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const claimed = await ctx.db
    .update(socialPosts)
    .set({ taskId: sql`gen_random_uuid()`, updatedAt: now })
    .where(and(eq(socialPosts.status, 'scheduled'), isNull(socialPosts.taskId), lte(socialPosts.scheduledTime, now)))
    .returning({ id: socialPosts.id, taskId: socialPosts.taskId, userId: socialPosts.userId });
  const unsent = await ctx.db
    .select({ id: socialPosts.id, taskId: socialPosts.taskId, userId: socialPosts.userId })
    .from(socialPosts)
    .where(
      and(
        eq(socialPosts.status, 'scheduled'),
        isNotNull(socialPosts.taskId),
        lte(socialPosts.scheduledTime, now),
        sql`NOT EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${socialPosts.taskId})`,
      ),
    );
  const seen = new Set<string>();
  let sent = 0;
  for (const post of [...claimed, ...unsent]) {
    if (!post.taskId || seen.has(post.id)) continue;
    seen.add(post.id);
    try {
      await ctx.jobs.createTask({
        id: post.taskId,
        userId: post.userId,
        kind: PUBLISH_TASK_KIND,
        input: { postId: post.id },
      });
      sent++;
    } catch (error) {
      // Another dispatcher wrote this task first (same id): nothing to do.
      ctx.log.debug({ err: error, postId: post.id }, 'scheduled post task not created');
    }
  }
  return sent;
}
