import { Building2, Info, Send, Settings2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Campaign } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import type { useCampaignList } from './api.ts';
import { Thumbnail } from './CampaignDetailsDialog.tsx';
import { LoadFailed, StatusBadge, useCampaignLabels } from './labels.tsx';
import { errorText } from './messages.ts';

/**
 * Cards of the pool and My Campaigns: as many a row as cards of at least 16rem fit (title on two lines, the
 * actions on one), never more than 5 (spec 9: the fifth column's share, 100% less four gaps over 5, is a floor).
 */
const campaignGridClass =
  'grid grid-cols-[repeat(auto-fill,minmax(max(min(100%,16rem),calc((100%-3rem)/5)),1fr))] gap-3';

export function CampaignCard({
  campaign,
  onDetails,
  onApply,
  actions,
  footer,
}: {
  campaign: Campaign;
  onDetails: () => void;
  onApply?: () => void;
  /** The card's own action row (one primary action and a menu), instead of Details / Manage / Apply. */
  actions?: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const euros = useFormatEuros();
  const date = useFormatDate();
  const mine = campaign.my_application;
  return (
    <li
      data-testid="campaign-card"
      data-campaign-id={campaign.id}
      data-status={campaign.status}
      className="flex min-w-0 flex-col overflow-hidden rounded-2xl border border-line bg-surface transition-colors hover:border-line-strong"
    >
      {/* The badge sits beside the button, not in it: its text is not part of the button's name (WCAG 2.5.3). */}
      <div className="relative">
        <button
          type="button"
          onClick={onDetails}
          className="block w-full text-start focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
          aria-label={t('campaigns.card.details', { title: campaign.title })}
        >
          <Thumbnail campaign={campaign} className="aspect-[16/9] w-full" />
        </button>
        <StatusBadge status={campaign.status} className="pointer-events-none absolute start-2 top-2 shadow" />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="flex items-center gap-1.5 text-xs text-muted">
          {campaign.brandLogo ? (
            <img src={campaign.brandLogo} alt="" className="size-4 rounded-full object-cover" />
          ) : (
            <Building2 className="size-3.5" aria-hidden />
          )}
          <span className="truncate">{campaign.brandName}</span>
          <span className="ms-auto shrink-0 text-subtle">{date(campaign.created_at)}</span>
        </div>
        <h3 dir="auto" className="line-clamp-2 text-sm font-semibold leading-snug" data-testid="campaign-card-title">
          {campaign.title}
        </h3>
        {campaign.budget !== null && <p className="text-base font-semibold tabular-nums">{euros(campaign.budget)}</p>}
        <ul className="flex flex-wrap gap-1">
          {campaign.platforms.map((p) => (
            <li key={p} className="rounded-full bg-surface-2 px-2 py-0.5 text-xs text-muted">
              {labels.platform(p)}
            </li>
          ))}
        </ul>
        {actions ? (
          <div className="mt-auto flex items-center gap-1.5 pt-2" data-testid="campaign-card-actions">
            {actions}
          </div>
        ) : (
          <div className="mt-auto flex flex-wrap gap-1.5 pt-2" data-testid="campaign-card-actions">
            <Button variant="secondary" size="sm" onClick={onDetails} data-testid="campaign-details-open">
              <Info className="size-3.5" aria-hidden />
              {t('campaigns.card.detailsShort')}
            </Button>
            {campaign.is_owner && (
              <Link
                to={`/dashboard/campaigns/${campaign.id}/manage`}
                className={buttonClass('secondary', 'sm')}
                data-testid="campaign-manage"
              >
                <Settings2 className="size-3.5" aria-hidden />
                {t('campaigns.manage.button')}
              </Link>
            )}
            {mine ? (
              <StatusBadge status={mine.status} className="self-center" />
            ) : (
              onApply && (
                <Button size="sm" onClick={onApply} data-testid="campaign-apply">
                  <Send className="size-3.5" aria-hidden />
                  {t('campaigns.card.apply')}
                </Button>
              )
            )}
          </div>
        )}
        {footer}
      </div>
    </li>
  );
}

function CardSkeletons({ count = 8 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <li key={i} className="h-72 animate-pulse rounded-2xl bg-surface-2" aria-hidden />
      ))}
    </>
  );
}

/** A list of campaign pages flattened, skipping ids already shown (offset pages shift when campaigns open). */
export function flattenCampaigns(pages: ReadonlyArray<{ data: Campaign[] }> | undefined): Campaign[] {
  const seen = new Set<string>();
  const out: Campaign[] = [];
  for (const page of pages ?? [])
    for (const c of page.data)
      if (!seen.has(c.id)) {
        seen.add(c.id);
        out.push(c);
      }
  return out;
}

/**
 * A paged grid of campaigns: skeletons while loading, the load failure when nothing could be shown, `empty`
 * when there are none, else the cards and "Load more".
 */
export function CampaignGrid({
  query,
  count,
  skeletons,
  empty,
  testId,
  children,
}: {
  query: ReturnType<typeof useCampaignList>;
  count: number;
  skeletons?: number;
  empty: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <ul className={campaignGridClass} aria-label={t('common.loading')}>
        <CardSkeletons count={skeletons} />
      </ul>
    );
  }
  if (query.isError && count === 0) {
    return (
      <LoadFailed
        message={errorText(query.error, MESSAGES.campaigns.loadFailed)}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (count === 0) return empty;
  return (
    <>
      <ul className={campaignGridClass} data-testid={testId}>
        {children}
      </ul>
      {query.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t('campaigns.loadMore')}
          </Button>
        </div>
      )}
    </>
  );
}
