import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { assets, socialPosts } from '../../db/schema/index.ts';

/** Published posts of collaborations, for their deliverables and metrics (campaigns/progress.ts). */
export async function publishedPostsOf(ctx: Pick<AppContext, 'db'>, collaborationIds: readonly string[]) {
  if (collaborationIds.length === 0) return [];
  return ctx.db
    .select({
      id: socialPosts.id,
      collaborationId: socialPosts.collaborationId,
      platform: socialPosts.platform,
      mediaType: socialPosts.mediaType,
      mediaUrls: socialPosts.mediaUrls,
      message: socialPosts.message,
      shareUrl: socialPosts.shareUrl,
      publishedAt: socialPosts.publishedAt,
      views: socialPosts.views,
      likes: socialPosts.likes,
      comments: socialPosts.comments,
      shares: socialPosts.shares,
    })
    .from(socialPosts)
    .where(and(inArray(socialPosts.collaborationId, [...collaborationIds]), eq(socialPosts.status, 'published')))
    .orderBy(socialPosts.publishedAt, socialPosts.id);
}

/**
 * Whether a post's media may be read through its post-bound URLs (signPostMediaUrl): while the post is on a
 * network (published) or being handed to one (scheduled; a network fetches the media during the publish call).
 * A cancelled or failed post, or one deleted with its owner's account, no longer shares its media.
 */
export async function isLivePost(ctx: Pick<AppContext, 'db'>, postId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: socialPosts.id })
    .from(socialPosts)
    .where(and(eq(socialPosts.id, postId), inArray(socialPosts.status, ['published', 'scheduled'])));
  return row !== undefined;
}

/**
 * Published posts that carry media made with a persona: a media URL of the post is the URL of an asset whose
 * persona_id is the persona (its generated images and videos, and the persona's own images). Each post once
 * per persona.
 */
export async function postsWithPersonas(ctx: Pick<AppContext, 'db'>, personaIds: readonly string[]) {
  if (personaIds.length === 0) return [];
  return ctx.db
    .selectDistinct({
      personaId: sql<string>`${assets.personaId}`,
      postId: socialPosts.id,
      views: socialPosts.views,
      likes: socialPosts.likes,
      comments: socialPosts.comments,
      shares: socialPosts.shares,
    })
    .from(socialPosts)
    .innerJoin(assets, sql`${socialPosts.mediaUrls} @> jsonb_build_array(${assets.url})`)
    .where(and(eq(socialPosts.status, 'published'), inArray(assets.personaId, [...personaIds])));
}

interface PostFigures {
  views: number | null;
  likes: number | null;
  comments: number | null;
  shares: number | null;
}

const engagementOfPost = (p: PostFigures) =>
  p.likes === null && p.comments === null && p.shares === null
    ? null
    : (p.likes ?? 0) + (p.comments ?? 0) + (p.shares ?? 0);

/**
 * Reach and engagement of a set of published posts, as the networks report them: views summed over the posts
 * that report views; engagement (likes + comments + shares) over the posts that report any of them; the rate,
 * in percent with 2 decimals, is the engagement of the posts that report both, over their views. Null where no
 * post reports the figure. The same rule in SQL: engagementSql.
 */
export function engagementTotals(posts: readonly PostFigures[]) {
  const withViews = posts.filter((p) => p.views !== null);
  const engaged = posts.filter((p) => engagementOfPost(p) !== null);
  const both = engaged.filter((p) => (p.views ?? 0) > 0);
  const bothViews = both.reduce((n, p) => n + (p.views ?? 0), 0);
  const bothEngagement = both.reduce((n, p) => n + (engagementOfPost(p) ?? 0), 0);
  return {
    views: withViews.length > 0 ? withViews.reduce((n, p) => n + (p.views ?? 0), 0) : null,
    engagement: engaged.length > 0 ? engaged.reduce((n, p) => n + (engagementOfPost(p) ?? 0), 0) : null,
    rate: bothViews > 0 ? Math.round((10000 * bothEngagement) / bothViews) / 100 : null,
  };
}

const postEngagement = sql`(coalesce(${socialPosts.likes}, 0) + coalesce(${socialPosts.comments}, 0) + coalesce(${socialPosts.shares}, 0))`;
const reportsEngagement = sql`(${socialPosts.likes} is not null or ${socialPosts.comments} is not null or ${socialPosts.shares} is not null)`;

/** engagementTotals as correlated subqueries over the published posts matching `where` (for list queries). */
export function engagementSql(where: SQL) {
  const published = sql`${socialPosts.status} = 'published' and ${where}`;
  return {
    views: sql<number | null>`(select sum(${socialPosts.views})::int from ${socialPosts} where ${published})`,
    engagement: sql<
      number | null
    >`(select sum(${postEngagement}) filter (where ${reportsEngagement})::int from ${socialPosts} where ${published})`,
    rate: sql<
      number | null
    >`(select round(100.0 * sum(${postEngagement}) / nullif(sum(${socialPosts.views}), 0), 2)::float8
      from ${socialPosts} where ${published} and ${socialPosts.views} > 0 and ${reportsEngagement})`,
  };
}
