import { Lock } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext, useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import type { CampaignPlan } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { DashboardContext } from '../../api/auth.ts';
import { translateMessage } from '../../i18n/index.ts';
import { useAccountRoute } from '../../ui/account-route.ts';
import { DraftRestoredNote, useDraft, useDraftOwner } from '../../ui/drafts.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { LibraryLink } from '../assets/LibraryLink.tsx';
import { MediaViewer } from '../assets/MediaViewer.tsx';
import { useWallet } from '../billing/api.ts';
import { useBuildPlan, useCampaign, useCampaignAssets, useCreateCampaign } from './api.ts';
import { CAMPAIGN_DRAFT, saveDraftNow, useDraftAutosave } from './draft.ts';
import { createBody, EMPTY_DRAFT, hasObjective, parseDraft, planBody } from './form.ts';
import { EmptyState, LoadFailed } from './labels.tsx';
import { campaignMessage, errorText } from './messages.ts';
import { PlanForm } from './PlanForm.tsx';
import { CampaignCreated, PlanProgress, PlanResult } from './PlanResult.tsx';
import { createPlanStore } from './planStore.ts';

function SectionHeader({ title, description }: { title: string; description?: string }) {
  return (
    <div className="mb-3">
      <h2 className="text-base font-semibold">{title}</h2>
      {description && <p className="mt-0.5 text-sm text-muted">{description}</p>}
    </div>
  );
}

/** Brand Assets: the materials of the campaign named by `?campaign_id=` (spec 2.2). */
function BrandAssets({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation();
  const campaign = useCampaign(campaignId);
  const assets = useCampaignAssets(campaignId);
  const [viewing, setViewing] = useState<number | null>(null);
  const list = assets.data ?? [];
  return (
    <section data-testid="brand-assets" className="rounded-2xl border border-line bg-surface p-4 sm:p-5">
      <SectionHeader
        title={t('campaigns.brandAssets.title')}
        description={
          campaign.data
            ? t('campaigns.brandAssets.forCampaign', { title: campaign.data.title, brand: campaign.data.brandName })
            : t('campaigns.brandAssets.description')
        }
      />
      {assets.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      ) : assets.isError ? (
        <LoadFailed
          message={errorText(assets.error, MESSAGES.campaigns.loadFailed)}
          onRetry={() => void assets.refetch()}
        />
      ) : list.length === 0 ? (
        <p
          className="rounded-xl bg-surface-2 px-4 py-6 text-center text-sm text-muted"
          data-testid="brand-assets-empty"
        >
          {t('campaigns.brandAssets.empty')}
        </p>
      ) : (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-6">
          {list.map((material, index) => (
            <li key={material.id}>
              <button
                type="button"
                onClick={() => setViewing(index)}
                className="block aspect-square w-full overflow-hidden rounded-lg border border-line bg-surface-3 focus-visible:outline-2 focus-visible:outline-accent"
                aria-label={material.prompt ?? t('campaigns.details.material', { n: index + 1 })}
                data-testid="brand-asset"
              >
                {material.type === 'video' ? (
                  <video src={`${material.url}#t=0.1`} muted preload="metadata" className="size-full object-cover" />
                ) : (
                  <img src={material.url} alt="" loading="lazy" className="size-full object-cover" />
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      <MediaViewer items={list} index={viewing} onIndexChange={setViewing} onClose={() => setViewing(null)} />
    </section>
  );
}

/** The plan builder: form → Build Campaign Plan (with progress) → plan → create (open or draft) → success. */
function CampaignBuilder() {
  const { t } = useTranslation();
  const account = useAccountRoute();
  const wallet = useWallet();
  const build = useBuildPlan();
  const create = useCreateCampaign();
  const [store] = useState(createPlanStore);
  const { draft, stage, creating, createError, planError } = useStore(store);
  const { setSavedAt, reset, restore } = store.getState();
  const owner = useDraftOwner();
  const kept = useDraft({
    screen: CAMPAIGN_DRAFT,
    value: draft,
    isEmpty: (value) => !hasObjective(value),
    parse: parseDraft,
    restore,
    reset: () => restore(EMPTY_DRAFT),
  });

  const walletCents = wallet.data?.wallet.balanceCents ?? null;
  useDraftAutosave(owner, draft, hasObjective, setSavedAt);

  // Once the user has tried to submit, errors follow every change (the wallet may arrive later too).
  useEffect(() => {
    store.getState().recheck(walletCents);
  }, [store, walletCents]);

  const submit = () => {
    if (!store.getState().validate(walletCents)) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    build.mutate(planBody(store.getState().draft), {
      onSuccess: (plan) => store.getState().planBuilt(plan),
      onError: (error) => store.getState().planFailed(errorText(error, MESSAGES.campaigns.planFailed)),
    });
  };

  const createCampaign = (plan: CampaignPlan, status: 'open' | 'draft') => {
    const { draft, materials, createStarted, created, createFailed, createSettled } = store.getState();
    createStarted(status);
    create.mutate(
      createBody(
        draft,
        plan,
        materials.map((m) => m.id),
        status,
      ),
      {
        onSuccess: (campaign) => {
          kept.clear();
          created(plan, campaign);
        },
        onError: (error) => createFailed(errorText(error, MESSAGES.campaigns.createFailed)),
        onSettled: createSettled,
      },
    );
  };

  const walletState = {
    balance: wallet.data?.wallet.balance ?? null,
    loading: wallet.isPending,
    error: wallet.isError ? translateMessage(MESSAGES.payments.walletLoadFailed) : null,
    retry: () => void wallet.refetch(),
    // The checkout leaves the app: keep the form so it comes back afterwards.
    addFunds: () => {
      if (hasObjective(draft)) saveDraftNow(owner, draft);
      account.open('billing');
    },
  };

  if (stage.kind === 'created')
    return <CampaignCreated campaign={stage.campaign} plan={stage.plan} onAnother={reset} />;

  if (stage.kind === 'plan')
    return (
      <PlanResult
        plan={stage.plan}
        onEdit={store.getState().edit}
        onCreate={(status) => createCampaign(stage.plan, status)}
        creating={creating}
        error={createError}
      />
    );

  return (
    <div className="space-y-4">
      <DraftRestoredNote draft={kept} message={t('campaigns.plan.draftRestored')} />
      <div className="rounded-2xl border border-line bg-surface p-4 sm:p-5">
        <PlanForm
          store={store}
          wallet={walletState}
          onSubmit={submit}
          building={build.isPending}
          onSaveNow={() => saveDraftNow(owner, store.getState().draft) && setSavedAt(new Date())}
        />
      </div>
      {build.isPending && <PlanProgress />}
      {planError && <LoadFailed message={planError} onRetry={submit} testId="plan-failed" />}
    </div>
  );
}

/**
 * The Campaigns tab of the Creation Studio (spec 2.2): Brand Assets (`?campaign_id=`), the campaign plan
 * builder (brands), the Campaign Workspace (passed in by the studio) and a link to the Library view.
 */
export function CampaignsTab({ workspace }: { workspace: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useOutletContext<DashboardContext>();
  const [params] = useSearchParams();
  const campaignId = params.get('campaign_id');
  const isBrand = user.role === 'brand';
  const validId = useMemo(() => (campaignId && /^[0-9a-f-]{36}$/i.test(campaignId) ? campaignId : null), [campaignId]);

  return (
    <div className="space-y-6" data-testid="campaigns-tab">
      {validId && <BrandAssets campaignId={validId} />}
      {isBrand ? (
        <CampaignBuilder />
      ) : (
        <EmptyState
          testId="plan-brand-only"
          icon={<Lock className="size-6" aria-hidden />}
          title={campaignMessage(MESSAGES.campaigns.brandOnly)}
        >
          <p className="mt-2 max-w-md text-sm text-muted">{t('campaigns.plan.brandOnlyHint')}</p>
        </EmptyState>
      )}
      {workspace}
      <LibraryLink />
    </div>
  );
}
