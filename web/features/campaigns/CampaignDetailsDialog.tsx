import { Eye, Film, Heart, ImageIcon, Layers, Megaphone, Music, Percent, Send } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Campaign, CampaignCollaboration, PerformanceMetrics } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { useFormatEuros } from '../../i18n/format.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { MediaViewer } from '../assets/MediaViewer.tsx';
import { useCampaign } from './api.ts';
import { DeliveredPosts } from './DeliveredPosts.tsx';
import { CreatorAvatar, LoadFailed, StatusBadge, useCampaignLabels } from './labels.tsx';
import { campaignMessage } from './messages.ts';

/** The spec's campaign load messages: network → 'An error occurred…', server fault → 'Failed to fetch…', else the server's word. */
export function campaignLoadError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return campaignMessage(MESSAGES.campaigns.loadError);
    if (error.status >= 500) return campaignMessage(MESSAGES.campaigns.fetchFailed);
    if (error.status === 404) return campaignMessage(MESSAGES.campaigns.noData);
  }
  return campaignMessage(MESSAGES.campaigns.loadFailed);
}

export function Thumbnail({
  campaign,
  className,
}: {
  campaign: Pick<Campaign, 'thumbnail' | 'title'>;
  className: string;
}) {
  const [broken, setBroken] = useState(false);
  if (campaign.thumbnail && !broken)
    return (
      <img
        src={campaign.thumbnail}
        alt=""
        loading="lazy"
        onError={() => setBroken(true)}
        className={`${className} object-cover`}
      />
    );
  return (
    <div
      className={`${className} grid place-items-center bg-gradient-to-br from-accent/30 via-surface-3 to-surface-2 text-accent`}
      aria-hidden
    >
      <Megaphone className="size-8 opacity-70" />
    </div>
  );
}

function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      className="h-1.5 overflow-hidden rounded-full bg-surface-3"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-label={label}
    >
      <div className="h-full rounded-full bg-accent" style={{ width: `${Math.max(0, Math.min(100, percent))}%` }} />
    </div>
  );
}

/** Views, engagement, rate and posts from the publishing records; N/A where there is no data. */
export function Metrics({ metrics }: { metrics: PerformanceMetrics }) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const na = t('campaigns.metrics.na');
  const items = [
    {
      id: 'reach',
      icon: Eye,
      label: t('campaigns.metrics.reach'),
      value: metrics.total_views === null ? na : labels.compact(metrics.total_views),
    },
    {
      id: 'engagement',
      icon: Heart,
      label: t('campaigns.metrics.engagement'),
      value: metrics.total_engagement === null ? na : labels.compact(metrics.total_engagement),
    },
    {
      id: 'rate',
      icon: Percent,
      label: t('campaigns.metrics.rate'),
      value: metrics.avg_engagement_rate === null ? na : `${metrics.avg_engagement_rate.toFixed(1)}%`,
    },
    { id: 'posts', icon: Send, label: t('campaigns.metrics.posts'), value: labels.number(metrics.total_posts) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-1.5 sm:grid-cols-4" data-testid="performance-metrics">
      {items.map(({ id, icon: Icon, label, value }) => (
        <div key={id} className="rounded-lg bg-surface-2 px-2.5 py-1.5">
          <dt className="flex items-center gap-1 text-xs text-subtle">
            <Icon className="size-3" aria-hidden />
            {label}
          </dt>
          <dd className="text-sm font-semibold tabular-nums" data-testid={`metric-${id}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function CollaborationRow({
  collaboration,
  actions,
}: {
  collaboration: CampaignCollaboration;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const c = collaboration;
  return (
    <li className="space-y-2.5 rounded-xl border border-line p-3" data-testid="collaboration" data-status={c.status}>
      <div className="flex flex-wrap items-center gap-2.5">
        <CreatorAvatar url={c.creator_avatar} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{c.creator_name}</p>
          {c.agreed_amount !== null && (
            <p className="text-xs text-muted">
              {t('campaigns.collaboration.agreed', { amount: euros(c.agreed_amount) })}
            </p>
          )}
        </div>
        <StatusBadge status={c.status} />
        {actions}
      </div>
      <div className="space-y-1">
        <div className="flex justify-between text-xs text-muted">
          <span>{t('campaigns.collaboration.deliverables')}</span>
          <span className="tabular-nums">
            {t('campaigns.collaboration.progress', {
              done: c.progress.completed,
              total: c.progress.total,
              percent: c.progress.percent,
            })}
          </span>
        </div>
        <ProgressBar percent={c.progress.percent} label={t('campaigns.collaboration.deliverables')} />
      </div>
      {c.deliverables.length > 0 && <DeliverableBreakdown deliverables={c.deliverables} />}
      <Metrics metrics={c.performance_metrics} />
      <DeliveredPosts collaboration={c} />
    </li>
  );
}

const CONTENT_ICONS = { video: Film, image: ImageIcon, audio: Music, mixed: Layers } as const;

/** Each deliverable of a collaboration with what its published posts delivered (video and image posts by type). */
function DeliverableBreakdown({ deliverables }: { deliverables: CampaignCollaboration['deliverables'] }) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  return (
    <ul className="space-y-1.5" aria-label={t('campaigns.collaboration.deliverables')}>
      {deliverables.map((d) => {
        const Icon = CONTENT_ICONS[d.contentType ?? 'mixed'];
        const done = Math.min(d.completed, d.quantity);
        const complete = d.completed >= d.quantity;
        return (
          <li
            key={`${d.type}-${d.platform ?? ''}-${d.contentType ?? ''}`}
            className="flex items-center gap-2 text-xs"
            data-testid="collaboration-deliverable"
            data-content-type={d.contentType ?? 'any'}
            data-platform={d.platform ?? ''}
            data-completed={d.completed}
            data-quantity={d.quantity}
          >
            <Icon className={cn('size-3.5 shrink-0', complete ? 'text-success' : 'text-muted')} aria-hidden />
            <span className="min-w-0 flex-1 truncate" dir="auto">
              {d.type}
              {d.contentType && d.contentType !== 'mixed' && (
                <span className="sr-only"> ({labels.contentType(d.contentType)})</span>
              )}
            </span>
            <span
              className={cn('shrink-0 font-medium tabular-nums', complete ? 'text-success' : 'text-fg')}
              data-testid="collaboration-deliverable-count"
            >
              {t('campaigns.collaboration.deliverableCount', { done, total: d.quantity })}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function Body({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const euros = useFormatEuros();
  const [viewing, setViewing] = useState<number | null>(null);
  // A deliverable's progress across the campaign's collaborations (each collaboration owes the full list).
  const delivered = (type: string) => {
    let done = 0;
    let total = 0;
    for (const c of campaign.collaborations) {
      for (const d of c.deliverables) {
        if (d.type === type) {
          done += d.completed;
          total += d.quantity;
        }
      }
    }
    return { done, total };
  };
  return (
    <div className="space-y-5" data-testid="campaign-details-body">
      <div className="overflow-hidden rounded-xl border border-line">
        <Thumbnail campaign={campaign} className="aspect-[16/7] w-full" />
      </div>
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={campaign.status} />
          <span className="text-xs text-muted">{campaign.brandName}</span>
          <span className="text-xs text-subtle">
            · {t(`campaigns.categories.${campaign.category}`, { defaultValue: campaign.category })}
          </span>
        </div>
        {campaign.description && <p className="text-sm leading-relaxed text-muted">{campaign.description}</p>}
      </div>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {campaign.budget !== null && (
          <div className="rounded-lg bg-surface-2 px-3 py-2">
            <dt className="text-xs text-subtle">{t('campaigns.fields.budget')}</dt>
            <dd className="text-sm font-semibold tabular-nums" data-testid="details-budget">
              {euros(campaign.budget)}
            </dd>
          </div>
        )}
        {campaign.duration_days !== null && (
          <div className="rounded-lg bg-surface-2 px-3 py-2">
            <dt className="text-xs text-subtle">{t('campaigns.fields.duration')}</dt>
            <dd className="text-sm font-semibold">{labels.duration(campaign.duration_days)}</dd>
          </div>
        )}
        {campaign.target_audience && (
          <div className="rounded-lg bg-surface-2 px-3 py-2">
            <dt className="text-xs text-subtle">{t('campaigns.fields.audience')}</dt>
            <dd className="text-sm font-semibold">
              {campaign.target_audience.ageMin}–{campaign.target_audience.ageMax} ·{' '}
              {labels.generation(campaign.target_audience.generation)}
            </dd>
          </div>
        )}
      </dl>
      <section>
        <h3 className="mb-2 text-sm font-semibold">{t('campaigns.fields.platforms')}</h3>
        <ul className="flex flex-wrap gap-1.5" data-testid="details-platforms">
          {campaign.platforms.map((p) => (
            <li key={p} className="rounded-full bg-surface-2 px-2.5 py-1 text-xs">
              {labels.platform(p)}
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 className="mb-2 text-sm font-semibold">{t('campaigns.fields.deliverables')}</h3>
        {campaign.deliverables.length === 0 ? (
          <p className="text-sm text-muted">{t('campaigns.details.noDeliverables')}</p>
        ) : (
          <ul className="space-y-2" data-testid="details-deliverables">
            {campaign.deliverables.map((d) => {
              const { done, total } = delivered(d.type);
              const percent = total > 0 ? Math.round((done / total) * 100) : 0;
              return (
                <li key={`${d.type}-${d.platform ?? ''}`} className="space-y-1">
                  <div className="flex justify-between gap-2 text-sm">
                    <span>
                      {d.type} <span className="text-muted">× {d.quantity}</span>
                    </span>
                    <span className="text-xs tabular-nums text-muted">
                      {total > 0
                        ? t('campaigns.details.delivered', { done, total })
                        : t('campaigns.details.notStarted')}
                    </span>
                  </div>
                  <ProgressBar percent={percent} label={d.type} />
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section>
        <h3 className="mb-2 text-sm font-semibold">{t('campaigns.fields.materials')}</h3>
        {campaign.materials.length === 0 ? (
          <p className="text-sm text-muted">{t('campaigns.details.noMaterials')}</p>
        ) : (
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="details-materials">
            {campaign.materials.map((m, index) => (
              <li key={m.id}>
                <button
                  type="button"
                  onClick={() => setViewing(index)}
                  aria-label={t('campaigns.details.openMaterial', { n: index + 1 })}
                  className="block aspect-square w-full overflow-hidden rounded-lg border border-line bg-surface-3 focus-visible:outline-2 focus-visible:outline-accent"
                >
                  {m.type === 'video' ? (
                    <video src={`${m.url}#t=0.1`} muted preload="metadata" className="size-full object-cover" />
                  ) : (
                    <img src={m.url} alt="" loading="lazy" className="size-full object-cover" />
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
        <MediaViewer
          items={campaign.materials}
          index={viewing}
          onIndexChange={setViewing}
          onClose={() => setViewing(null)}
        />
      </section>
      <section>
        <h3 className="mb-2 text-sm font-semibold">{t('campaigns.fields.collaborations')}</h3>
        {campaign.collaborations.length === 0 ? (
          <p className="text-sm text-muted">{t('campaigns.details.noCollaborations')}</p>
        ) : (
          <ul className="space-y-2">
            {campaign.collaborations.map((c) => (
              <CollaborationRow key={c.id} collaboration={c} />
            ))}
          </ul>
        )}
      </section>
      <div className="flex flex-wrap gap-2 border-t border-line pt-4">
        {campaign.is_owner && (
          <Link to={`/dashboard/campaigns/${campaign.id}/manage`} className={buttonClass('primary', 'sm')}>
            {t('campaigns.manage.open')}
          </Link>
        )}
        {campaign.materials.length > 0 && (
          <Link
            to={`/dashboard?view=genproStudio&tab=campaigns&campaign_id=${campaign.id}`}
            className={buttonClass('secondary', 'sm')}
          >
            {t('campaigns.details.openInStudio')}
          </Link>
        )}
      </div>
    </div>
  );
}

/** The campaign details dialog (spec 2.7), with a full-screen image viewer for its materials. */
export function CampaignDetailsDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useCampaign(id);
  return (
    <DialogShell
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      title={query.data?.title ?? t('campaigns.details.title')}
      testId="campaign-details"
      className="max-w-2xl"
    >
      {query.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-7" />
        </div>
      ) : query.isError ? (
        <LoadFailed
          message={campaignLoadError(query.error)}
          onRetry={() => void query.refetch()}
          testId="details-failed"
        />
      ) : query.data ? (
        <Body campaign={query.data} />
      ) : (
        <p className="py-10 text-center text-sm text-muted">{campaignMessage(MESSAGES.campaigns.noData)}</p>
      )}
    </DialogShell>
  );
}
