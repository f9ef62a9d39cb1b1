// Campaign rules shared by the server (the authority) and the campaign form, so the form refuses
// exactly what the server would, with the same words. Pure: no Node and no DOM imports.

import {
  AUDIENCE_AGE,
  CAMPAIGN_LIMITS,
  type CampaignPlatform,
  type CampaignStatus,
  PLATFORM_CPM_EUROS,
} from '../api/campaigns.constants.ts';
import { eurosToCents, formatAmount, hasAtMostTwoDecimals } from '../api/money.ts';
import { MESSAGES } from '../messages.ts';

const M = MESSAGES.campaigns;

// ---- Audience ----

export type AudienceGeneration = 'Gen Z' | 'Millennials' | 'Gen X' | 'Boomers' | 'Multi-Gen';

/**
 * The generation label of an age range on the 13–70 slider (spec 9: 18-25 Gen Z, 26-35 Millennials,
 * 36-50 Gen X, 50 and over Boomers, else Multi-Gen). A range gets a generation only when it lies wholly
 * inside that generation's ages; 50 belongs to Gen X when the range ends there ([36, 50] is Gen X) and
 * to Boomers when it starts there ([50, 70] is Boomers). Anything wider, or reaching under 18, is
 * Multi-Gen.
 */
export function audienceGeneration(ageMin: number, ageMax: number): AudienceGeneration {
  const lo = Math.min(ageMin, ageMax);
  const hi = Math.max(ageMin, ageMax);
  if (lo >= 18 && hi <= 25) return 'Gen Z';
  if (lo >= 26 && hi <= 35) return 'Millennials';
  if (lo >= 36 && hi <= 50) return 'Gen X';
  if (lo >= 50) return 'Boomers';
  return 'Multi-Gen';
}

/** The slider's value kept inside 13–70 and rounded to whole years. */
export function clampAge(age: number): number {
  if (!Number.isFinite(age)) return AUDIENCE_AGE.min;
  return Math.min(AUDIENCE_AGE.max, Math.max(AUDIENCE_AGE.min, Math.round(age)));
}

/** Why an age range is refused, or null. */
export function audienceAgeError(ageMin: number, ageMax: number): string | null {
  const inRange = (a: number) => Number.isInteger(a) && a >= AUDIENCE_AGE.min && a <= AUDIENCE_AGE.max;
  if (!inRange(ageMin) || !inRange(ageMax)) return M.ageRange(AUDIENCE_AGE.min, AUDIENCE_AGE.max);
  if (ageMin > ageMax) return M.ageOrder;
  return null;
}

// ---- Duration ----

/**
 * The duration label (spec 9: up to 7 days as days, up to 14 as weeks, else months). Read with the
 * spec's default '1 Week' for 7 days: under 7 days shows days ("1 Day", "5 Days"), 7–14 days shows
 * weeks rounded ("1 Week", "2 Weeks"), longer shows months of 30 days rounded, at least 1
 * ("1 Month", "3 Months").
 */
export function durationLabel(days: number): string {
  const d = Math.max(1, Math.round(days));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (d < 7) return plural(d, 'Day');
  if (d <= 14) return plural(Math.round(d / 7), 'Week');
  return plural(Math.max(1, Math.round(d / 30)), 'Month');
}

/**
 * A duration as the spec's plan form labels it ('1 Week', '3 Days', '2 Months'; a month is 30 days, as in
 * durationLabel) or a number of days as text ('10'); null when it is neither.
 */
export function daysOfDurationLabel(label: string): number | null {
  const text = label.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const match = /^(\d+)\s*(day|week|month)s?$/i.exec(text);
  if (!match) return null;
  const perUnit = { day: 1, week: 7, month: 30 }[match[2].toLowerCase() as 'day' | 'week' | 'month'];
  return Number(match[1]) * perUnit;
}

/**
 * The budget a plan works with from the spec's range labels ('$1K - $5K', '€500 – €1,000', '10K+'): the range's
 * lower end, since the plan must fit the wallet and a brand naming a range has at least its lower end to spend.
 * Amounts are in the wallet's currency (euros) whatever sign the label uses. A single amount ('2500', '€2.5K')
 * is itself; null when the text is not an amount.
 */
export function eurosOfBudgetLabel(label: string): number | null {
  const amount = String.raw`[$€£]?\s*(\d+(?:[.,]\d+)*)\s*([kKmM])?`;
  const match = new RegExp(String.raw`^\s*${amount}\s*(?:(?:-|–|—|to)\s*${amount}|\+)?\s*$`).exec(label);
  if (!match) return null;
  const digits = match[1];
  // '1,000' and '2.500' group thousands; '2.5' is a decimal.
  const grouped = /^\d{1,3}([.,]\d{3})+$/.test(digits);
  const value = grouped ? Number(digits.replace(/[.,]/g, '')) : Number(digits.replace(',', '.'));
  if (!Number.isFinite(value)) return null;
  const scale = { k: 1_000, m: 1_000_000 }[(match[2] ?? '').toLowerCase() as 'k' | 'm'] ?? 1;
  return Math.round(value * scale * 100) / 100;
}

// ---- Money ----

/** How many cents the wallet lacks for a budget (0 when it covers it). */
export function budgetShortfallCents(budgetCents: number, walletCents: number): number {
  return Math.max(0, budgetCents - walletCents);
}

/** Spec 5: 'Insufficient funds. Need $X more.' with X the shortfall with two decimals. */
export function insufficientFundsMessage(shortfallCents: number): string {
  return M.insufficientFunds(formatAmount(shortfallCents));
}

/**
 * Why a budget is refused against the wallet, or null: the minimum (spec: 1), two decimals, our
 * ceiling, then the wallet balance ('Insufficient funds. Need $X more.').
 */
export function budgetError(budgetEuros: number, walletCents: number): string | null {
  if (!Number.isFinite(budgetEuros) || budgetEuros < CAMPAIGN_LIMITS.minBudgetEuros)
    return M.budgetMin(CAMPAIGN_LIMITS.minBudgetEuros);
  if (!hasAtMostTwoDecimals(budgetEuros)) return M.amountDecimals;
  if (budgetEuros > CAMPAIGN_LIMITS.maxBudgetEuros) return M.budgetMax(CAMPAIGN_LIMITS.maxBudgetEuros);
  const shortfall = budgetShortfallCents(eurosToCents(budgetEuros), walletCents);
  return shortfall > 0 ? insufficientFundsMessage(shortfall) : null;
}

/** Spec 9: the top-up suggested from a shortfall is the shortfall rounded up plus 100 (euros). */
export function suggestedTopupEuros(shortfallCents: number): number {
  return Math.ceil(shortfallCents / 100) + 100;
}

// ---- Dates ----

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written YYYY-MM-DD. */
function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * The date errors of a campaign (spec 5: end not before start, start not in the past). `today` is the
 * user's local date as YYYY-MM-DD; the server passes the earliest local date anywhere on Earth
 * (`earliestLocalDate`) so no time zone is refused its own today.
 */
export function campaignDateErrors(
  dates: { startDate?: string | null; endDate?: string | null },
  today: string,
): { startDate?: string; endDate?: string } {
  const out: { startDate?: string; endDate?: string } = {};
  const { startDate, endDate } = dates;
  if (startDate && !isIsoDate(startDate)) out.startDate = M.dateInvalid;
  else if (startDate && startDate < today) out.startDate = M.startInPast;
  if (endDate && !isIsoDate(endDate)) out.endDate = M.dateInvalid;
  else if (endDate && startDate && isIsoDate(startDate) && endDate < startDate) out.endDate = M.endBeforeStart;
  return out;
}

/** The local date in the time zone furthest behind UTC (UTC−12) at `now`, as YYYY-MM-DD. */
export function earliestLocalDate(now: Date): string {
  return new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);
}

// ---- Status ----

/**
 * The status changes a brand makes: draft → open (the budget is held), open → running, open or running
 * → completed (what is still held goes back to the wallet). A draft may also be deleted.
 */
const BRAND_TRANSITIONS: Record<CampaignStatus, readonly CampaignStatus[]> = {
  draft: ['open'],
  open: ['running', 'completed'],
  running: ['completed'],
  completed: [],
};

export function canTransition(from: CampaignStatus, to: CampaignStatus): boolean {
  return BRAND_TRANSITIONS[from].includes(to);
}

/** The statuses a brand can move a campaign to from `from`. */
export function nextStatuses(from: CampaignStatus): readonly CampaignStatus[] {
  return BRAND_TRANSITIONS[from];
}

/** Only drafts are edited and deleted; a campaign holding money changes only by its status. */
export function isEditable(status: CampaignStatus): boolean {
  return status === 'draft';
}

/** Creators apply to open campaigns only. */
export function acceptsApplications(status: CampaignStatus): boolean {
  return status === 'open';
}

// ---- Budget split and estimated reach ----

export interface BudgetShare {
  platform: CampaignPlatform;
  /** Scheduled posts on the platform, the weight of its share. */
  posts: number;
  amountCents: number;
  /** Percent of the budget, one decimal. */
  percent: number;
}

/**
 * Splits the budget across platforms in proportion to the posts scheduled on each (largest
 * remainder, so the shares add up to the budget to the cent). Platforms with no posts get nothing.
 */
export function splitBudget(
  budgetCents: number,
  schedule: ReadonlyArray<{ platform: CampaignPlatform; posts: number }>,
): BudgetShare[] {
  const totalPosts = schedule.reduce((n, s) => n + Math.max(0, s.posts), 0);
  if (totalPosts === 0 || budgetCents <= 0)
    return schedule.map((s) => ({ platform: s.platform, posts: s.posts, amountCents: 0, percent: 0 }));
  const exact = schedule.map((s) => (budgetCents * Math.max(0, s.posts)) / totalPosts);
  const floors = exact.map(Math.floor);
  let left = budgetCents - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((v, i) => ({ i, frac: v - Math.floor(v) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] += 1;
    left -= 1;
  }
  return schedule.map((s, i) => ({
    platform: s.platform,
    posts: s.posts,
    amountCents: floors[i],
    percent: Math.round((floors[i] / budgetCents) * 1000) / 10,
  }));
}

export interface ReachEstimate {
  /** Estimated views over the campaign, rounded down to hundreds. */
  total: number;
  perPlatform: Array<{ platform: CampaignPlatform; amountCents: number; cpmEuros: number; views: number }>;
  /** How the figure was reached, in one sentence per platform. */
  basis: string;
}

/**
 * Estimated reach from the budget split: each platform's share buys views at the assumed cost per
 * thousand views (PLATFORM_CPM_EUROS): views = amount / CPM × 1000, rounded down to hundreds.
 */
export function estimateReach(split: readonly BudgetShare[]): ReachEstimate {
  const perPlatform = split.map((s) => {
    const cpmEuros = PLATFORM_CPM_EUROS[s.platform];
    const views = Math.floor(((s.amountCents / 100 / cpmEuros) * 1000) / 100) * 100;
    return { platform: s.platform, amountCents: s.amountCents, cpmEuros, views };
  });
  const total = perPlatform.reduce((n, p) => n + p.views, 0);
  const lines = perPlatform.map(
    (p) =>
      `${p.platform}: €${formatAmount(p.amountCents)} at an assumed €${p.cpmEuros} per 1,000 views ≈ ${p.views.toLocaleString('en-US')} views`,
  );
  const basis = `Budget split by scheduled posts; ${lines.join('; ')}. Planning assumptions, not measured results.`;
  return { total, perPlatform, basis };
}
