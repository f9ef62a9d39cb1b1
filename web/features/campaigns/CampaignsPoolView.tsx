import { Megaphone } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router';
import type { CampaignStatus } from '../../../common/api/campaigns.constants.ts';
import type { Campaign } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { acceptsApplications } from '../../../common/rules/campaigns.ts';
import type { DashboardContext } from '../../api/auth.ts';
import { Segmented } from '../../ui/controls.tsx';
import { useSearchChoice } from '../../ui/useSearchChoice.ts';
import { ApplyDialog } from './ApplyDialog.tsx';
import { useCampaignList } from './api.ts';
import { CampaignCard, CampaignGrid, flattenCampaigns } from './CampaignCard.tsx';
import { CampaignDetailsDialog } from './CampaignDetailsDialog.tsx';
import { EmptyState } from './labels.tsx';
import { campaignMessage } from './messages.ts';

type Filter = CampaignStatus | 'all';

/** The campaignsPool view: open campaigns (filter by status), details and the Apply modal. */
export default function CampaignsPoolView() {
  const { t } = useTranslation();
  const { user } = useOutletContext<DashboardContext>();
  const filters: Filter[] =
    user.role === 'admin' ? ['open', 'running', 'completed', 'draft', 'all'] : ['open', 'running', 'all'];
  const [status, setStatus] = useSearchChoice<Filter>('status', filters, 'open');
  const query = useCampaignList('pool', status, true);
  const campaigns = useMemo(() => flattenCampaigns(query.data?.pages), [query.data]);
  const [details, setDetails] = useState<string | null>(null);
  const [applying, setApplying] = useState<Campaign | null>(null);

  return (
    <div className="@container mt-6 space-y-4" data-testid="campaigns-pool">
      <Segmented
        label={t('campaigns.filter.label')}
        value={status}
        onChange={setStatus}
        options={filters.map((value) => ({ value, label: t(`campaigns.filter.${value}`) }))}
        testIdPrefix="pool-filter"
      />
      <CampaignGrid
        query={query}
        count={campaigns.length}
        testId="pool-grid"
        empty={
          <EmptyState
            testId="pool-empty"
            icon={<Megaphone className="size-6" aria-hidden />}
            title={campaignMessage(MESSAGES.campaigns.emptyPool)}
          >
            <p className="mt-1 text-sm text-muted">{t('campaigns.pool.emptyHint')}</p>
          </EmptyState>
        }
      >
        {campaigns.map((campaign) => (
          <CampaignCard
            key={campaign.id}
            campaign={campaign}
            onDetails={() => setDetails(campaign.id)}
            onApply={
              user.role === 'creator' && acceptsApplications(campaign.status) ? () => setApplying(campaign) : undefined
            }
          />
        ))}
      </CampaignGrid>
      <CampaignDetailsDialog id={details} onClose={() => setDetails(null)} />
      {applying && <ApplyDialog campaign={applying} onClose={() => setApplying(null)} />}
    </div>
  );
}
