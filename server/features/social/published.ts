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
