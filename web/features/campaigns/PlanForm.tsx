import type { FormEvent } from 'react';
import { useActionLabel } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { AudienceSection, BasicsSection, PlanFormHeader } from './PlanBasics.tsx';
import { BudgetAndTimingSection, type WalletState } from './PlanBudgetTiming.tsx';
import { ChannelsSection, MaterialsSection } from './PlanChannelsMaterials.tsx';
import type { PlanStore } from './planStore.ts';

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
  const actionLabel = useActionLabel();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="plan-form" aria-busy={building}>
      <PlanFormHeader store={store} onSaveNow={onSaveNow} />
      <BasicsSection store={store} />
      <AudienceSection store={store} />
      <BudgetAndTimingSection store={store} wallet={wallet} />
      <ChannelsSection store={store} />
      <MaterialsSection store={store} />

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
