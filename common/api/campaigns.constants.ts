// Campaign marketplace: campaigns, applications, collaborations (issue 8). Named by the spec; server and web import them.

/** Spec 9 Campaign plan: the platforms and content types offered. */
export const CAMPAIGN_PLATFORMS = ['instagram', 'tiktok', 'youtube', 'facebook', 'twitter'] as const;

export type CampaignPlatform = (typeof CAMPAIGN_PLATFORMS)[number];

export const CAMPAIGN_CONTENT_TYPES = ['video', 'image', 'audio', 'mixed'] as const;

export type CampaignContentType = (typeof CAMPAIGN_CONTENT_TYPES)[number];

/** KPIs a brand may track (the spec names the field, not the list; ours). */
export const CAMPAIGN_KPIS = [
  'reach',
  'impressions',
  'engagement_rate',
  'video_views',
  'clicks',
  'conversions',
  'followers',
] as const;

export type CampaignKpi = (typeof CAMPAIGN_KPIS)[number];

export const CAMPAIGN_STATUSES = ['draft', 'open', 'running', 'completed'] as const;

export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const APPLICATION_STATUSES = ['pending', 'accepted', 'declined', 'withdrawn'] as const;

export const COLLABORATION_STATUSES = ['active', 'completed', 'cancelled'] as const;

/** Spec 5/9: the audience age slider. */
export const AUDIENCE_AGE = { min: 13, max: 70 } as const;

export const CAMPAIGN_LIMITS = {
  /** Spec 5: budget minimum 1 (euros); the maximum is the wallet balance. */
  minBudgetEuros: 1,
  maxBudgetEuros: 1_000_000,
  minDurationDays: 1,
  maxDurationDays: 365,
  titleLength: 120,
  descriptionLength: 4000,
  objectiveLength: 2000,
  audienceDescriptionLength: 500,
  /** ai_asset_ids plus sessionMaterials. */
  maxMaterials: 20,
  maxDeliverables: 20,
  maxDeliverableQuantity: 1000,
  applicationMessageLength: 2000,
  maxRateEuros: 1_000_000,
  pageSize: 50,
  maxPageSize: 100,
} as const;

export const CAMPAIGN_DEFAULTS = {
  /** Spec 9: default budget '$1K - $5K' (the label of the preset the form starts on). */
  budgetLabel: '$1K - $5K',
  budgetEuros: 1000,
  /** Spec 9: default duration '1 Week'. */
  durationDays: 7,
  category: 'PROMOTION',
  budgetType: 'fixed',
  audience: { ageMin: 18, ageMax: 35 },
} as const;

/**
 * Estimated reach: assumed cost per thousand views (CPM, euros) of creator content on each platform,
 * used to turn a platform's share of the budget into views. Planning figures, not measurements;
 * see docs/campaigns.md.
 */
export const PLATFORM_CPM_EUROS: Record<CampaignPlatform, number> = {
  instagram: 8,
  tiktok: 5,
  youtube: 12,
  facebook: 6,
  twitter: 7,
};
