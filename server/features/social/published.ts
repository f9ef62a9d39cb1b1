import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { socialPosts } from '../../db/schema/index.ts';

/** Published posts of collaborations, for their deliverables and metrics (campaigns/progress.ts). */
export async function publishedPostsOf(ctx: Pick<AppContext, 'db'>, collaborationIds: readonly string[]) {
  if (collaborationIds.length === 0) return [];
  return ctx.db
    .select({
      collaborationId: socialPosts.collaborationId,
      platform: socialPosts.platform,
      mediaType: socialPosts.mediaType,
      views: socialPosts.views,
    })
    .from(socialPosts)
    .where(and(inArray(socialPosts.collaborationId, [...collaborationIds]), eq(socialPosts.status, 'published')));
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
