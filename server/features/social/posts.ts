import { isIP } from 'node:net';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type {
  CalendarDay,
  CreateScheduledBody,
  PublishResult,
  ScheduledPost,
  SocialPlatform,
} from '../../../common/api/social.ts';
import { messageKeyOf } from '../../../common/message-keys.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { fitPostText, POST_TEXT_LIMITS, postTextLength } from '../../../common/rules/post-text.ts';
import {
  dayInZone,
  dayStart,
  editedMessage,
  isChangeable,
  nextDay,
  parseMoment,
  statsOf,
} from '../../../common/rules/scheduling.ts';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { socialAccounts, socialPosts, tasks } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { defineTask, PermanentTaskError } from '../../platform/jobs/types.ts';
import { ownedMediaObject, type ParsedMediaRef, parseMediaRef, storedKeyOf } from '../../platform/media/inputs.ts';
import { signMediaUrl, signPostMediaUrl } from '../../platform/media/signing.ts';
import { mediaUrl } from '../../platform/media/store.ts';
import { isPublicAddress } from '../../platform/net/address.ts';
import { storedSettings } from '../account/settings.ts';
import { getAsset } from '../assets/service.ts';
import { collaborationMaterials, myActiveCollaborations } from '../campaigns/applications.ts';
import { thumbnailsOf } from '../media/thumbnails.ts';
import { connectedAccounts, freshAccessToken, markAccountError } from './accounts.ts';
import { assertNetworkAvailable, connectorFor, networkAvailability } from './connectors/registry.ts';
import { ConnectorError, type PostOutcome } from './connectors/types.ts';
import { postMediaOf } from './post-media.ts';
import { postMediaProblems } from './post-media-facts.ts';
import { SANDBOX_NAMES } from './sandbox/network.ts';

const M = MESSAGES.social;
type PostRow = typeof socialPosts.$inferSelect;
const PUBLISH_TASK_KIND = 'social.publish';
/** How long POST /api/social/publish waits for the workers before answering `pending`. */
const PUBLISH_WAIT_MS = 10_000;
/** A rate limit asking for at most this long is waited out inside the attempt. */
const INLINE_RETRY_MAX_SECONDS = 2;
const MAX_CALENDAR_DAYS = 370;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toPostDto(row: PostRow, media: ScheduledPost['media']): ScheduledPost {
  return {
    id: row.id,
    message: row.message,
    media_urls: row.mediaUrls,
    scheduled_time: row.scheduledTime.toISOString(),
    timezone: row.timezone,
    platform: row.platform as SocialPlatform,
    status: row.status,
    error_message: row.errorMessage,
    share_url: row.shareUrl,
    created_at: row.createdAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    collaboration_id: row.collaborationId,
    views: row.views,
    likes: row.likes,
    comments: row.comments,
    shares: row.shares,
    media,
  };
}

const isVideoUrl = (url: string) => /\/api\/videos\/|\/api\/personas\/video\/|\.(mp4|mov|webm|avi)(\?|$)/i.test(url);

function mediaTypeOf(urls: readonly string[]): string {
  if (urls.some(isVideoUrl)) return 'video';
  if (urls.length > 0) return 'image';
  return 'text';
}

/**
 * Posts as the client reads them, with previews of their media its browser can open: the studio's own files
 * signed (a campaign's material is the brand's file, not the poster's) with their WebP thumbnail when the file
 * is an asset's; other URLs as they are.
 */
async function postDtos(ctx: AppContext, rows: readonly PostRow[]): Promise<ScheduledPost[]> {
  const keyOf = new Map<string, string>();
  for (const url of rows.flatMap((r) => r.mediaUrls)) {
    const key = storedKeyOf(ctx.config, url);
    if (key) keyOf.set(url, key);
  }
  const thumbnails = await thumbnailsOf(ctx, [...keyOf.values()]);
  const now = ctx.clock.now();
  const signed = (path: string) => signMediaUrl(ctx.config, path, undefined, now);
  const preview = (url: string): ScheduledPost['media'][number] => {
    const key = keyOf.get(url);
    const type = isVideoUrl(url) ? 'video' : 'image';
    if (!key) return { url, type, thumbnail_url: null };
    const thumbnail = thumbnails.get(key);
    return {
      url: signed(new URL(url, ctx.config.publicUrl).pathname),
      type,
      thumbnail_url: thumbnail ? signed(mediaUrl(thumbnail, 'image/webp')) : null,
    };
  };
  return rows.map((row) => toPostDto(row, row.mediaUrls.map(preview)));
}

async function postDto(ctx: AppContext, row: PostRow): Promise<ScheduledPost> {
  const [dto] = await postDtos(ctx, [row]);
  return dto as ScheduledPost;
}

/** No connected account: the spec's message; a requested platform not connected: ours. */
async function requireConnected(ctx: AppContext, userId: string, platforms: readonly SocialPlatform[]) {
  // A network this server does not offer (production without its credentials) answers 503 with the reason first.
  for (const platform of platforms) assertNetworkAvailable(ctx.config, platform);
  const accounts = await connectedAccounts(ctx, userId);
  if (accounts.length === 0) throw badRequest(M.noAccounts);
  const connected = new Set(accounts.map((a) => a.platform));
  const missing = platforms.find((p) => !connected.has(p));
  if (missing) throw badRequest(M.platformNotConnected(SANDBOX_NAMES[missing]));
}

/**
 * A post whose media a network cannot take (its published limits, common/rules/social-media.ts) is refused up
 * front, 400 with a message per problem naming the network and the limit (issue 28). With Cross-post
 * optimization off, a message longer than a network allows is refused too (the links as given; the publish
 * checks again with the links it sends). On, it is shortened for that network when posted.
 */
async function assertFitsWhereRefused(
  ctx: AppContext,
  userId: string,
  message: string,
  mediaUrls: readonly string[],
  platforms: readonly SocialPlatform[],
): Promise<void> {
  const problems = await postMediaProblems(ctx, message, mediaUrls, platforms);
  if (problems.length > 0) {
    // Each line's catalogue key too, so the page translates every line (web/api/client.ts).
    const keyed = problems.map((message) => ({ message, ...messageKeyOf(message) }));
    throw badRequest(problems.join('\n'), { problems, keyed });
  }
  if ((await storedSettings(ctx.db, userId)).crossPostOptimization) return;
  for (const platform of platforms) {
    // A live network is sent the files, not links: the links do not count there.
    const linked = networkAvailability(ctx.config, platform).mode === 'live' ? [] : mediaUrls;
    const length = postTextLength(platform, message, linked);
    const limit = POST_TEXT_LIMITS[platform];
    if (length > limit) throw badRequest(M.messageTooLong(SANDBOX_NAMES[platform], length, limit));
  }
}

// ---- Publishing (a task per platform) ----

async function publishOnce(ctx: AppContext, post: PostRow, signal: AbortSignal): Promise<PostOutcome> {
  const platform = post.platform as SocialPlatform;
  const [account] = await ctx.db
    .select()
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, post.userId), eq(socialAccounts.platform, platform)));
  if (!account) throw new PermanentTaskError('not_connected', M.platformNotConnected(SANDBOX_NAMES[platform]));
  // A post scheduled while the network was available (or a sandbox account kept from before) is not sent to a
  // network this server no longer offers: in production, never to the sandbox without SANDBOX_NETWORKS=true.
  const availability = networkAvailability(ctx.config, platform);
  if (!availability.available) throw new PermanentTaskError('network_unavailable', availability.reason);
  // Posts scheduled before media URLs were checked on the way in.
  if (!post.mediaUrls.every((url) => postableMediaRef(ctx.config, url))) {
    throw new PermanentTaskError('bad_media', M.mediaUrlInvalid('media_urls'));
  }
  const connector = connectorFor(ctx, platform);
  const mediaUrls = post.mediaUrls.map((url) => networkMediaUrl(ctx.config, url, post.id));
  // Live connectors upload the media instead of linking it: the text carries no links there.
  const fitted = fitPostText(platform, post.message, connector.mode === 'live' ? [] : mediaUrls);
  if (fitted.shortened && !(await storedSettings(ctx.db, post.userId)).crossPostOptimization) {
    throw new PermanentTaskError('too_long', M.messageTooLong(SANDBOX_NAMES[platform], fitted.length, fitted.limit));
  }
  // Live networks upload the files (the sandbox links them): resolved once, read again by each attempt.
  const media =
    connector.mode === 'live'
      ? await postMediaOf(
          ctx,
          { userId: post.userId, platform },
          post.mediaUrls,
          (url) => networkMediaUrl(ctx.config, url, post.id),
          signal,
        )
      : [];
  const input = {
    message: fitted.message,
    // What the network is sent: a converted copy's URL where one stands for the file (Instagram's JPEG).
    mediaUrls: connector.mode === 'live' ? media.map((m) => m.url) : mediaUrls,
    media,
    idempotencyKey: post.id,
    authorId: account.externalId ?? '',
    // Who may see it on YouTube: the user's publishing setting (private by default).
    ...(platform === 'youtube' ? { privacy: (await storedSettings(ctx.db, post.userId)).youtubePrivacy } : {}),
  };
  let refreshed = false;
  let waited = false;
  for (;;) {
    try {
      const token = await freshAccessToken(ctx, account, connector, refreshed);
      const outcome = await connector.post(token, input, signal);
      if (account.status === 'error') await markAccountError(ctx, account.id, null);
      return outcome;
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      if (error.failure === 'refresh-token' && !refreshed && account.refreshTokenSealed) {
        refreshed = true;
        continue;
      }
      const wait = error.retryAfterSeconds ?? 0;
      if (error.failure === 'retry' && !waited && wait <= INLINE_RETRY_MAX_SECONDS) {
        waited = true;
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      if (error.failure === 'retry') throw new AppError(503, 'publish_retry', `${M.publishFailed}: ${error.message}`);
      if (error.failure === 'refresh-token') {
        await markAccountError(ctx, account.id, M.tokenExpired);
        throw new PermanentTaskError('token_expired', M.tokenExpired);
      }
      throw new PermanentTaskError('rejected', `${M.publishFailed}: ${error.message}`);
    }
  }
}

/**
 * A post's media URL as a network is sent it (and shows it to everyone): the studio's own file as an absolute URL
 * on PUBLIC_URL bound to the post (readable without a session while the post is live); a public URL as it is.
 */
function networkMediaUrl(config: Config, url: string, postId: string): string {
  if (!storedKeyOf(config, url)) return url;
  return `${config.publicUrl}${signPostMediaUrl(config, new URL(url, config.publicUrl).pathname, postId)}`;
}

/** Publishes one post on one platform. Safe to run again: connectors post once per idempotency key. */
export const publishPostTask = defineTask({
  kind: PUBLISH_TASK_KIND,
  input: z.object({ postId: z.uuid() }),
  retryLimit: 3,
  retryDelaySeconds: 10,
  expireInSeconds: 300,
  async handler({ input, ctx, signal }) {
    const [post] = await ctx.db.select().from(socialPosts).where(eq(socialPosts.id, input.postId));
    if (post?.status !== 'scheduled') return { skipped: post?.status ?? 'missing' };
    let outcome: PostOutcome;
    try {
      outcome = await publishOnce(ctx, post, signal);
    } catch (error) {
      ctx.metrics.socialPublishes.inc({ platform: post.platform, outcome: 'failed' });
      throw error;
    }
    ctx.metrics.socialPublishes.inc({ platform: post.platform, outcome: 'published' });
    const now = ctx.clock.now();
    await ctx.db
      .update(socialPosts)
      .set({
        status: 'published',
        shareUrl: outcome.shareUrl,
        externalId: outcome.externalId,
        views: outcome.views,
        metricsUpdatedAt: now,
        errorMessage: null,
        publishedAt: now,
        updatedAt: now,
      })
      .where(and(eq(socialPosts.id, post.id), eq(socialPosts.status, 'scheduled')));
    ctx.log.info({ postId: post.id, platform: post.platform }, 'post published');
    return { shareUrl: outcome.shareUrl };
  },
  async onFailed({ task, tx, error }) {
    await tx
      .update(socialPosts)
      .set({ status: 'failed', errorMessage: error.message, updatedAt: new Date() })
      .where(and(eq(socialPosts.taskId, task.id), eq(socialPosts.status, 'scheduled')));
  },
});

/** Creators publishing for a campaign: exactly one collaboration, still in their active list (spec 5). */
async function collaborationFor(
  ctx: AppContext,
  user: UserRow,
  body: { mode?: 'campaigns' | 'materials'; collaboration_id?: string | null; selected_collaborations: string[] },
): Promise<string | null> {
  const chosen = [
    ...new Set([...body.selected_collaborations, ...(body.collaboration_id ? [body.collaboration_id] : [])]),
  ];
  if (user.role !== 'creator') {
    if (chosen.length > 0) throw forbidden(M.brandsNoCollaboration);
    return null;
  }
  if (body.mode === 'materials' && chosen.length === 0) return null;
  if (chosen.length !== 1) throw badRequest(M.selectOneCollaboration);
  const id = chosen[0] as string;
  let active: Awaited<ReturnType<typeof myActiveCollaborations>>;
  try {
    active = await myActiveCollaborations(ctx, user);
  } catch (error) {
    ctx.log.warn({ err: error }, 'active collaborations could not be read');
    throw new AppError(503, 'collaboration_check_failed', M.collaborationCheckFailed);
  }
  if (!active.some((c) => c.collaboration_id === id)) throw badRequest(M.collaborationInactive);
  return id;
}

/** A host given as a private, loopback or link-local address, or a localhost name (the URL parser normalises IPs). */
function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/\.$/, '');
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) return !isPublicAddress(literal);
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * A media URL a post may carry: one of the studio's own media (a path like `/api/images/…`, signed or not, or the
 * same on PUBLIC_URL) or a public http(s) URL. Null for anything else: javascript:, file:, data:, credentials, a
 * private or local host (the sandbox shows media to every viewer's browser, and networks would be sent the link).
 */
function postableMediaRef(config: Pick<Config, 'publicUrl'>, url: string): ParsedMediaRef | null {
  let ref: ParsedMediaRef;
  try {
    ref = parseMediaRef(config, url);
  } catch {
    return null;
  }
  if (ref.kind === 'data') return null;
  if (ref.kind === 'remote' && isLocalHost(new URL(ref.url).hostname)) return null;
  return ref;
}

/**
 * The campaign materials a post for a collaboration may carry beside the poster's own media: by material id and
 * by the stored file's key (a signed material URL names the file; the post keeps the material's own URL).
 */
interface CampaignMedia {
  byId: Map<string, string>;
  byKey: Map<string, string>;
}

const NO_CAMPAIGN_MEDIA: CampaignMedia = { byId: new Map(), byKey: new Map() };

async function campaignMediaOf(ctx: AppContext, collaborationId: string | null): Promise<CampaignMedia> {
  if (!collaborationId) return NO_CAMPAIGN_MEDIA;
  const media: CampaignMedia = { byId: new Map(), byKey: new Map() };
  for (const m of await collaborationMaterials(ctx, collaborationId)) {
    media.byId.set(m.id, m.url);
    const key = storedKeyOf(ctx.config, m.url);
    if (key) media.byKey.set(key, m.url);
  }
  return media;
}

/**
 * Every media URL must be postable (400 naming `field`); own media must be the user's or public (else 404), or a
 * material of the post's campaign. Answers the URLs to store: a campaign material as the material's URL.
 */
async function postableMedia(
  ctx: AppContext,
  userId: string,
  urls: readonly string[],
  field: string,
  campaign: CampaignMedia = NO_CAMPAIGN_MEDIA,
): Promise<string[]> {
  const out: string[] = [];
  for (const url of urls) {
    const ref = postableMediaRef(ctx.config, url);
    if (!ref) throw badRequest(M.mediaUrlInvalid(field));
    const material = ref.kind === 'stored' ? campaign.byKey.get(ref.key) : undefined;
    if (material) {
      out.push(material);
      continue;
    }
    if (ref.kind === 'stored') await ownedMediaObject(ctx, userId, ref.key);
    out.push(url);
  }
  return out;
}

/**
 * POST /api/social/scheduled-posts: the same collaboration rule as publishing now (a creator posting for a campaign
 * picks exactly one active collaboration).
 */
export async function scheduleFor(
  ctx: AppContext,
  user: UserRow,
  body: Parameters<typeof createScheduled>[2] & Pick<PublishInput, 'mode' | 'selected_collaborations'>,
): Promise<ScheduledPost[]> {
  const collaborationId = await collaborationFor(ctx, user, body);
  return createScheduled(ctx, user.id, { ...body, collaboration_id: collaborationId });
}

/** Material ids become their URLs (a material of the post's campaign, else one of the user's assets); URLs are kept. */
async function materialUrls(
  ctx: AppContext,
  userId: string,
  materials: readonly string[],
  campaign: CampaignMedia,
): Promise<string[]> {
  const urls: string[] = [];
  for (const m of materials) {
    if (!UUID.test(m)) urls.push(m);
    else urls.push(campaign.byId.get(m) ?? (await getAsset(ctx, userId, m)).url);
  }
  return urls;
}

export interface PublishInput {
  message: string;
  platforms: SocialPlatform[];
  media_urls: string[];
  schedule_time?: string | null;
  timezone?: string;
  mode?: 'campaigns' | 'materials';
  collaboration_id?: string | null;
  selected_collaborations: string[];
  selected_materials: string[];
}

/** POST /api/social/publish: one task per platform now (or scheduled posts when schedule_time is set). */
export async function publish(ctx: AppContext, user: UserRow, body: PublishInput): Promise<PublishResult[]> {
  await requireConnected(ctx, user.id, body.platforms);
  const collaborationId = await collaborationFor(ctx, user, body);
  const campaign = await campaignMediaOf(ctx, collaborationId);
  const given = await postableMedia(ctx, user.id, body.media_urls, 'media_urls', campaign);
  const materials = await materialUrls(ctx, user.id, body.selected_materials, campaign);
  const chosen = await postableMedia(ctx, user.id, materials, 'selected_materials', campaign);
  const media = [...new Set([...given, ...chosen])];
  const platforms = [...new Set(body.platforms)];
  await assertFitsWhereRefused(ctx, user.id, body.message, media, platforms);
  if (body.schedule_time) {
    const posts = await createScheduled(ctx, user.id, {
      message: body.message,
      media_urls: media,
      scheduled_time: body.schedule_time,
      timezone: body.timezone ?? 'UTC',
      platforms,
      collaboration_id: collaborationId,
    });
    return posts.map((p) => ({
      platform: p.platform,
      status: 'scheduled',
      post_id: p.id,
      task_id: null,
      share_url: null,
      error: null,
    }));
  }
  const now = ctx.clock.now();
  const rows = await ctx.db
    .insert(socialPosts)
    .values(
      platforms.map((platform) => ({
        userId: user.id,
        platform,
        message: body.message,
        mediaUrls: media,
        mediaType: mediaTypeOf(media),
        scheduledTime: now,
        timezone: body.timezone ?? 'UTC',
        origin: 'now' as const,
        taskId: crypto.randomUUID(),
        collaborationId,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
  for (const row of rows) {
    await ctx.jobs.createTask({
      id: row.taskId as string,
      userId: user.id,
      kind: PUBLISH_TASK_KIND,
      input: { postId: row.id },
    });
  }
  const ids = rows.map((r) => r.id);
  const deadline = Date.now() + PUBLISH_WAIT_MS;
  let current = rows;
  while (current.some((r) => r.status === 'scheduled') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    current = await ctx.db.select().from(socialPosts).where(inArray(socialPosts.id, ids));
  }
  return current.map((r) => ({
    platform: r.platform as SocialPlatform,
    status: r.status === 'scheduled' ? 'pending' : r.status === 'published' ? 'published' : 'failed',
    post_id: r.id,
    task_id: r.taskId,
    share_url: r.shareUrl,
    error: r.errorMessage,
  }));
}

// ---- Scheduled posts ----

function momentOf(value: string, zone: string, now: Date, pastMessage: string): Date {
  const at = parseMoment(value, zone);
  if (!at) throw badRequest(M.rescheduleFormat);
  if (at.getTime() <= now.getTime()) throw badRequest(pastMessage);
  return at;
}

async function createScheduled(
  ctx: AppContext,
  userId: string,
  body: Required<Pick<CreateScheduledBody, 'message' | 'scheduled_time' | 'platforms'>> & {
    media_urls: string[];
    timezone: string;
    collaboration_id?: string | null;
  },
): Promise<ScheduledPost[]> {
  const platforms = [...new Set(body.platforms)];
  await requireConnected(ctx, userId, platforms);
  const campaign = await campaignMediaOf(ctx, body.collaboration_id ?? null);
  const mediaUrls = await postableMedia(ctx, userId, body.media_urls, 'media_urls', campaign);
  await assertFitsWhereRefused(ctx, userId, body.message, mediaUrls, platforms);
  const now = ctx.clock.now();
  const at = momentOf(body.scheduled_time, body.timezone, now, M.futureDateTime);
  const rows = await ctx.db
    .insert(socialPosts)
    .values(
      platforms.map((platform) => ({
        userId,
        platform,
        message: body.message,
        mediaUrls,
        mediaType: mediaTypeOf(mediaUrls),
        scheduledTime: at,
        timezone: body.timezone,
        origin: 'scheduled' as const,
        collaborationId: body.collaboration_id ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
  return postDtos(ctx, rows);
}

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
