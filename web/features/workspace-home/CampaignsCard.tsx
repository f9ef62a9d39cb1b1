import { BadgeCheck, Building2, ChevronRight, FolderKanban, Handshake, UserCheck } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MESSAGES } from '../../../common/messages.ts';
import type { Me } from '../../api/auth.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { isUnapprovedCreator } from '../../ui/navigation.ts';
import { useAdminBrands, useAdminCreators } from '../admin/api.ts';
import { useCampaignList, useMyActiveCollaborations } from '../campaigns/api.ts';
import { flattenCampaigns } from '../campaigns/CampaignCard.tsx';
import { StatusBadge } from '../campaigns/labels.tsx';
import { campaignMessage } from '../campaigns/messages.ts';
import { HomeEmpty, HomeLoadFailed, HomeLoading, HomeSection } from './sections.tsx';

const SHOWN = 4;
const ACTIVE = new Set(['open', 'running', 'draft']);

function AllLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1 text-sm font-medium text-accent hover:underline">
      {label}
      <ChevronRight className="size-4 rtl:-scale-x-100" aria-hidden />
    </Link>
  );
}

function Row({ to, title, meta, aside }: { to: string; title: string; meta: string; aside: ReactNode }) {
  return (
    <li>
      <Link
        to={to}
        data-testid="home-campaign"
        className="flex items-center gap-3 rounded-xl border border-line bg-surface-2/50 px-3 py-2.5 transition-colors hover:border-line-strong"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" dir="auto">
            {title}
          </p>
          <p className="truncate text-xs text-muted" dir="auto">
            {meta}
          </p>
        </div>
        {aside}
      </Link>
    </li>
  );
}

/** A brand's campaigns that are live or still being drafted. */
function BrandCampaigns() {
  const { t } = useTranslation();
  const query = useCampaignList('my', 'all');
  const active = useMemo(() => flattenCampaigns(query.data?.pages).filter((c) => ACTIVE.has(c.status)), [query.data]);
  return (
    <HomeSection
      testId="home-campaigns"
      title={t('workspaceHome.campaigns.brandTitle')}
      icon={<FolderKanban className="size-4" aria-hidden />}
      action={<AllLink to="/dashboard?view=myCampaigns" label={t('workspaceHome.campaigns.all')} />}
    >
      {query.isPending ? (
        <HomeLoading />
      ) : query.isError ? (
        <HomeLoadFailed onRetry={() => void query.refetch()} />
      ) : active.length === 0 ? (
        <HomeEmpty testId="home-campaigns-empty" text={campaignMessage(MESSAGES.campaigns.emptyMine)}>
          <Link to="/dashboard?view=genproStudio&tab=campaigns" className={buttonClass('secondary', 'sm')}>
            {t('workspaceHome.campaigns.plan')}
          </Link>
        </HomeEmpty>
      ) : (
        <ul className="space-y-2">
          {active.slice(0, SHOWN).map((c) => (
            <Row
              key={c.id}
              to={`/dashboard/campaigns/${encodeURIComponent(c.id)}/manage`}
              title={c.title}
              meta={t('workspaceHome.campaigns.collaborators', { count: c.collaborations.length })}
              aside={<StatusBadge status={c.status} />}
            />
          ))}
        </ul>
      )}
    </HomeSection>
  );
}

/** A creator's active collaborations with their deliverable progress. */
function CreatorCollaborations({ approved }: { approved: boolean }) {
  const { t } = useTranslation();
  const query = useMyActiveCollaborations();
  const list = query.data ?? [];
  return (
    <HomeSection
      testId="home-campaigns"
      title={t('workspaceHome.campaigns.creatorTitle')}
      icon={<Handshake className="size-4" aria-hidden />}
      action={
        approved ? <AllLink to="/dashboard?view=myCampaigns" label={t('workspaceHome.campaigns.all')} /> : undefined
      }
    >
      {query.isPending ? (
        <HomeLoading />
      ) : query.isError ? (
        <HomeLoadFailed onRetry={() => void query.refetch()} />
      ) : list.length === 0 ? (
        <HomeEmpty
          testId="home-campaigns-empty"
          text={approved ? t('workspaceHome.campaigns.noCollaborations') : t('workspaceHome.campaigns.afterApproval')}
        >
          {approved && (
            <Link to="/dashboard?view=campaignsPool" className={buttonClass('secondary', 'sm')}>
              {t('workspaceHome.campaigns.browse')}
            </Link>
          )}
        </HomeEmpty>
      ) : (
        <ul className="space-y-2">
          {list.slice(0, SHOWN).map((c) => (
            <Row
              key={c.collaboration_id}
              to="/dashboard?view=myCampaigns"
              title={c.campaign_title}
              meta={c.brand_name}
              aside={
                <span className="shrink-0 text-xs font-medium text-muted tabular-nums">
                  {t('workspaceHome.campaigns.delivered', { done: c.progress.completed, total: c.progress.total })}
                </span>
              }
            />
          ))}
        </ul>
      )}
    </HomeSection>
  );
}

/** An admin's queue: creators and brands waiting for a decision. */
function AdminReviews() {
  const { t } = useTranslation();
  const creators = useAdminCreators({ search: '', sort: 'newest', status: 'pending' });
  const brands = useAdminBrands({ search: '', sort: 'newest', status: 'pending' });
  const pendingCreators = creators.data?.pages[0]?.pagination.total;
  const pendingBrands = brands.data?.pages[0]?.pagination.total;
  const failed = creators.isError || brands.isError;
  const tiles = [
    { key: 'creators', count: pendingCreators, to: '/dashboard?view=adminCreators', icon: UserCheck },
    { key: 'brands', count: pendingBrands, to: '/dashboard?view=adminBrands', icon: Building2 },
  ] as const;
  return (
    <HomeSection
      testId="home-campaigns"
      title={t('workspaceHome.reviews.title')}
      icon={<BadgeCheck className="size-4" aria-hidden />}
    >
      {failed ? (
        <HomeLoadFailed
          onRetry={() => {
            void creators.refetch();
            void brands.refetch();
          }}
        />
      ) : creators.isPending || brands.isPending ? (
        <HomeLoading />
      ) : (
        <>
          <ul className="grid gap-2.5 sm:grid-cols-2">
            {tiles.map(({ key, count, to, icon: Icon }) => (
              <li key={key}>
                <Link
                  to={to}
                  data-testid={`home-review-${key}`}
                  data-count={count ?? 0}
                  className="flex items-center gap-3 rounded-xl border border-line bg-surface-2/50 p-3 transition-colors hover:border-line-strong"
                >
                  <Icon className="size-5 shrink-0 text-accent" aria-hidden />
                  <span className="min-w-0 flex-1 text-sm">{t(`workspaceHome.reviews.${key}`)}</span>
                  <span className="text-lg font-semibold tabular-nums">{count ?? 0}</span>
                </Link>
              </li>
            ))}
          </ul>
          {(pendingCreators ?? 0) + (pendingBrands ?? 0) === 0 && (
            <p className="mt-3 text-sm text-muted" data-testid="home-reviews-empty">
              {t('workspaceHome.reviews.empty')}
            </p>
          )}
        </>
      )}
    </HomeSection>
  );
}

/** Brand: own campaigns; creator: active collaborations; admin: the review queue. */
export function CampaignsCard({ user }: { user: Me['user'] }) {
  if (user.role === 'admin') return <AdminReviews />;
  if (user.role === 'brand') return <BrandCampaigns />;
  return <CreatorCollaborations approved={!isUnapprovedCreator(user)} />;
}
