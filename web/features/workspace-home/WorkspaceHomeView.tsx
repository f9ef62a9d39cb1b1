// The workspace (dashboard view `creators`): where every role lands after log-in and after a payment. It
// gathers what the user is working on: running tasks, campaigns or collaborations, recent assets, the
// credit balance, and the first steps of a new account.
import { Check, Coins, ImagePlus, Link2, type LucideIcon, Rocket, ScanFace, Sparkles, WalletCards } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useOutletContext } from 'react-router';
import type { DashboardContext } from '../../api/auth.ts';
import { numberLocale } from '../../i18n/format.ts';
import { useAccountRoute } from '../../ui/account-route.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { AssetThumb, isVideoType } from '../assets/AssetThumb.tsx';
import { CreditBadge } from '../billing/CreditBadge.tsx';
import { TopUpDialog } from '../billing/TopUpDialog.tsx';
import { usePersonas } from '../personas/api.ts';
import { useSocialAccounts } from '../publishing/api.ts';
import { useRecentAssets } from './api.ts';
import { CampaignsCard } from './CampaignsCard.tsx';
import { RunningTasks } from './RunningTasks.tsx';
import { HomeEmpty, HomeLoadFailed, HomeLoading, HomeSection } from './sections.tsx';

const STUDIO = '/dashboard?view=genproStudio&tab=creator&mode=image';

function CreditsCard({ credits }: { credits: number }) {
  const { t, i18n } = useTranslation();
  const account = useAccountRoute();
  const [topUp, setTopUp] = useState(false);
  return (
    <HomeSection
      testId="home-credits"
      title={t('workspaceHome.credits.title')}
      icon={<Coins className="size-4" aria-hidden />}
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="text-3xl font-semibold tabular-nums" data-testid="home-credits-balance">
          {new Intl.NumberFormat(numberLocale(i18n.language)).format(credits)}
        </p>
        <CreditBadge credits={credits} />
      </div>
      <p className="mt-1 text-xs text-muted">{t('workspaceHome.credits.hint')}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => setTopUp(true)} data-testid="home-credits-add">
          <Coins className="size-4" aria-hidden />
          {t('workspaceHome.credits.add')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => account.open('billing')}
          data-testid="home-credits-billing"
        >
          <WalletCards className="size-4" aria-hidden />
          {t('workspaceHome.credits.billing')}
        </Button>
      </div>
      <TopUpDialog open={topUp} onOpenChange={setTopUp} balance={credits} />
    </HomeSection>
  );
}

function RecentAssets() {
  const { t } = useTranslation();
  const assets = useRecentAssets();
  const list = assets.data?.data ?? [];
  return (
    <HomeSection
      testId="home-assets"
      title={t('workspaceHome.assets.title')}
      icon={<ImagePlus className="size-4" aria-hidden />}
      action={
        list.length > 0 ? (
          <Link to={STUDIO} className="text-sm font-medium text-accent hover:underline">
            {t('workspaceHome.assets.all')}
          </Link>
        ) : undefined
      }
    >
      {assets.isPending ? (
        <HomeLoading />
      ) : assets.isError ? (
        <HomeLoadFailed onRetry={() => void assets.refetch()} />
      ) : list.length === 0 ? (
        <HomeEmpty testId="home-assets-empty" text={t('workspaceHome.assets.empty')}>
          <Link to={STUDIO} className={buttonClass('secondary', 'sm')}>
            <Sparkles className="size-4" aria-hidden />
            {t('workspaceHome.openStudio')}
          </Link>
        </HomeEmpty>
      ) : (
        <ul className="grid grid-cols-4 gap-2 sm:gap-3">
          {list.map((asset) => (
            <li key={asset.id}>
              <Link
                to={STUDIO}
                data-testid="home-asset"
                data-type={asset.type}
                title={asset.prompt ?? undefined}
                className="relative block aspect-square overflow-hidden rounded-xl border border-line bg-surface-2 transition-colors hover:border-line-strong"
              >
                <AssetThumb asset={asset} />
                {isVideoType(asset.type) && (
                  <span className="absolute start-1.5 bottom-1.5 rounded bg-black/60 px-1.5 py-0.5 text-xs font-medium text-white">
                    {t('workspaceHome.assets.video')}
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </HomeSection>
  );
}

interface Step {
  key: 'generate' | 'persona' | 'network';
  icon: LucideIcon;
  done: boolean;
  action: { to: string } | { onClick: () => void };
}

/** The first things a new account does; the card leaves once all three are done. */
function NextSteps() {
  const { t } = useTranslation();
  const account = useAccountRoute();
  const assets = useRecentAssets();
  const personas = usePersonas('');
  const social = useSocialAccounts();
  if (assets.isPending || personas.isPending || social.isPending) return null;
  const steps: Step[] = [
    { key: 'generate', icon: Sparkles, done: (assets.data?.pagination.total ?? 0) > 0, action: { to: STUDIO } },
    {
      key: 'persona',
      icon: ScanFace,
      done: (personas.data?.personas.length ?? 0) > 0,
      action: { to: '/dashboard?view=aiPersonas' },
    },
    {
      key: 'network',
      icon: Link2,
      done: (social.data ?? []).some((a) => a.isConnected),
      action: { onClick: () => account.open('social') },
    },
  ];
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <HomeSection
      testId="home-next-steps"
      title={t('workspaceHome.steps.title')}
      icon={<Rocket className="size-4" aria-hidden />}
      action={
        <span className="text-xs text-muted tabular-nums">
          {t('workspaceHome.steps.progress', { done, total: steps.length })}
        </span>
      }
    >
      <ol className="space-y-2">
        {steps.map((step) => {
          const Icon = step.done ? Check : step.icon;
          const label = t(`workspaceHome.steps.${step.key}.action`);
          return (
            <li
              key={step.key}
              data-testid={`home-step-${step.key}`}
              data-done={step.done}
              className="flex items-start gap-3 rounded-xl border border-line bg-surface-2/50 p-3"
            >
              <span
                className={cn(
                  'grid size-8 shrink-0 place-items-center rounded-full',
                  step.done ? 'bg-success-soft text-success' : 'bg-accent-soft text-accent',
                )}
              >
                <Icon className="size-4" aria-hidden />
              </span>
              <div className="min-w-0 flex-1">
                <p className={cn('text-sm font-medium', step.done && 'text-muted line-through')}>
                  {t(`workspaceHome.steps.${step.key}.title`)}
                </p>
                {!step.done && (
                  <>
                    <p className="text-xs text-muted">{t(`workspaceHome.steps.${step.key}.body`)}</p>
                    <div className="mt-2">
                      {'to' in step.action ? (
                        <Link to={step.action.to} className={buttonClass('secondary', 'sm')}>
                          {label}
                        </Link>
                      ) : (
                        <Button size="sm" variant="secondary" onClick={step.action.onClick}>
                          {label}
                        </Button>
                      )}
                    </div>
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </HomeSection>
  );
}

export default function WorkspaceHomeView() {
  const { user, credits } = useOutletContext<DashboardContext>();
  return (
    <div className="@container mt-6" data-testid="workspace-home">
      <div className="grid gap-5 @4xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] @4xl:items-start">
        <div className="min-w-0 space-y-5 @4xl:order-last">
          <CreditsCard credits={credits} />
          <NextSteps />
        </div>
        <div className="min-w-0 space-y-5">
          <RunningTasks />
          <CampaignsCard user={user} />
          <RecentAssets />
        </div>
      </div>
    </div>
  );
}
