// The plan form's state, its checks (the shared rules, so the form refuses what the server would) and the
// request bodies built from it.
import { z } from 'zod';
import {
  CAMPAIGN_CONTENT_TYPES,
  CAMPAIGN_DEFAULTS,
  CAMPAIGN_KPIS,
  CAMPAIGN_LIMITS,
  CAMPAIGN_PLATFORMS,
  type CampaignContentType,
  type CampaignKpi,
  type CampaignPlatform,
} from '../../../common/api/campaigns.constants.ts';
import type { CampaignPlan, CampaignPlanBody, CreateCampaignBody } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { audienceAgeError, budgetError, campaignDateErrors, clampAge } from '../../../common/rules/campaigns.ts';

const M = MESSAGES.campaigns;

export interface PlanDraft {
  name: string;
  objective: string;
  ageMin: number;
  ageMax: number;
  audience: string;
  /** As typed (euros). */
  budget: string;
  durationDays: number;
  platforms: CampaignPlatform[];
  contentTypes: CampaignContentType[];
  kpis: CampaignKpi[];
  startDate: string;
  endDate: string;
}

export const EMPTY_DRAFT: PlanDraft = {
  name: '',
  objective: '',
  ageMin: CAMPAIGN_DEFAULTS.audience.ageMin,
  ageMax: CAMPAIGN_DEFAULTS.audience.ageMax,
  audience: '',
  budget: String(CAMPAIGN_DEFAULTS.budgetEuros),
  durationDays: CAMPAIGN_DEFAULTS.durationDays,
  platforms: ['instagram'],
  contentTypes: ['video'],
  kpis: [],
  startDate: '',
  endDate: '',
};

const storedDraft = z.object({
  name: z.string().catch(''),
  objective: z.string().catch(''),
  ageMin: z.number().catch(EMPTY_DRAFT.ageMin),
  ageMax: z.number().catch(EMPTY_DRAFT.ageMax),
  audience: z.string().catch(''),
  budget: z.string().catch(EMPTY_DRAFT.budget),
  durationDays: z.number().int().min(CAMPAIGN_LIMITS.minDurationDays).catch(EMPTY_DRAFT.durationDays),
  platforms: z.array(z.enum(CAMPAIGN_PLATFORMS)).catch(EMPTY_DRAFT.platforms),
  contentTypes: z.array(z.enum(CAMPAIGN_CONTENT_TYPES)).catch(EMPTY_DRAFT.contentTypes),
  kpis: z.array(z.enum(CAMPAIGN_KPIS)).catch([]),
  startDate: z.string().catch(''),
  endDate: z.string().catch(''),
});

/** A draft read back from local storage; anything unreadable falls back to the defaults. */
export function parseDraft(value: unknown): PlanDraft | null {
  const parsed = storedDraft.safeParse(value);
  if (!parsed.success) return null;
  const d = parsed.data;
  const ageMin = clampAge(d.ageMin);
  return { ...d, ageMin, ageMax: Math.max(ageMin, clampAge(d.ageMax)) };
}

export const hasObjective = (draft: PlanDraft) => draft.objective.trim().length > 0;

/** YYYY-MM-DD of the user's own today. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export type DraftErrors = Partial<
  Record<'objective' | 'age' | 'budget' | 'duration' | 'platforms' | 'contentTypes' | 'startDate' | 'endDate', string>
>;

/** The form's errors (English messages from common/messages.ts); `walletCents` null while the wallet is unknown. */
export function checkDraft(draft: PlanDraft, walletCents: number | null, today = localToday()): DraftErrors {
  const errors: DraftErrors = {};
  if (!hasObjective(draft)) errors.objective = M.objectiveRequired;
  const age = audienceAgeError(draft.ageMin, draft.ageMax);
  if (age) errors.age = age;
  const budget = draft.budget.trim() === '' ? Number.NaN : Number(draft.budget);
  const money = budgetError(budget, walletCents ?? Number.MAX_SAFE_INTEGER);
  if (money) errors.budget = money;
  const { minDurationDays: lo, maxDurationDays: hi } = CAMPAIGN_LIMITS;
  if (!Number.isInteger(draft.durationDays) || draft.durationDays < lo || draft.durationDays > hi)
    errors.duration = M.durationRange(lo, hi);
  if (draft.platforms.length === 0) errors.platforms = M.platformsRequired;
  if (draft.contentTypes.length === 0) errors.contentTypes = M.contentTypesRequired;
  Object.assign(
    errors,
    campaignDateErrors({ startDate: draft.startDate || null, endDate: draft.endDate || null }, today),
  );
  return errors;
}

export function planBody(draft: PlanDraft): CampaignPlanBody {
  return {
    name: draft.name.trim(),
    objective: draft.objective.trim(),
    targetAudience: { ageMin: draft.ageMin, ageMax: draft.ageMax, description: draft.audience.trim() },
    budget: Number(draft.budget),
    duration: draft.durationDays,
    platforms: draft.platforms,
    contentTypes: draft.contentTypes,
    kpis: draft.kpis,
  };
}

export function createBody(
  draft: PlanDraft,
  plan: CampaignPlan,
  assetIds: string[],
  status: 'open' | 'draft',
): CreateCampaignBody {
  const base = planBody(draft);
  return {
    title: plan.title.slice(0, CAMPAIGN_LIMITS.titleLength),
    description: base.objective,
    objective: base.objective,
    budget: base.budget,
    platforms: base.platforms,
    contentTypes: base.contentTypes,
    kpis: base.kpis,
    deliverables: plan.deliverables,
    targetAudience: base.targetAudience,
    durationDays: draft.durationDays,
    startDate: draft.startDate || null,
    endDate: draft.endDate || null,
    plan,
    ai_asset_ids: assetIds,
    status,
  };
}
