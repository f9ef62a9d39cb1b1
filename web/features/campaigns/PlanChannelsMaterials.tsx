// The campaign plan form's channels (platforms, content types, KPIs) and the materials to start from.
import { ImagePlus, Video, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import {
  CAMPAIGN_CONTENT_TYPES,
  CAMPAIGN_KPIS,
  CAMPAIGN_LIMITS,
  CAMPAIGN_PLATFORMS,
} from '../../../common/api/campaigns.constants.ts';
import { Button } from '../../ui/Button.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { AssetThumb } from '../assets/AssetThumb.tsx';
import { useCampaignLabels } from './labels.tsx';
import { Chips, Section, usePlanErrors } from './planFormParts.tsx';
import type { PlanStore } from './planStore.ts';

export function ChannelsSection({ store }: { store: PlanStore }) {
  const draft = useStore(store, (s) => s.draft);
  const errors = usePlanErrors(store);
  const { update: onChange } = store.getState();
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  return (
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
  );
}

export function MaterialsSection({ store }: { store: PlanStore }) {
  const materials = useStore(store, (s) => s.materials);
  const { setMaterials: onMaterialsChange, addMaterials } = store.getState();
  const { t } = useTranslation();
  const [picker, setPicker] = useState<'image' | 'video' | null>(null);
  return (
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
  );
}
