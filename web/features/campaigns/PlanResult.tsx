import { CalendarDays, CircleCheck, Eye, Megaphone, PencilLine, PieChart, Rocket, Save, Target } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Campaign, CampaignPlan } from '../../../common/api/campaigns.ts';
import { useFormatEuros } from '../../i18n/format.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { useCampaignLabels } from './labels.tsx';

/**
 * Progress while the text engine writes the plan. The call reports no progress of its own, so the bar is
 * the spec's rising estimate (5, then 2 more each second, capped at 95) with the stage it is likely in.
 */
export function PlanProgress() {
  const { t } = useTranslation();
  const [ticks, setTicks] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTicks((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const percent = Math.min(95, 5 + ticks * 2);
  const stage = percent < 30 ? 'objective' : percent < 60 ? 'schedule' : 'budget';
  return (
    <div
      data-testid="plan-progress"
      className="rounded-2xl border border-line bg-surface p-6"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-label={t('campaigns.plan.building')}
    >
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium">{t(`campaigns.plan.stages.${stage}`)}</span>
        <span className="tabular-nums text-muted">{percent}%</span>
      </div>
      <div className="mt-3 h-2 overflow-hidden rounded-full bg-surface-3">
        <div className="h-full rounded-full bg-accent transition-all duration-700" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-3 text-xs text-subtle">{t('campaigns.plan.progressHint')}</p>
    </div>
  );
}

function Block({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-line bg-surface-2/40 p-4">
      <h3 className="mb-3 flex items-center gap-2 text-sm font-semibold">
        <span className="text-accent">{icon}</span>
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The campaign plan result view: title, schedule per platform, budget split, estimated reach and its basis. */
export function PlanResult({
  plan,
  onEdit,
  onCreate,
  creating,
  error,
}: {
  plan: CampaignPlan;
  onEdit: () => void;
  onCreate: (status: 'open' | 'draft') => void;
  creating: 'open' | 'draft' | null;
  error: string | null;
}) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const euros = useFormatEuros();
  return (
    <article data-testid="plan-result" className="space-y-4 rounded-2xl border border-line bg-surface p-4 sm:p-6">
      <header className="space-y-2">
        <p className="text-xs font-medium uppercase tracking-wide text-accent">{t('campaigns.plan.resultKicker')}</p>
        <h2 dir="auto" className="text-xl font-semibold tracking-tight" data-testid="plan-title">
          {plan.title}
        </h2>
        <p className="text-sm leading-relaxed text-muted">{plan.objective}</p>
        <dl className="grid grid-cols-2 gap-2 pt-2 sm:grid-cols-4">
          {[
            { label: t('campaigns.fields.budget'), value: euros(plan.budget), id: 'budget' },
            { label: t('campaigns.fields.duration'), value: labels.duration(plan.durationDays), id: 'duration' },
            {
              label: t('campaigns.fields.audience'),
              value: `${plan.audience.ageMin}–${plan.audience.ageMax} · ${labels.generation(plan.audience.generation)}`,
              id: 'audience',
            },
            { label: t('campaigns.fields.materials'), value: labels.number(plan.materialsCount), id: 'materials' },
          ].map((item) => (
            <div key={item.id} className="rounded-lg bg-surface-2 px-3 py-2">
              <dt className="text-xs text-subtle">{item.label}</dt>
              <dd className="break-words text-sm font-semibold tabular-nums" data-testid={`plan-${item.id}`}>
                {item.value}
              </dd>
            </div>
          ))}
        </dl>
      </header>

      {plan.phases.length > 0 && (
        <Block icon={<Target className="size-4" aria-hidden />} title={t('campaigns.plan.phases')}>
          <ol className="grid gap-2 sm:grid-cols-3">
            {plan.phases.map((phase) => (
              <li key={`${phase.phase}-${phase.startDay}`} className="rounded-lg bg-surface-2 px-3 py-2">
                <p className="text-sm font-medium">{phase.phase}</p>
                <p className="text-xs tabular-nums text-subtle">
                  {t('campaigns.plan.dayRange', { start: phase.startDay, end: phase.endDay })}
                </p>
                <p className="mt-1 text-xs text-muted">{phase.focus}</p>
              </li>
            ))}
          </ol>
        </Block>
      )}

      <Block icon={<CalendarDays className="size-4" aria-hidden />} title={t('campaigns.plan.schedule')}>
        <div className="space-y-3" data-testid="plan-schedule">
          {plan.schedule.map((row) => (
            <div key={row.platform} className="rounded-lg border border-line" data-platform={row.platform}>
              <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
                <span className="text-sm font-semibold">{labels.platform(row.platform)}</span>
                <span className="text-xs text-muted">
                  {t('campaigns.plan.postsAt', { count: row.posts, time: row.bestTime })}
                </span>
              </div>
              <ul className="divide-y divide-line">
                {row.items.map((item) => (
                  <li key={`${item.day}-${item.format}-${item.idea}`} className="flex gap-3 px-3 py-2 text-sm">
                    <span className="w-14 shrink-0 text-xs font-medium tabular-nums text-subtle">
                      {t('campaigns.plan.day', { day: item.day })}
                    </span>
                    <span className="min-w-0">
                      <span className="font-medium">{item.format}</span>
                      <span className="text-muted"> · {labels.contentType(item.contentType)}</span>
                      <span className="block text-xs leading-relaxed text-muted">{item.idea}</span>
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </Block>

      <div className="grid gap-4 lg:grid-cols-2">
        <Block icon={<PieChart className="size-4" aria-hidden />} title={t('campaigns.plan.budgetSplit')}>
          <ul className="space-y-2.5" data-testid="plan-budget-split">
            {plan.budgetSplit.map((share) => (
              <li key={share.platform}>
                <div className="flex items-center justify-between gap-2 text-sm">
                  <span>{labels.platform(share.platform)}</span>
                  <span className="tabular-nums">
                    {euros(share.amount)} <span className="text-xs text-subtle">({share.percent}%)</span>
                  </span>
                </div>
                <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-surface-3">
                  <div className="h-full rounded-full bg-accent" style={{ width: `${share.percent}%` }} />
                </div>
              </li>
            ))}
          </ul>
        </Block>
        <Block icon={<Eye className="size-4" aria-hidden />} title={t('campaigns.plan.reach')}>
          <p className="text-2xl font-semibold tabular-nums" data-testid="plan-reach">
            {labels.number(plan.estimatedReach)}
            <span className="ms-1.5 text-sm font-normal text-muted">{t('campaigns.plan.views')}</span>
          </p>
          <ul className="mt-2 space-y-1 text-xs text-muted">
            {plan.reachBasis.perPlatform.map((p) => (
              <li key={p.platform} className="flex justify-between gap-2 tabular-nums">
                <span>{labels.platform(p.platform)}</span>
                <span>
                  {t('campaigns.plan.reachLine', {
                    amount: euros(p.amount),
                    cpm: euros(p.cpmEuros),
                    views: labels.number(p.views),
                  })}
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs leading-relaxed text-subtle" data-testid="plan-reach-basis">
            {plan.reachBasis.explanation}
          </p>
        </Block>
      </div>

      {plan.kpis.length > 0 && (
        <Block icon={<CircleCheck className="size-4" aria-hidden />} title={t('campaigns.plan.kpis')}>
          <ul className="grid gap-2 sm:grid-cols-2">
            {plan.kpis.map((kpi) => (
              <li key={kpi.name} className="flex justify-between gap-2 rounded-lg bg-surface-2 px-3 py-2 text-sm">
                <span>{labels.kpi(kpi.name)}</span>
                <span className="font-medium">{kpi.target}</span>
              </li>
            ))}
          </ul>
        </Block>
      )}

      {error && <FormMessage>{error}</FormMessage>}

      <div className="flex flex-col-reverse gap-2 border-t border-line pt-4 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onEdit} disabled={creating !== null} data-testid="plan-edit">
          <PencilLine className="size-4" aria-hidden />
          {t('campaigns.plan.edit')}
        </Button>
        <Button
          variant="secondary"
          onClick={() => onCreate('draft')}
          loading={creating === 'draft'}
          disabled={creating !== null}
          data-testid="plan-save-draft"
        >
          <Save className="size-4" aria-hidden />
          {t('campaigns.plan.createDraft')}
        </Button>
        <Button
          onClick={() => onCreate('open')}
          loading={creating === 'open'}
          disabled={creating !== null}
          data-testid="plan-create-open"
        >
          <Rocket className="size-4" aria-hidden />
          {t('campaigns.plan.createOpen')}
        </Button>
      </div>
    </article>
  );
}

/** The campaign-created success screen (spec 3 Campaign result: title, budget, duration, materialsCount, estimatedReach). */
export function CampaignCreated({
  campaign,
  plan,
  onAnother,
}: {
  campaign: Campaign;
  plan: CampaignPlan;
  onAnother: () => void;
}) {
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const euros = useFormatEuros();
  const rows = [
    { id: 'budget', label: t('campaigns.fields.budget'), value: euros(campaign.budget ?? 0) },
    {
      id: 'duration',
      label: t('campaigns.fields.duration'),
      value: campaign.duration_days ? labels.duration(campaign.duration_days) : labels.duration(plan.durationDays),
    },
    { id: 'materials', label: t('campaigns.fields.materialsCount'), value: labels.number(plan.materialsCount) },
    { id: 'reach', label: t('campaigns.fields.estimatedReach'), value: labels.number(plan.estimatedReach) },
  ];
  return (
    <section
      data-testid="campaign-created"
      data-campaign-id={campaign.id}
      className="flex flex-col items-center rounded-2xl border border-success/30 bg-surface px-5 py-10 text-center sm:px-10"
    >
      <span className="mb-4 grid size-14 place-items-center rounded-2xl bg-success-soft text-success">
        <Megaphone className="size-7" aria-hidden />
      </span>
      <p className="text-sm font-medium text-success">
        {campaign.status === 'draft' ? t('campaigns.created.savedDraft') : t('campaigns.created.opened')}
      </p>
      <h2 dir="auto" className="mt-1 text-xl font-semibold tracking-tight" data-testid="created-title">
        {campaign.title}
      </h2>
      <dl className="mt-6 grid w-full max-w-xl grid-cols-2 gap-2 sm:grid-cols-4">
        {rows.map((row) => (
          <div key={row.id} className="rounded-lg bg-surface-2 px-3 py-2.5">
            <dt className="text-xs text-subtle">{row.label}</dt>
            <dd className="text-sm font-semibold tabular-nums" data-testid={`created-${row.id}`}>
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link
          to={`/dashboard/campaigns/${campaign.id}/manage`}
          className={buttonClass('primary')}
          data-testid="created-manage"
        >
          {t('campaigns.manage.open')}
        </Link>
        <Link to="/dashboard?view=myCampaigns" className={buttonClass('secondary')}>
          {t('campaigns.created.viewMine')}
        </Link>
        <Button variant="ghost" onClick={onAnother} data-testid="created-another">
          {t('campaigns.created.another')}
        </Button>
      </div>
    </section>
  );
}
