// The campaign plan builder's state and steps, apart from its rendering (CampaignBuilder and PlanForm): the draft
// and its checks, the chosen materials, and the stage (form, plan, created) with its pending and error states.
// The server calls stay react-query mutations in the component, which reports their outcome here. One store per
// builder (createPlanStore); the draft kept in the browser is restored into it by the builder (restore).
import { createStore } from 'zustand/vanilla';
import type { Asset } from '../../../common/api/assets.ts';
import { CAMPAIGN_LIMITS } from '../../../common/api/campaigns.constants.ts';
import type { Campaign, CampaignPlan } from '../../../common/api/campaigns.ts';
import { checkDraft, type DraftErrors, EMPTY_DRAFT, type PlanDraft } from './form.ts';

type Stage =
  | { kind: 'form' }
  | { kind: 'plan'; plan: CampaignPlan }
  | { kind: 'created'; plan: CampaignPlan; campaign: Campaign };

export interface PlanState {
  draft: PlanDraft;
  materials: Asset[];
  errors: DraftErrors;
  /** Set by the first submit: from then on the errors follow every change. */
  showErrors: boolean;
  stage: Stage;
  creating: 'open' | 'draft' | null;
  createError: string | null;
  planError: string | null;
  savedAt: Date | null;
  update: (patch: Partial<PlanDraft>) => void;
  /** A draft kept from an earlier visit. */
  restore: (draft: PlanDraft) => void;
  setMaterials: (materials: Asset[]) => void;
  /** Picked assets join the materials once each, up to the campaign's limit. */
  addMaterials: (picked: Asset[]) => void;
  setSavedAt: (savedAt: Date | null) => void;
  /** Checks the draft again when errors are shown (the wallet may arrive later too). */
  recheck: (walletCents: number | null) => void;
  /** Submit: shows the draft's errors; true when it can be sent to build a plan. */
  validate: (walletCents: number | null) => boolean;
  planBuilt: (plan: CampaignPlan) => void;
  planFailed: (message: string) => void;
  createStarted: (status: 'open' | 'draft') => void;
  created: (plan: CampaignPlan, campaign: Campaign) => void;
  createFailed: (message: string) => void;
  createSettled: () => void;
  /** Back from the plan to the form. */
  edit: () => void;
  /** Start over with an empty form (the stored draft goes with it). */
  reset: () => void;
}

export function createPlanStore() {
  return createStore<PlanState>()((set, get) => ({
    draft: EMPTY_DRAFT,
    materials: [],
    errors: {},
    showErrors: false,
    stage: { kind: 'form' },
    creating: null,
    createError: null,
    planError: null,
    savedAt: null,
    update: (patch) => set((s) => ({ draft: { ...s.draft, ...patch } })),
    restore: (draft) => set({ draft }),
    setMaterials: (materials) => set({ materials }),
    addMaterials: (picked) => {
      const { materials } = get();
      const known = new Set(materials.map((m) => m.id));
      set({
        materials: [...materials, ...picked.filter((a) => !known.has(a.id))].slice(0, CAMPAIGN_LIMITS.maxMaterials),
      });
    },
    setSavedAt: (savedAt) => set({ savedAt }),
    recheck: (walletCents) => {
      const { showErrors, draft } = get();
      if (showErrors) set({ errors: checkDraft(draft, walletCents) });
    },
    validate: (walletCents) => {
      const found = checkDraft(get().draft, walletCents);
      set({ showErrors: true, errors: found, planError: null });
      return Object.keys(found).length === 0;
    },
    planBuilt: (plan) => set({ stage: { kind: 'plan', plan } }),
    planFailed: (planError) => set({ planError }),
    createStarted: (creating) => set({ creating, createError: null }),
    created: (plan, campaign) => set({ savedAt: null, stage: { kind: 'created', plan, campaign } }),
    createFailed: (createError) => set({ createError }),
    createSettled: () => set({ creating: null }),
    edit: () => set({ stage: { kind: 'form' } }),
    reset: () =>
      set({
        draft: EMPTY_DRAFT,
        materials: [],
        errors: {},
        showErrors: false,
        savedAt: null,
        stage: { kind: 'form' },
      }),
  }));
}
export type PlanStore = ReturnType<typeof createPlanStore>;
