// The campaign plan form's opening: its title and draft status, the basics (name, objective) and the audience.
import { Save } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { AUDIENCE_AGE, CAMPAIGN_LIMITS } from '../../../common/api/campaigns.constants.ts';
import { audienceGeneration } from '../../../common/rules/campaigns.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { AgeRangeSlider } from './AgeRangeSlider.tsx';
import { useCampaignLabels } from './labels.tsx';
import { FieldError, Section, usePlanErrors } from './planFormParts.tsx';
import type { PlanStore } from './planStore.ts';

export function PlanFormHeader({ store, onSaveNow }: { store: PlanStore; onSaveNow: () => void }) {
  const draft = useStore(store, (s) => s.draft);
  const savedAt = useStore(store, (s) => s.savedAt);
  const { reset: onReset } = store.getState();
  const { t } = useTranslation();
  return (
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
  );
}

export function BasicsSection({ store }: { store: PlanStore }) {
  const draft = useStore(store, (s) => s.draft);
  const errors = usePlanErrors(store);
  const { update: onChange } = store.getState();
  const { t } = useTranslation();
  return (
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
  );
}

export function AudienceSection({ store }: { store: PlanStore }) {
  const draft = useStore(store, (s) => s.draft);
  const errors = usePlanErrors(store);
  const { update: onChange } = store.getState();
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  const generation = audienceGeneration(draft.ageMin, draft.ageMax);
  return (
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
  );
}
