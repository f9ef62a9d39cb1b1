import { ExternalLink, Eye, Heart, MessageCircle, Repeat2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { CampaignCollaboration, DeliveredPost } from '../../../common/api/campaigns.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { useCampaignLabels } from './labels.tsx';

/** A delivered post's first media: video or image, never stretched. */
function Preview({ post }: { post: DeliveredPost }) {
  const { t } = useTranslation();
  const box = 'size-14 shrink-0 rounded-lg bg-surface-2 object-cover';
  if (!post.preview_url) return <div className={box} aria-hidden />;
  if (post.media_type === 'video')
    return (
      <video
        className={box}
        src={post.preview_url}
        preload="metadata"
        muted
        playsInline
        aria-label={t('campaigns.delivered.previewVideo')}
      />
    );
  return <img className={box} src={post.preview_url} alt={t('campaigns.delivered.previewImage')} loading="lazy" />;
}

/**
 * What the creator published for the collaboration, each post against the deliverable it counts for, with the
 * network's figures (a figure the network does not report is left out, not shown as 0).
 */
export function DeliveredPosts({ collaboration }: { collaboration: CampaignCollaboration }) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const date = useFormatDate();
  if (collaboration.posts.length === 0) return null;
  return (
    <section aria-label={t('campaigns.delivered.title')} className="space-y-1.5">
      <h3 className="text-xs font-medium text-muted">{t('campaigns.delivered.title')}</h3>
      <ul className="space-y-2">
        {collaboration.posts.map((post) => {
          const deliverable =
            post.deliverable_index === null ? null : collaboration.deliverables[post.deliverable_index];
          const figures = [
            { id: 'views', icon: Eye, value: post.views, label: t('campaigns.delivered.views') },
            { id: 'likes', icon: Heart, value: post.likes, label: t('campaigns.delivered.likes') },
            { id: 'comments', icon: MessageCircle, value: post.comments, label: t('campaigns.delivered.comments') },
            { id: 'shares', icon: Repeat2, value: post.shares, label: t('campaigns.delivered.shares') },
          ].filter((f) => f.value !== null);
          return (
            <li
              key={post.id}
              className="flex gap-2.5 rounded-lg border border-line p-2"
              data-testid="delivered-post"
              data-platform={post.platform}
            >
              <Preview post={post} />
              <div className="min-w-0 flex-1 space-y-1">
                <p className="flex flex-wrap items-center gap-x-2 text-xs">
                  <span className="font-medium">{labels.platform(post.platform)}</span>
                  {post.published_at && <span className="text-muted">{date(post.published_at)}</span>}
                  <span className="text-muted" data-testid="delivered-post-counts-for">
                    {deliverable
                      ? t('campaigns.delivered.countsFor', { deliverable: deliverable.type })
                      : t('campaigns.delivered.extra')}
                  </span>
                </p>
                <p dir="auto" className="line-clamp-2 break-words text-xs text-muted">
                  {post.message}
                </p>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
                  {figures.map(({ id, icon: Icon, value, label }) => (
                    <span key={id} className="inline-flex items-center gap-1 tabular-nums" data-testid={`post-${id}`}>
                      <Icon className="size-3.5 text-muted" aria-hidden />
                      <span className="sr-only">{label}</span>
                      {labels.compact(value as number)}
                    </span>
                  ))}
                  {post.share_url && (
                    <a
                      href={post.share_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex min-h-6 items-center gap-1 font-medium text-accent hover:underline"
                      data-testid="delivered-post-link"
                    >
                      {t('campaigns.delivered.open', { network: labels.platform(post.platform) })}
                      <ExternalLink className="size-3.5 rtl:-scale-x-100" aria-hidden />
                    </a>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The deliverables still missing, as "Instagram videos 0/2" lines, for the warning before completing. */
export function missingDeliverables(collaboration: CampaignCollaboration): string[] {
  return collaboration.deliverables
    .filter((d) => d.completed < d.quantity)
    .map((d) => `${d.type} ${Math.min(d.completed, d.quantity)}/${d.quantity}`);
}
