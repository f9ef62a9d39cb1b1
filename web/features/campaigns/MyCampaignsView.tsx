import { FolderKanban, Handshake, Megaphone, Plus, Send, Settings2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useOutletContext } from 'react-router';
import { toast } from 'sonner';
import type { CampaignStatus } from '../../../common/api/campaigns.constants.ts';
import type { ActiveCollaboration, Application } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { DashboardContext } from '../../api/auth.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Segmented } from '../../ui/controls.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useSearchChoice } from '../../ui/useSearchChoice.ts';
import { useApplicationAction, useCampaignList, useMyActiveCollaborations, useMyApplications } from './api.ts';
import { CampaignCard, CampaignGrid, flattenCampaigns } from './CampaignCard.tsx';
import { CampaignDetailsDialog, Metrics } from './CampaignDetailsDialog.tsx';
import { EmptyState, LoadFailed, StatusBadge, useCampaignLabels } from './labels.tsx';
import { campaignMessage, errorText } from './messages.ts';
import { CampaignActionsMenu } from './StatusControls.tsx';

type Filter = CampaignStatus | 'all';
const BRAND_FILTERS: Filter[] = ['all', 'draft', 'open', 'running', 'completed'];

/** A brand's own campaigns with their status controls. */
function BrandCampaigns() {
  const { t } = useTranslation();
  const [status, setStatus] = useSearchChoice<Filter>('status', BRAND_FILTERS, 'all');
  const query = useCampaignList('my', status);
  const campaigns = useMemo(() => flattenCampaigns(query.data?.pages), [query.data]);
  const [details, setDetails] = useState<string | null>(null);
  return (
    <div className="@container space-y-4" data-testid="my-campaigns">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Segmented
          label={t('campaigns.filter.label')}
          value={status}
          onChange={setStatus}
          options={BRAND_FILTERS.map((value) => ({ value, label: t(`campaigns.filter.${value}`) }))}
          testIdPrefix="my-filter"
        />
        <Link to="/dashboard?view=genproStudio&tab=campaigns" className={buttonClass('primary', 'sm')}>
          <Plus className="size-4" aria-hidden />
          {t('campaigns.mine.new')}
        </Link>
      </div>
      <CampaignGrid
        query={query}
        count={campaigns.length}
        skeletons={4}
        empty={
          <EmptyState
            testId="my-campaigns-empty"
            icon={<FolderKanban className="size-6" aria-hidden />}
            title={campaignMessage(MESSAGES.campaigns.emptyMine)}
          >
            <Link to="/dashboard?view=genproStudio&tab=campaigns" className={buttonClass('primary', 'md', 'mt-5')}>
              {t('campaigns.mine.planFirst')}
            </Link>
          </EmptyState>
        }
      >
        {campaigns.map((campaign) => (
          <CampaignCard
            key={campaign.id}
            campaign={campaign}
            onDetails={() => setDetails(campaign.id)}
            actions={
              <>
                <Link
                  to={`/dashboard/campaigns/${campaign.id}/manage`}
                  className={buttonClass('primary', 'sm', 'flex-1')}
                  data-testid="campaign-manage"
                >
                  <Settings2 className="size-3.5" aria-hidden />
                  {t('campaigns.manage.button')}
                </Link>
                <CampaignActionsMenu campaign={campaign} onDetails={() => setDetails(campaign.id)} />
              </>
            }
            footer={
              campaign.pending_applications ? (
                <p className="text-xs font-medium text-warning" data-testid="pending-applications">
                  {t('campaigns.mine.pendingApplications', { count: campaign.pending_applications })}
                </p>
              ) : null
            }
          />
        ))}
      </CampaignGrid>
      <CampaignDetailsDialog id={details} onClose={() => setDetails(null)} />
    </div>
  );
}

function ApplicationRow({ application, onDetails }: { application: Application; onDetails: () => void }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const date = useFormatDate();
  const action = useApplicationAction();
  const withdraw = () =>
    action.mutate(
      { id: application.id, action: 'withdraw' },
      {
        onSuccess: () => toast.success(campaignMessage(MESSAGES.campaigns.withdrawn)),
        onError: (error) => toast.error(errorText(error, MESSAGES.generic.internal)),
      },
    );
  return (
    <li
      className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-3 sm:flex-row sm:items-center"
      data-testid="my-application"
      data-status={application.status}
    >
      <div className="min-w-0 flex-1">
        <button
          type="button"
          onClick={onDetails}
          className="truncate text-start text-sm font-semibold hover:underline focus-visible:outline-2 focus-visible:outline-accent"
        >
          {application.campaign_title}
        </button>
        <p className="text-xs text-muted">
          {application.brand_name} · {t('campaigns.apply.yourRate', { rate: euros(application.rate) })} ·{' '}
          {date(application.created_at)}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <StatusBadge status={application.status} />
        {application.status === 'pending' && (
          <Button
            size="sm"
            variant="ghost"
            onClick={withdraw}
            loading={action.isPending}
            data-testid="application-withdraw"
          >
            {t('campaigns.apply.withdraw')}
          </Button>
        )}
      </div>
    </li>
  );
}

function ActiveCollaborationCard({ collaboration }: { collaboration: ActiveCollaboration }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const labels = useCampaignLabels();
  const c = collaboration;
  return (
    <li
      className="space-y-3 rounded-xl border border-line bg-surface p-4"
      data-testid="active-collaboration"
      data-collaboration-id={c.collaboration_id}
      data-status={c.status}
    >
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1">
          <p dir="auto" className="text-sm font-semibold" data-testid="active-collaboration-title">
            {c.campaign_title}
          </p>
          <p className="text-xs text-muted">
            {c.brand_name} · {t('campaigns.collaboration.agreed', { amount: euros(c.agreed_amount) })}
          </p>
        </div>
        <StatusBadge status={c.status} />
      </div>
      {c.campaign_description && (
        <p className="line-clamp-2 text-xs leading-relaxed text-muted">{c.campaign_description}</p>
      )}
      {c.deliverables.length > 0 && (
        <ul className="space-y-1 text-xs">
          {c.deliverables.map((d) => (
            <li key={`${d.type}-${d.platform ?? ''}`} className="flex justify-between gap-2">
              <span>
                {d.type}
                {d.platform ? ` · ${labels.platform(d.platform)}` : ''}
              </span>
              <span className="tabular-nums text-muted">
                {d.completed}/{d.quantity}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="h-1.5 overflow-hidden rounded-full bg-surface-3">
        <div className="h-full rounded-full bg-accent" style={{ width: `${c.progress.percent}%` }} />
      </div>
      <Metrics metrics={c.performance_metrics} />
      <Link
        to={`/dashboard?view=genproStudio&tab=campaigns&campaign_id=${c.campaign_id}`}
        className={buttonClass('secondary', 'sm')}
      >
        {t('campaigns.collaboration.brandAssets')}
      </Link>
    </li>
  );
}

/** An approved creator's applications and My Active Collaborations. */
function CreatorCampaigns() {
  const { t } = useTranslation();
  const applications = useMyApplications();
  const active = useMyActiveCollaborations();
  const [details, setDetails] = useState<string | null>(null);
  return (
    <div className="space-y-8">
      <section data-testid="my-active-collaborations">
        <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
          <Handshake className="size-4 text-accent" aria-hidden />
          {t('campaigns.collaboration.myActive')}
        </h2>
        {active.isPending ? (
          <Spinner />
        ) : active.isError ? (
          <LoadFailed
            message={errorText(active.error, MESSAGES.campaigns.loadFailed)}
            onRetry={() => void active.refetch()}
          />
        ) : active.data.length === 0 ? (
          <p
            className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-sm text-muted"
            data-testid="active-empty"
          >
            {t('campaigns.collaboration.noneActive')}
          </p>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2">
            {active.data.map((c) => (
              <ActiveCollaborationCard key={c.collaboration_id} collaboration={c} />
            ))}
          </ul>
        )}
      </section>
      <section data-testid="my-applications">
        <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
          <Send className="size-4 text-accent" aria-hidden />
          {t('campaigns.apply.mine')}
        </h2>
        {applications.isPending ? (
          <Spinner />
        ) : applications.isError ? (
          <LoadFailed
            message={errorText(applications.error, MESSAGES.campaigns.loadFailed)}
            onRetry={() => void applications.refetch()}
          />
        ) : applications.data.length === 0 ? (
          <EmptyState
            testId="applications-empty"
            icon={<Megaphone className="size-6" aria-hidden />}
            title={t('campaigns.apply.none')}
          >
            <Link to="/dashboard?view=campaignsPool" className={buttonClass('primary', 'md', 'mt-5')}>
              {t('campaigns.pool.browse')}
            </Link>
          </EmptyState>
        ) : (
          <ul className="space-y-2">
            {applications.data.map((a) => (
              <ApplicationRow key={a.id} application={a} onDetails={() => setDetails(a.campaign_id)} />
            ))}
          </ul>
        )}
      </section>
      <CampaignDetailsDialog id={details} onClose={() => setDetails(null)} />
    </div>
  );
}

/** The myCampaigns view: a brand's (or admin's) own campaigns; a creator's applications and collaborations. */
export default function MyCampaignsView() {
  const { user } = useOutletContext<DashboardContext>();
  return <div className="mt-6">{user.role === 'creator' ? <CreatorCampaigns /> : <BrandCampaigns />}</div>;
}
