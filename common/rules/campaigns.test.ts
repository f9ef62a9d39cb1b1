import { describe, expect, it } from 'vitest';
import { CAMPAIGN_CONTENT_TYPES, CAMPAIGN_PLATFORMS } from '../api/campaigns.constants.ts';
import { campaignPlanBody, createCampaignBody } from '../api/campaigns.ts';
import {
  acceptsApplications,
  audienceAgeError,
  audienceGeneration,
  budgetError,
  campaignDateErrors,
  canTransition,
  clampAge,
  daysOfDurationLabel,
  durationLabel,
  earliestLocalDate,
  estimateReach,
  eurosOfBudgetLabel,
  insufficientFundsMessage,
  isEditable,
  nextStatuses,
  splitBudget,
  suggestedTopupEuros,
} from './campaigns.ts';

describe('audience', () => {
  it('labels age ranges by generation (spec 9)', () => {
    expect(audienceGeneration(18, 25)).toBe('Gen Z');
    expect(audienceGeneration(20, 24)).toBe('Gen Z');
    expect(audienceGeneration(26, 35)).toBe('Millennials');
    expect(audienceGeneration(36, 50)).toBe('Gen X');
    expect(audienceGeneration(50, 70)).toBe('Boomers');
    expect(audienceGeneration(55, 60)).toBe('Boomers');
    expect(audienceGeneration(18, 35)).toBe('Multi-Gen');
    expect(audienceGeneration(13, 17)).toBe('Multi-Gen');
    expect(audienceGeneration(13, 70)).toBe('Multi-Gen');
  });

  it('keeps the slider within 13–70 and refuses ranges outside it', () => {
    expect(clampAge(5)).toBe(13);
    expect(clampAge(99)).toBe(70);
    expect(clampAge(30.4)).toBe(30);
    expect(audienceAgeError(13, 70)).toBeNull();
    expect(audienceAgeError(12, 30)).toBe('The audience age must be between 13 and 70');
    expect(audienceAgeError(40, 30)).toBe('The minimum age cannot be above the maximum age');
  });
});

describe('plan form labels', () => {
  it("reads the spec's budget ranges as their lower end and single amounts as themselves", () => {
    expect(eurosOfBudgetLabel('$1K - $5K')).toBe(1000);
    expect(eurosOfBudgetLabel('€500 – €1,000')).toBe(500);
    expect(eurosOfBudgetLabel('10K+')).toBe(10_000);
    expect(eurosOfBudgetLabel('2.5k')).toBe(2500);
    expect(eurosOfBudgetLabel('1,250')).toBe(1250);
    expect(eurosOfBudgetLabel('99.5')).toBe(99.5);
    expect(eurosOfBudgetLabel('$1M to $2M')).toBe(1_000_000);
    expect(eurosOfBudgetLabel('a lot')).toBeNull();
    expect(eurosOfBudgetLabel('')).toBeNull();
  });

  it('reads duration labels in days (a month is 30, as the label shows it)', () => {
    expect(daysOfDurationLabel('1 Week')).toBe(7);
    expect(daysOfDurationLabel('3 days')).toBe(3);
    expect(daysOfDurationLabel('2 Months')).toBe(60);
    expect(daysOfDurationLabel('10')).toBe(10);
    for (const days of [1, 5, 7, 14, 30, 90]) expect(daysOfDurationLabel(durationLabel(days))).toBeGreaterThan(0);
    expect(daysOfDurationLabel('soon')).toBeNull();
  });
});

describe('duration label', () => {
  it('shows days under a week, weeks up to 14 days, then months', () => {
    expect(durationLabel(1)).toBe('1 Day');
    expect(durationLabel(5)).toBe('5 Days');
    expect(durationLabel(7)).toBe('1 Week');
    expect(durationLabel(14)).toBe('2 Weeks');
    expect(durationLabel(30)).toBe('1 Month');
    expect(durationLabel(90)).toBe('3 Months');
  });
});

describe('budget', () => {
  it('refuses a budget over the wallet with the spec message and 2 decimals', () => {
    expect(insufficientFundsMessage(1050)).toBe('Insufficient funds. Need $10.50 more.');
    expect(budgetError(100, 10_000)).toBeNull();
    expect(budgetError(100.5, 10_000)).toBe('Insufficient funds. Need $0.50 more.');
    expect(budgetError(150, 2_000)).toBe('Insufficient funds. Need $130.00 more.');
    expect(budgetError(0.5, 10_000)).toBe('The budget must be at least €1');
    expect(budgetError(10.123, 10_000)).toBe('Amounts can have at most 2 decimals');
  });

  it('suggests the shortfall rounded up plus 100', () => {
    expect(suggestedTopupEuros(1050)).toBe(111);
    expect(suggestedTopupEuros(10_000)).toBe(200);
  });
});

describe('dates', () => {
  it('refuses an end before the start and a start in the past', () => {
    const today = '2026-03-10';
    expect(campaignDateErrors({ startDate: '2026-03-10', endDate: '2026-03-10' }, today)).toEqual({});
    expect(campaignDateErrors({ startDate: '2026-03-09' }, today)).toEqual({
      startDate: 'The start date cannot be in the past',
    });
    expect(campaignDateErrors({ startDate: '2026-03-12', endDate: '2026-03-11' }, today)).toEqual({
      endDate: 'The end date cannot be before the start date',
    });
    expect(campaignDateErrors({ startDate: '2026-02-30' }, today)).toEqual({ startDate: 'Enter a date as YYYY-MM-DD' });
  });

  it('takes the earliest local date on Earth as today on the server', () => {
    expect(earliestLocalDate(new Date('2026-03-10T06:00:00Z'))).toBe('2026-03-09');
    expect(earliestLocalDate(new Date('2026-03-10T13:00:00Z'))).toBe('2026-03-10');
  });
});

describe('status transitions', () => {
  it('allows the brand’s moves only', () => {
    expect(canTransition('draft', 'open')).toBe(true);
    expect(canTransition('open', 'running')).toBe(true);
    expect(canTransition('running', 'completed')).toBe(true);
    expect(canTransition('open', 'completed')).toBe(true);
    expect(canTransition('draft', 'running')).toBe(false);
    expect(canTransition('running', 'open')).toBe(false);
    expect(canTransition('completed', 'open')).toBe(false);
    expect(nextStatuses('completed')).toEqual([]);
    expect(isEditable('draft')).toBe(true);
    expect(isEditable('open')).toBe(false);
    expect(acceptsApplications('open')).toBe(true);
    expect(acceptsApplications('running')).toBe(false);
  });
});

describe('budget split and reach', () => {
  it('splits by scheduled posts to the cent and estimates reach from the assumed CPMs', () => {
    const split = splitBudget(100_000, [
      { platform: 'instagram', posts: 4 },
      { platform: 'tiktok', posts: 5 },
      { platform: 'youtube', posts: 1 },
    ]);
    expect(split.map((s) => s.amountCents)).toEqual([40_000, 50_000, 10_000]);
    expect(split.map((s) => s.percent)).toEqual([40, 50, 10]);
    const reach = estimateReach(split);
    // 400 € / 8 € CPM = 50,000; 500 € / 5 € = 100,000; 100 € / 12 € = 8,333 → 8,300
    expect(reach.perPlatform.map((p) => p.views)).toEqual([50_000, 100_000, 8_300]);
    expect(reach.total).toBe(158_300);
    expect(reach.basis).toContain('instagram: €400.00 at an assumed €8 per 1,000 views');
  });

  it('never loses a cent when the split does not divide evenly', () => {
    const split = splitBudget(1001, [
      { platform: 'instagram', posts: 1 },
      { platform: 'tiktok', posts: 1 },
      { platform: 'twitter', posts: 1 },
    ]);
    expect(split.reduce((n, s) => n + s.amountCents, 0)).toBe(1001);
  });
});

describe('contracts', () => {
  it('lists the spec’s platforms and content types', () => {
    expect(CAMPAIGN_PLATFORMS).toEqual(['instagram', 'tiktok', 'youtube', 'facebook', 'twitter']);
    expect(CAMPAIGN_CONTENT_TYPES).toEqual(['video', 'image', 'audio', 'mixed']);
  });

  it('needs an objective, a platform and a content type with their messages', () => {
    const result = campaignPlanBody.safeParse({
      objective: '  ',
      targetAudience: { ageMin: 18, ageMax: 25 },
      budget: 100,
      duration: 7,
      platforms: [],
      contentTypes: [],
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toContain('Please enter a campaign objective');
    expect(messages).toContain('Select at least one platform');
    expect(messages).toContain('Select at least one content type');
  });

  it('defaults a new campaign to open, PROMOTION, with no materials', () => {
    const body = createCampaignBody.parse({
      title: 'Launch',
      objective: 'Awareness',
      budget: 30,
      platforms: ['instagram'],
      contentTypes: ['video'],
    });
    expect(body.status).toBe('open');
    expect(body.category).toBe('PROMOTION');
    expect(body.ai_asset_ids).toEqual([]);
  });
});
