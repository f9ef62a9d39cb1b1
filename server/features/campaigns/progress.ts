import type { Deliverable, DeliveredPost, PerformanceMetrics } from '../../../common/api/campaigns.ts';
import type { AppContext } from '../../context.ts';
import { engagementTotals, publishedPostsOf } from '../published-posts/published.ts';
import { viewableUrl } from './viewable.ts';

// Deliverable progress and performance of collaborations, counted from the posts published against a
// collaboration (POST /api/social/publish with collaboration_id). A post counts for a deliverable when its
// platform matches (or the deliverable names none) and its media type matches the deliverable's contentType
// ('mixed' or none matches any); each post fills one deliverable, the first matching one not yet complete.
// total_posts counts the posts; total_views, total_engagement (likes + comments + shares) and avg_engagement_rate
// (engagement / views, percent) follow engagementTotals (social/published.ts) over the figures the networks
// report (social/metrics.ts), null when no post reports them.

export interface CollaborationProgress {
  deliverables: Array<Deliverable & { completed: number }>;
  progress: { completed: number; total: number; percent: number };
  performance_metrics: PerformanceMetrics;
  posts: DeliveredPost[];
}

function matches(d: Deliverable, post: { platform: string; mediaType: string }): boolean {
  if (d.platform && d.platform !== post.platform) return false;
  return !d.contentType || d.contentType === 'mixed' || d.contentType === post.mediaType;
}

export async function collaborationProgress(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  collaborations: ReadonlyArray<{ id: string; deliverables: Deliverable[] }>,
): Promise<Map<string, CollaborationProgress>> {
  const posts = await publishedPostsOf(
    ctx,
    collaborations.map((c) => c.id),
  );
  const out = new Map<string, CollaborationProgress>();
  for (const c of collaborations) {
    const mine = posts.filter((p) => p.collaborationId === c.id);
    const deliverables = c.deliverables.map((d) => ({ ...d, completed: 0 }));
    const delivered: DeliveredPost[] = [];
    for (const post of mine) {
      const open = deliverables.findIndex((d) => matches(d, post) && d.completed < d.quantity);
      const index = open >= 0 ? open : deliverables.findIndex((d) => matches(d, post));
      const target = deliverables[index];
      if (target) target.completed += 1;
      delivered.push({
        id: post.id,
        platform: post.platform,
        media_type: post.mediaType,
        preview_url: viewableUrl(ctx, post.mediaUrls[0]),
        message: post.message,
        share_url: post.shareUrl,
        published_at: post.publishedAt?.toISOString() ?? null,
        views: post.views,
        likes: post.likes,
        comments: post.comments,
        shares: post.shares,
        deliverable_index: open >= 0 ? open : null,
      });
    }
    const total = deliverables.reduce((n, d) => n + d.quantity, 0);
    const completed = deliverables.reduce((n, d) => n + Math.min(d.completed, d.quantity), 0);
    const figures = engagementTotals(mine);
    out.set(c.id, {
      deliverables,
      progress: { completed, total, percent: total > 0 ? Math.floor((completed / total) * 100) : 0 },
      performance_metrics: {
        total_views: figures.views,
        total_engagement: figures.engagement,
        avg_engagement_rate: figures.rate,
        total_posts: mine.length,
      },
      posts: delivered,
    });
  }
  return out;
}

/** The progress of a collaboration, or nothing done yet when none was counted for it. */
export function progressOrNone(p: CollaborationProgress | undefined): CollaborationProgress {
  return (
    p ?? {
      deliverables: [],
      progress: { completed: 0, total: 0, percent: 0 },
      performance_metrics: { total_views: null, total_engagement: null, avg_engagement_rate: null, total_posts: 0 },
      posts: [],
    }
  );
}
