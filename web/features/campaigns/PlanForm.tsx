import { Check, ImagePlus, Save, Video, Wallet, X } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import {
  AUDIENCE_AGE,
  CAMPAIGN_CONTENT_TYPES,
  CAMPAIGN_KPIS,
  CAMPAIGN_LIMITS,
  CAMPAIGN_PLATFORMS,
} from '../../../common/api/campaigns.constants.ts';
import { audienceGeneration } from '../../../common/rules/campaigns.ts';
import { useActionLabel, useFormatEuros } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { AssetThumb } from '../assets/AssetThumb.tsx';
import { AgeRangeSlider } from './AgeRangeSlider.tsx';
import type { DraftErrors } from './form.ts';
import { localToday } from './form.ts';
import { useCampaignLabels } from './labels.tsx';
import { campaignMessage } from './messages.ts';
import type { PlanStore } from './planStore.ts';

const DURATION_PRESETS = [3, 7, 14, 30, 90] as const;

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={`${id}-error`} data-testid={`plan-error-${id}`} className="text-xs text-danger" role="alert">
      {campaignMessage(message)}
    </p>
  );
}

/** A multi-select row of toggle chips (each a button with aria-pressed). */
function Chips<T extends string>({
  label,
  options,
  value,
  onChange,
  format,
  testIdPrefix,
  error,
  errorId,
}: {
  label: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (value: T[]) => void;
  format: (value: T) => string;
  testIdPrefix: string;
  error?: string;
  errorId: string;
}) {
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={error ? `${errorId}-error` : undefined}>
      <legend id={id} className={cn(labelClass, 'mb-2')}>
        {label}
      </legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const on = value.includes(option);
          return (
            <button
              key={option}
              type="button"
              aria-pressed={on}
              data-testid={`${testIdPrefix}-${option}`}
              onClick={() => onChange(on ? value.filter((v) => v !== option) : [...value, option])}
              className={cn(
                'inline-flex h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
                on
                  ? 'border-accent bg-accent-soft text-fg'
                  : 'border-line bg-surface-2 text-muted hover:border-line-strong hover:text-fg',
              )}
            >
              {on && <Check className="size-3.5 text-accent" aria-hidden />}
              {format(option)}
            </button>
          );
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4 rounded-xl border border-line bg-surface-2/40 p-4">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** The wallet line under the budget: the balance, or why it is unknown, and Add funds. */
export interface WalletState {
  balance: number | null;
  loading: boolean;
  error: string | null;
  retry: () => void;
  addFunds: () => void;
}

/** The Campaign parameters form (spec 3 and 5) that builds a plan. */
export function PlanForm({
  store,
  wallet,
  onSubmit,
  building,
  onSaveNow,
}: {
  store: PlanStore;
  wallet: WalletState;
  onSubmit: () => void;
  building: boolean;
  onSaveNow: () => void;
}) {
  const draft = useStore(store, (s) => s.draft);
  const shownErrors = useStore(store, (s) => s.errors);
  const showErrors = useStore(store, (s) => s.showErrors);
  const errors: DraftErrors = showErrors ? shownErrors : {};
  const materials = useStore(store, (s) => s.materials);
  const savedAt = useStore(store, (s) => s.savedAt);
  const { update: onChange, setMaterials: onMaterialsChange, addMaterials, reset: onReset } = store.getState();
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const euros = useFormatEuros();
  const actionLabel = useActionLabel();
  const [picker, setPicker] = useState<'image' | 'video' | null>(null);
  const today = localToday();
  const generation = audienceGeneration(draft.ageMin, draft.ageMax);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="plan-form" aria-busy={building}>
      <div className="space-y-2">
        <div>
          <h2 className="text-base font-semibold">{t('campaigns.plan.formTitle')}</h2>
          <p className="mt-0.5 text-sm text-muted">{t('campaigns.plan.formHint')}</p>
        </div>
        <div className="flex flex-wrap items-center gap-x-1 gap-y-1 text-xs text-subtle">
          <span data-testid="draft-status" aria-live="polite" className="me-auto">
            {savedAt
              ? t('campaigns.plan.draftSaved', {
                  time: savedAt.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }),
                })
              : t('campaigns.plan.draftAuto')}
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={onSaveNow}
            disabled={!draft.objective.trim()}
            data-testid="draft-save"
          >
            <Save className="size-3.5" aria-hidden />
            {t('campaigns.plan.saveDraft')}
          </Button>
          <Button variant="ghost" size="sm" onClick={onReset} data-testid="draft-reset">
            {t('campaigns.plan.reset')}
          </Button>
        </div>
      </div>

      <Section title={t('campaigns.plan.basics')}>
        <div className="space-y-1.5">
          <label htmlFor="plan-name" className={labelClass}>
            {t('campaigns.plan.name')}
          </label>
          <input
            id="plan-name"
            value={draft.name}
            maxLength={CAMPAIGN_LIMITS.titleLength}
            placeholder={t('campaigns.plan.namePlaceholder')}
            onChange={(e) => onChange({ name: e.target.value })}
            className={cn(inputClass, 'h-10')}
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="plan-objective" className={labelClass}>
            {t('campaigns.plan.objective')} <span className="text-danger">*</span>
          </label>
          <textarea
            id="plan-objective"
            data-testid="plan-objective"
            value={draft.objective}
            maxLength={CAMPAIGN_LIMITS.objectiveLength}
            placeholder={t('campaigns.plan.objectivePlaceholder')}
            aria-invalid={errors.objective ? true : undefined}
            aria-describedby={errors.objective ? 'objective-error' : undefined}
            onChange={(e) => onChange({ objective: e.target.value })}
            rows={3}
            className={cn(inputClass, 'min-h-20 resize-y py-2 leading-relaxed')}
          />
          <FieldError id="objective" message={errors.objective} />
        </div>
      </Section>

      <Section title={t('campaigns.plan.audience')}>
        <AgeRangeSlider
          min={AUDIENCE_AGE.min}
          max={AUDIENCE_AGE.max}
          value={[draft.ageMin, draft.ageMax]}
          onChange={([ageMin, ageMax]) => onChange({ ageMin, ageMax })}
          label={t('campaigns.plan.ageRange')}
          minLabel={t('campaigns.plan.ageMin')}
          maxLabel={t('campaigns.plan.ageMax')}
          summary={t('campaigns.plan.ageSummary', {
            min: draft.ageMin,
            max: draft.ageMax,
            generation: labels.generation(generation),
          })}
        />
        <p className="text-xs text-muted">
          <span
            className="me-2 inline-flex h-6 items-center rounded-full bg-accent-soft px-2.5 font-medium text-accent"
            data-testid="audience-generation"
            data-generation={generation}
          >
            {labels.generation(generation)}
          </span>
          {t('campaigns.plan.generationHint')}
        </p>
        <FieldError id="age" message={errors.age} />
        <div className="space-y-1.5">
          <label htmlFor="plan-audience" className={labelClass}>
            {t('campaigns.plan.audienceDescription')}
          </label>
          <input
            id="plan-audience"
            value={draft.audience}
            maxLength={CAMPAIGN_LIMITS.audienceDescriptionLength}
            placeholder={t('campaigns.plan.audiencePlaceholder')}
            onChange={(e) => onChange({ audience: e.target.value })}
            className={cn(inputClass, 'h-10')}
          />
        </div>
      </Section>

      <Section title={t('campaigns.plan.budgetAndTiming')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <label htmlFor="plan-budget" className={labelClass}>
              {t('campaigns.plan.budget')}
            </label>
            <div className="relative">
              <span className="pointer-events-none absolute inset-y-0 start-3 flex items-center text-sm text-subtle">
                €
              </span>
              <input
                id="plan-budget"
                data-testid="plan-budget"
                type="number"
                inputMode="decimal"
                min={CAMPAIGN_LIMITS.minBudgetEuros}
                max={wallet.balance ?? undefined}
                step="0.01"
                value={draft.budget}
                aria-invalid={errors.budget ? true : undefined}
                aria-describedby="budget-wallet"
                onChange={(e) => onChange({ budget: e.target.value })}
                className={cn(inputClass, 'h-10 ps-7 tabular-nums')}
              />
            </div>
            <div id="budget-wallet" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
              <Wallet className="size-3.5" aria-hidden />
              {wallet.loading ? (
                <span>{t('campaigns.plan.walletLoading')}</span>
              ) : wallet.error ? (
                <>
                  <span className="text-danger">{wallet.error}</span>
                  <button type="button" className="font-medium text-accent hover:underline" onClick={wallet.retry}>
                    {t('campaigns.tryAgain')}
                  </button>
                </>
              ) : (
                <span data-testid="plan-wallet">
                  {t('campaigns.plan.walletBalance', { amount: euros(wallet.balance ?? 0) })}
                </span>
              )}
              <button
                type="button"
                data-testid="plan-add-funds"
                className="font-medium text-accent hover:underline"
                onClick={wallet.addFunds}
              >
                {t('campaigns.plan.addFunds')}
              </button>
            </div>
            {errors.budget && (
              <p id="budget-error" data-testid="plan-error-budget" className="text-xs text-danger" role="alert">
                {campaignMessage(errors.budget)}{' '}
                {errors.budget.startsWith('Insufficient funds') && (
                  <button type="button" className="font-medium underline" onClick={wallet.addFunds}>
                    {t('campaigns.plan.addFunds')}
                  </button>
                )}
              </p>
            )}
          </div>
          <div className="space-y-1.5">
            <div className="flex items-center justify-between gap-2">
              <label htmlFor="plan-duration" className={labelClass}>
                {t('campaigns.plan.duration')}
              </label>
              <output htmlFor="plan-duration" className="text-xs font-semibold text-fg" data-testid="duration-label">
                {labels.duration(draft.durationDays)}
              </output>
            </div>
            <div className="flex items-center gap-2">
              <input
                id="plan-duration"
                data-testid="plan-duration"
                type="number"
                min={CAMPAIGN_LIMITS.minDurationDays}
                max={CAMPAIGN_LIMITS.maxDurationDays}
                step={1}
                value={Number.isFinite(draft.durationDays) ? draft.durationDays : ''}
                aria-invalid={errors.duration ? true : undefined}
                onChange={(e) => onChange({ durationDays: Math.round(Number(e.target.value)) })}
                className={cn(inputClass, 'h-10 w-24 tabular-nums')}
              />
              <span className="text-sm text-muted">{t('campaigns.plan.days')}</span>
            </div>
            <div className="flex flex-wrap gap-1.5">
              {DURATION_PRESETS.map((days) => (
                <button
                  key={days}
                  type="button"
                  aria-pressed={draft.durationDays === days}
                  onClick={() => onChange({ durationDays: days })}
                  className={cn(
                    'h-7 rounded-full border px-2.5 text-xs font-medium transition-colors',
                    'focus-visible:outline-2 focus-visible:outline-accent',
                    draft.durationDays === days
                      ? 'border-accent bg-accent-soft text-fg'
                      : 'border-line text-muted hover:text-fg',
                  )}
                >
                  {labels.duration(days)}
                </button>
              ))}
            </div>
            <FieldError id="duration" message={errors.duration} />
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <label htmlFor="plan-start" className={labelClass}>
              {t('campaigns.plan.startDate')}
            </label>
            <input
              id="plan-start"
              data-testid="plan-start"
              type="date"
              min={today}
              value={draft.startDate}
              aria-invalid={errors.startDate ? true : undefined}
              onChange={(e) => onChange({ startDate: e.target.value })}
              className={cn(inputClass, 'h-10 dark:[color-scheme:dark]')}
            />
            <FieldError id="startDate" message={errors.startDate} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="plan-end" className={labelClass}>
              {t('campaigns.plan.endDate')}
            </label>
            <input
              id="plan-end"
              data-testid="plan-end"
              type="date"
              min={draft.startDate || today}
              value={draft.endDate}
              aria-invalid={errors.endDate ? true : undefined}
              onChange={(e) => onChange({ endDate: e.target.value })}
              className={cn(inputClass, 'h-10 dark:[color-scheme:dark]')}
            />
            <FieldError id="endDate" message={errors.endDate} />
          </div>
        </div>
      </Section>

      <Section title={t('campaigns.plan.channels')}>
        <Chips
          label={t('campaigns.plan.platforms')}
          options={CAMPAIGN_PLATFORMS}
          value={draft.platforms}
          onChange={(platforms) => onChange({ platforms })}
          format={labels.platform}
          testIdPrefix="plan-platform"
          error={errors.platforms}
          errorId="platforms"
        />
        <Chips
          label={t('campaigns.plan.contentTypes')}
          options={CAMPAIGN_CONTENT_TYPES}
          value={draft.contentTypes}
          onChange={(contentTypes) => onChange({ contentTypes })}
          format={labels.contentType}
          testIdPrefix="plan-content"
          error={errors.contentTypes}
          errorId="contentTypes"
        />
        <Chips
          label={t('campaigns.plan.kpis')}
          options={CAMPAIGN_KPIS}
          value={draft.kpis}
          onChange={(kpis) => onChange({ kpis })}
          format={labels.kpi}
          testIdPrefix="plan-kpi"
          errorId="kpis"
        />
      </Section>

      <Section title={t('campaigns.plan.materials')}>
        <p className="-mt-2 text-xs text-muted">
          {t('campaigns.plan.materialsHint', { max: CAMPAIGN_LIMITS.maxMaterials })}
        </p>
        {materials.length > 0 && (
          <ul className="grid grid-cols-4 gap-2 sm:grid-cols-6" data-testid="plan-materials">
            {materials.map((asset) => (
              <li key={asset.id} className="relative aspect-square overflow-hidden rounded-lg border border-line">
                <AssetThumb asset={asset} className="size-full" />
                <button
                  type="button"
                  onClick={() => onMaterialsChange(materials.filter((m) => m.id !== asset.id))}
                  aria-label={t('campaigns.plan.removeMaterial')}
                  className="absolute end-1 top-1 grid size-6 place-items-center rounded-full bg-black/70 text-white hover:bg-black"
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setPicker('image')}>
            <ImagePlus className="size-4" aria-hidden />
            {t('campaigns.plan.addImages')}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setPicker('video')}>
            <Video className="size-4" aria-hidden />
            {t('campaigns.plan.addVideos')}
          </Button>
        </div>
        <AssetPicker
          open={picker !== null}
          onOpenChange={(open) => !open && setPicker(null)}
          kind={picker ?? 'image'}
          max={Math.max(1, CAMPAIGN_LIMITS.maxMaterials - materials.length)}
          onPick={addMaterials}
        />
      </Section>

      <Button
        type="submit"
        size="lg"
        className="w-full sm:w-auto"
        loading={building}
        disabled={wallet.loading}
        data-testid="build-plan"
      >
        {actionLabel('buildCampaignPlan', building)}
      </Button>
    </form>
  );
}
