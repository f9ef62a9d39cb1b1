import { isIP } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { CreateScheduledBody, PublishResult, ScheduledPost, SocialPlatform } from '../../../common/api/social.ts';
import { messageKeyOf } from '../../../common/message-keys.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { fitPostText, POST_TEXT_LIMITS, postTextLength } from '../../../common/rules/post-text.ts';
import { parseMoment } from '../../../common/rules/scheduling.ts';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { socialAccounts, socialPosts } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import { defineTask, PermanentTaskError } from '../../platform/jobs/types.ts';
import { ownedMediaObject, type ParsedMediaRef, parseMediaRef, storedKeyOf } from '../../platform/media/inputs.ts';
import { signMediaUrl, signPostMediaUrl } from '../../platform/media/signing.ts';
import { mediaUrl } from '../../platform/media/store.ts';
import { isPublicAddress } from '../../platform/net/address.ts';
import { storedSettings } from '../../platform/user-settings.ts';
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
export type PostRow = typeof socialPosts.$inferSelect;
export const PUBLISH_TASK_KIND = 'social.publish';
/** How long POST /api/social/publish waits for the workers before answering `pending`. */
const PUBLISH_WAIT_MS = 10_000;
/** A rate limit asking for at most this long is waited out inside the attempt. */
const INLINE_RETRY_MAX_SECONDS = 2;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
export async function postDtos(ctx: AppContext, rows: readonly PostRow[]): Promise<ScheduledPost[]> {
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

export async function postDto(ctx: AppContext, row: PostRow): Promise<ScheduledPost> {
  const [dto] = await postDtos(ctx, [row]);
  return dto as ScheduledPost;
}

/** No connected account: the spec's message; a requested platform not connected: ours. */
export async function requireConnected(ctx: AppContext, userId: string, platforms: readonly SocialPlatform[]) {
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
export async function assertFitsWhereRefused(
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
  // A post's task writes the outcome into the post before it completes, or fails it with the task in one transaction.
  await Promise.all(rows.map((row) => ctx.jobs.waitFor(user.id, row.taskId as string, PUBLISH_WAIT_MS)));
  const ids = rows.map((r) => r.id);
  const current = await ctx.db.select().from(socialPosts).where(inArray(socialPosts.id, ids));
  return current.map((r) => ({
    platform: r.platform as SocialPlatform,
    status: r.status === 'scheduled' ? 'pending' : r.status === 'published' ? 'published' : 'failed',
    post_id: r.id,
    task_id: r.taskId,
    share_url: r.shareUrl,
    error: r.errorMessage,
  }));
}

// ---- Posts at a time (listed, edited and dispatched in scheduled-posts.ts) ----

export function momentOf(value: string, zone: string, now: Date, pastMessage: string): Date {
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
