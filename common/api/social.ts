import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { isCalendarDay, isValidTimeZone } from '../rules/scheduling.ts';
import { isHttpUrl } from './account.ts';
import { ok } from './envelope.ts';

// Publishing and scheduling (accounts spec 2.2, 2.3, 3, 4, 5, 7). Field names are the spec's
// (snake_case for posts, the Social account's mixed names as listed).

const M = MESSAGES.social;

/** Social account ids (spec 3): one connector per platform. */
export const SOCIAL_PLATFORMS = ['instagram', 'tiktok', 'youtube', 'twitter', 'linkedin', 'facebook'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
export const socialPlatform = z.enum(SOCIAL_PLATFORMS, M.unknownPlatform);

/** Spec 4 Social account status. The server reports disconnected, connected and error (last publish failed, or
 * the token can no longer be refreshed); connecting, posting and success are the client's transient states. */
const SOCIAL_ACCOUNT_STATUSES = ['disconnected', 'connecting', 'connected', 'posting', 'success', 'error'] as const;
export type SocialAccountStatus = (typeof SOCIAL_ACCOUNT_STATUSES)[number];

/** Spec 4 Scheduled post status. */
const SCHEDULED_POST_STATUSES = ['scheduled', 'published', 'failed', 'cancelled'] as const;
export type ScheduledPostStatus = (typeof SCHEDULED_POST_STATUSES)[number];

const socialAccount = z.object({
  id: socialPlatform,
  name: z.string(),
  /** lucide icon name the client maps to a component. */
  icon: z.string(),
  platform: socialPlatform,
  username: z.string().nullable(),
  /** Null while disconnected or when the network reports none to the studio. */
  follower_count: z.number().int().nullable(),
  status: z.enum(SOCIAL_ACCOUNT_STATUSES),
  isConnected: z.boolean(),
  /** 'sandbox': our embedded network; 'live': the real platform (its client id is configured). */
  mode: z.enum(['sandbox', 'live']),
  /**
   * Whether this server lets people connect and publish to the network: false in production for a network without
   * live credentials unless SANDBOX_NETWORKS=true (issue 27). Connect and publish then answer 503 with the reason.
   */
  available: z.boolean(),
  /** Why it is unavailable and what enables it, e.g. "… Set SANDBOX_NETWORKS=true …"; null when available. */
  unavailableReason: z.string().nullable(),
  connected_at: z.string().nullable(),
  /** The last publish error on this account, when status is error. */
  error_message: z.string().nullable(),
});
export type SocialAccount = z.infer<typeof socialAccount>;

export const accountsReply = ok(z.object({ accounts: z.array(socialAccount) }));

/** DELETE /api/social/accounts: the platform in the query or the body. */
export const disconnectQuery = z.object({ platform: socialPlatform.optional() });
export const disconnectBody = z.object({ platform: socialPlatform.optional() }).nullish();
export const disconnectReply = z.object({ success: z.literal(true), message: z.string() });

export const connectParams = z.object({ platformId: socialPlatform });
/** Spec 7: `success, authUrl` at the top level. The URL is opened in a new tab. */
export const connectReply = z.object({ success: z.literal(true), authUrl: z.string() });

const message = z.string(M.messageRequired).trim().min(1, M.messageRequired).max(5000);
/**
 * A post's media: one of the studio's own media paths (`/api/images/…`) or an http(s) URL; javascript:, file: and
 * data: are refused here, and the server also refuses other paths and private or local hosts.
 */
const isMediaUrlForm = (value: string) => (value.startsWith('/') && !/^[/\\]{2}/.test(value)) || isHttpUrl(value);
const mediaUrls = z
  .array(z.string().trim().min(1).max(2048).refine(isMediaUrlForm, M.mediaUrlInvalid('media_urls')))
  .max(10)
  .default([]);
const timezone = z.string().trim().min(1).max(64).refine(isValidTimeZone, M.timezoneInvalid);
const platforms = z.array(socialPlatform).min(1, M.platformsRequired).max(SOCIAL_PLATFORMS.length);
/**
 * A moment: an ISO instant with `Z` or an offset, or a wall-clock `YYYY-MM-DDTHH:MM` (or with a space) read in the
 * request's `timezone`.
 */
const when = z.string().trim().min(1).max(40);

/**
 * The collaboration a post is for (spec 5 Publishing), the same on publish-now and scheduling. Creators: mode
 * 'campaigns' (My Active Collaborations, pick exactly one; the default) or 'materials'. Brands: materials.
 */
const collaborationChoice = {
  mode: z.enum(['campaigns', 'materials']).optional(),
  collaboration_id: z.string().trim().min(1).nullish(),
  selected_collaborations: z.array(z.string().trim().min(1)).max(50).default([]),
};

/** POST /api/social/publish (spec 7). `schedule_time` set: the posts are scheduled instead of published now. */
export const publishBody = z.object({
  message,
  platforms,
  media_urls: mediaUrls,
  schedule_time: when.nullish(),
  timezone: timezone.optional(),
  ...collaborationChoice,
  /** Asset ids or media URLs chosen under AI Materials; their URLs are posted with the message. */
  selected_materials: z.array(z.string().trim().min(1).max(2048)).max(10).default([]),
});
export type PublishBody = z.input<typeof publishBody>;

const PUBLISH_RESULT_STATUSES = ['published', 'failed', 'pending', 'scheduled'] as const;
const publishResult = z.object({
  platform: socialPlatform,
  /** pending: still being published by the worker (retrying); the post's row in GET scheduled-posts follows it. */
  status: z.enum(PUBLISH_RESULT_STATUSES),
  post_id: z.string(),
  /** The publishing task of a post published now (followed on GET /api/tasks/events); null when scheduled. */
  task_id: z.string().nullable(),
  share_url: z.string().nullable(),
  error: z.string().nullable(),
});
export type PublishResult = z.infer<typeof publishResult>;
export const publishReply = ok(z.object({ results: z.array(publishResult) }));

const scheduledPost = z.object({
  id: z.string(),
  message: z.string(),
  media_urls: z.array(z.string()),
  /** ISO instant in UTC. */
  scheduled_time: z.string(),
  /** IANA zone the user picked; days and wall times are shown in it. */
  timezone: z.string(),
  platform: socialPlatform,
  status: z.enum(SCHEDULED_POST_STATUSES),
  error_message: z.string().nullable(),
  share_url: z.string().nullable(),
  created_at: z.string(),
  published_at: z.string().nullable(),
  collaboration_id: z.string().nullable(),
  /**
   * The post's figures as its network reports them (social/metrics.ts): views (the sandbox's unique visitors a
   * day, X impressions), likes, comments and shares; null where the network reports none.
   */
  views: z.number().int().nullable(),
  likes: z.number().int().nullable(),
  comments: z.number().int().nullable(),
  shares: z.number().int().nullable(),
  /**
   * Previews of `media_urls`, in order, that the poster's browser can open: the studio's own files as signed URLs
   * with their WebP thumbnail when there is one; other URLs as they are.
   */
  media: z.array(z.object({ url: z.string(), type: z.enum(['image', 'video']), thumbnail_url: z.string().nullable() })),
});
export type ScheduledPost = z.infer<typeof scheduledPost>;

export const createScheduledBody = z.object({
  message,
  media_urls: mediaUrls,
  scheduled_time: when,
  timezone: timezone.default('UTC'),
  platforms,
  ...collaborationChoice,
});
export type CreateScheduledBody = z.input<typeof createScheduledBody>;
export const createScheduledReply = ok(z.array(scheduledPost));

export const listScheduledQuery = z.object({
  filter: z.enum(['upcoming', 'all']).default('all'),
});
export const listScheduledReply = ok(z.array(scheduledPost));

/** PUT: `{id, message}` edits the text; `{id, scheduled_time, timezone}` reschedules. */
export const updateScheduledBody = z.object({
  id: z.string().trim().min(1),
  message: z.string().max(5000).optional(),
  scheduled_time: when.optional(),
  timezone: timezone.optional(),
});
export type UpdateScheduledBody = z.input<typeof updateScheduledBody>;
export const updateScheduledReply = ok(scheduledPost);

export const cancelScheduledQuery = z.object({ id: z.string().trim().min(1) });
export const cancelScheduledReply = ok(scheduledPost);

const isoDay = (field: string) => z.string().refine(isCalendarDay, M.calendarDateInvalid(field));

export const calendarQuery = z.object({
  start: isoDay('start'),
  end: isoDay('end'),
  timezone: timezone.default('UTC'),
});
const calendarStats = z.object({
  total: z.number().int(),
  scheduled: z.number().int(),
  published: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
const calendarDay = z.object({ date: z.string(), stats: calendarStats, posts: z.array(scheduledPost) });
export type CalendarDay = z.infer<typeof calendarDay>;
/** Only days with posts are listed, in date order. */
export const calendarReply = ok(z.object({ calendar: z.array(calendarDay) }));

export const calendarDayBody = z.object({ date: isoDay('date'), timezone: timezone.default('UTC') });
export const calendarDayReply = ok(z.object({ posts: z.array(scheduledPost) }));
