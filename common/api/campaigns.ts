import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { daysOfDurationLabel, eurosOfBudgetLabel } from '../rules/campaigns.ts';
import {
  APPLICATION_STATUSES,
  AUDIENCE_AGE,
  CAMPAIGN_CONTENT_TYPES,
  CAMPAIGN_KPIS,
  CAMPAIGN_LIMITS,
  CAMPAIGN_PLATFORMS,
  CAMPAIGN_STATUSES,
  COLLABORATION_STATUSES,
} from './campaigns.constants.ts';
import { ok } from './envelope.ts';
import { euroAmount } from './money.ts';

// Campaigns, applications and collaborations (accounts spec 2.2, 2.7, 3, 5, 7). Request bodies use the
// plan form's camelCase names; campaign replies use the spec's Campaign field names. Money is euros
// with two decimals, and the exact cents beside them (`…Cents`).

const M = MESSAGES.campaigns;
const L = CAMPAIGN_LIMITS;

const uuid = z.uuid();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, M.dateInvalid);
const budgetEuros = euroAmount(
  {
    invalid: M.budgetMin(L.minBudgetEuros),
    min: M.budgetMin(L.minBudgetEuros),
    max: M.budgetMax(L.maxBudgetEuros),
    decimals: M.amountDecimals,
  },
  { minCents: L.minBudgetEuros * 100, maxCents: L.maxBudgetEuros * 100 },
);

const age = z
  .number()
  .int(M.ageRange(AUDIENCE_AGE.min, AUDIENCE_AGE.max))
  .min(AUDIENCE_AGE.min, M.ageRange(AUDIENCE_AGE.min, AUDIENCE_AGE.max))
  .max(AUDIENCE_AGE.max, M.ageRange(AUDIENCE_AGE.min, AUDIENCE_AGE.max));

/** The audience: an age range on the 13–70 slider and an optional description. */
const targetAudience = z
  .object({
    ageMin: age,
    ageMax: age,
    description: z
      .string()
      .trim()
      .max(
        L.audienceDescriptionLength,
        MESSAGES.generic.textTooLong('The audience description', L.audienceDescriptionLength),
      )
      .default(''),
  })
  .refine((a) => a.ageMin <= a.ageMax, { message: M.ageOrder, path: ['ageMin'] });

/** The audience as stored and sent back, with its generation label (Gen Z, Millennials, …). */
const audienceReply = z.object({
  ageMin: z.number().int(),
  ageMax: z.number().int(),
  description: z.string(),
  generation: z.string(),
});

const platforms = z.array(z.enum(CAMPAIGN_PLATFORMS)).min(1, M.platformsRequired).max(CAMPAIGN_PLATFORMS.length);
const contentTypes = z
  .array(z.enum(CAMPAIGN_CONTENT_TYPES))
  .min(1, M.contentTypesRequired)
  .max(CAMPAIGN_CONTENT_TYPES.length);
const kpis = z.array(z.enum(CAMPAIGN_KPIS)).max(CAMPAIGN_KPIS.length).default([]);
const durationDays = z
  .number()
  .int(M.durationRange(L.minDurationDays, L.maxDurationDays))
  .min(L.minDurationDays, M.durationRange(L.minDurationDays, L.maxDurationDays))
  .max(L.maxDurationDays, M.durationRange(L.minDurationDays, L.maxDurationDays));
const objective = z
  .string(M.objectiveRequired)
  .trim()
  .min(1, M.objectiveRequired)
  .max(L.objectiveLength, MESSAGES.generic.textTooLong('The objective', L.objectiveLength));

/** A deliverable: `type` is what the card shows; platform and contentType say which posts count for it. */
const deliverable = z.object({
  type: z.string().trim().min(1).max(80),
  quantity: z.number().int().min(1).max(L.maxDeliverableQuantity),
  platform: z.enum(CAMPAIGN_PLATFORMS).optional(),
  contentType: z.enum(CAMPAIGN_CONTENT_TYPES).optional(),
});
export type Deliverable = z.infer<typeof deliverable>;

// ---- Plan (POST /api/campaigns/plan) ----

/** A text the plan form may send for a number: its label read, or left as is for the number's own message. */
const fromLabel = (read: (label: string) => number | null) => (value: unknown) =>
  typeof value === 'string' ? (read(value) ?? value) : value;

/**
 * Spec 3 Campaign parameters. `budget` in euros (at most the wallet) or a range label such as the spec's default
 * '$1K - $5K' (its lower end); `duration` in days or a label such as the default '1 Week'.
 */
export const campaignPlanBody = z.object({
  name: z.string().trim().max(L.titleLength, MESSAGES.generic.textTooLong('The name', L.titleLength)).default(''),
  objective,
  targetAudience,
  budget: z.preprocess(
    fromLabel(eurosOfBudgetLabel),
    euroAmount(
      {
        invalid: M.budgetLabel,
        min: M.budgetMin(L.minBudgetEuros),
        max: M.budgetMax(L.maxBudgetEuros),
        decimals: M.amountDecimals,
      },
      { minCents: L.minBudgetEuros * 100, maxCents: L.maxBudgetEuros * 100 },
    ),
  ),
  duration: z.preprocess(fromLabel(daysOfDurationLabel), durationDays),
  platforms,
  contentTypes,
  kpis,
});
export type CampaignPlanBody = z.input<typeof campaignPlanBody>;

const scheduleItem = z.object({
  day: z.number().int(),
  format: z.string(),
  contentType: z.string(),
  idea: z.string(),
});

/** The plan the text engine writes, completed with the budget split and the reach estimate. */
const campaignPlan = z.object({
  title: z.string(),
  objective: z.string(),
  audience: audienceReply,
  /** Euros. */
  budget: z.number(),
  budgetCents: z.number().int(),
  /** Duration label ("1 Week") and days. */
  duration: z.string(),
  durationDays: z.number().int(),
  platforms: z.array(z.enum(CAMPAIGN_PLATFORMS)),
  contentTypes: z.array(z.enum(CAMPAIGN_CONTENT_TYPES)),
  phases: z.array(
    z.object({ phase: z.string(), startDay: z.number().int(), endDay: z.number().int(), focus: z.string() }),
  ),
  /** Posts per platform with their days, formats and ideas. */
  schedule: z.array(
    z.object({
      platform: z.enum(CAMPAIGN_PLATFORMS),
      posts: z.number().int(),
      bestTime: z.string(),
      items: z.array(scheduleItem),
    }),
  ),
  /** One deliverable per platform: its posts. */
  deliverables: z.array(deliverable),
  budgetSplit: z.array(
    z.object({
      platform: z.enum(CAMPAIGN_PLATFORMS),
      posts: z.number().int(),
      amount: z.number(),
      amountCents: z.number().int(),
      percent: z.number(),
    }),
  ),
  kpis: z.array(z.object({ name: z.string(), target: z.string() })),
  /** Spec 3 Campaign result: materialsCount is the number of scheduled posts. */
  materialsCount: z.number().int(),
  /** Estimated views, from the budget split and assumed costs per thousand views. */
  estimatedReach: z.number().int(),
  reachBasis: z.object({
    perPlatform: z.array(
      z.object({
        platform: z.enum(CAMPAIGN_PLATFORMS),
        amount: z.number(),
        cpmEuros: z.number(),
        views: z.number().int(),
      }),
    ),
    explanation: z.string(),
  }),
  /** Which text engine wrote it (`local` in the embedded mode). */
  engine: z.string(),
});
export type CampaignPlan = z.infer<typeof campaignPlan>;

export const campaignPlanReply = ok(campaignPlan);
export type CampaignPlanReply = z.infer<typeof campaignPlanReply>;

// ---- Create, edit, delete ----

/** A material from the studio session: one of the brand's own media URLs (image or video). */
const sessionMaterial = z.object({
  url: z.string().trim().min(1).max(2000),
  prompt: z.string().max(4000).nullish(),
});

/**
 * POST /api/campaigns (brand). `status` open (default) holds the budget from the wallet at once
 * (402 'Insufficient funds. Need $X more.'); draft holds nothing. `ai_asset_ids` are the brand's own
 * image/video assets and `sessionMaterials` the studio's own media URLs; both become materials.
 */
export const createCampaignBody = z.object({
  title: z.string(M.titleRequired).trim().min(1, M.titleRequired).max(L.titleLength),
  description: z.string().trim().max(L.descriptionLength).default(''),
  objective,
  budget: budgetEuros,
  category: z.string().trim().min(1).max(40).default('PROMOTION'),
  platforms,
  contentTypes,
  kpis,
  deliverables: z.array(deliverable).max(L.maxDeliverables).default([]),
  targetAudience: targetAudience.optional(),
  durationDays: durationDays.optional(),
  startDate: isoDate.nullish(),
  endDate: isoDate.nullish(),
  plan: campaignPlan.nullish(),
  ai_asset_ids: z.array(uuid).max(L.maxMaterials, M.tooManyMaterials(L.maxMaterials)).default([]),
  sessionMaterials: z.array(sessionMaterial).max(L.maxMaterials, M.tooManyMaterials(L.maxMaterials)).default([]),
  status: z.enum(['draft', 'open']).default('open'),
});
export type CreateCampaignBody = z.input<typeof createCampaignBody>;

/**
 * PATCH /api/campaigns/{id} (owner brand). Fields edit a draft only; `status` moves the campaign
 * (draft→open holds the budget, open→running, open|running→completed releases what is held).
 */
export const updateCampaignBody = z.object({
  title: z.string().trim().min(1, M.titleRequired).max(L.titleLength).optional(),
  description: z.string().trim().max(L.descriptionLength).optional(),
  objective: objective.optional(),
  budget: budgetEuros.optional(),
  category: z.string().trim().min(1).max(40).optional(),
  platforms: platforms.optional(),
  contentTypes: contentTypes.optional(),
  kpis: z.array(z.enum(CAMPAIGN_KPIS)).max(CAMPAIGN_KPIS.length).optional(),
  deliverables: z.array(deliverable).max(L.maxDeliverables).optional(),
  targetAudience: targetAudience.optional(),
  durationDays: durationDays.optional(),
  startDate: isoDate.nullish(),
  endDate: isoDate.nullish(),
  status: z.enum(CAMPAIGN_STATUSES).optional(),
});
export type UpdateCampaignBody = z.input<typeof updateCampaignBody>;

export const campaignIdParams = z.object({ id: uuid });

// ---- Replies ----

const campaignMaterial = z.object({
  id: z.string(),
  type: z.enum(['image', 'video']),
  /** A signed media URL, viewable by everyone the campaign is shown to. */
  url: z.string(),
  /** Its WebP thumbnail (signed) when the file is a stored asset's; lists show it instead of the original. */
  thumbnail_url: z.string().nullable(),
  prompt: z.string().nullable(),
});
export type CampaignMaterial = z.infer<typeof campaignMaterial>;

/**
 * Counted from the posts published against the collaboration (publishing, issue 9). With no
 * publishing records the counts are 0 and views/engagement are null: the client shows N/A.
 */
const performanceMetrics = z.object({
  total_views: z.number().int().nullable(),
  total_engagement: z.number().int().nullable(),
  avg_engagement_rate: z.number().nullable(),
  total_posts: z.number().int(),
});
export type PerformanceMetrics = z.infer<typeof performanceMetrics>;

const deliverableProgress = deliverable.extend({ completed: z.number().int() });

const progress = z.object({
  completed: z.number().int(),
  total: z.number().int(),
  /** 0–100, whole number. */
  percent: z.number().int(),
});

/**
 * A post published for the collaboration, as its brand reviews it: where it went, what it showed, the
 * network's figures, and the deliverable it counts for (its index in `deliverables`; null when every matching
 * deliverable was already complete or none matches). Listed for the campaign's brand, admins and the creator.
 */
const deliveredPost = z.object({
  id: z.string(),
  platform: z.string(),
  media_type: z.string(),
  /** The first media of the post, a signed URL the viewer can open; null for a text post. */
  preview_url: z.string().nullable(),
  message: z.string(),
  /** The post on its network (or the sandbox's share page). */
  share_url: z.string().nullable(),
  published_at: z.string().nullable(),
  views: z.number().int().nullable(),
  likes: z.number().int().nullable(),
  comments: z.number().int().nullable(),
  shares: z.number().int().nullable(),
  deliverable_index: z.number().int().nullable(),
});
export type DeliveredPost = z.infer<typeof deliveredPost>;

/** A collaboration as the campaign details dialog shows it. */
const campaignCollaboration = z.object({
  id: z.string(),
  creator_id: z.string(),
  creator_name: z.string(),
  creator_avatar: z.string().nullable(),
  status: z.enum(COLLABORATION_STATUSES),
  /** Null for viewers other than the campaign's brand, admins and the collaborating creator. */
  agreed_amount: z.number().nullable(),
  agreedCents: z.number().int().nullable(),
  deliverables: z.array(deliverableProgress),
  progress,
  performance_metrics: performanceMetrics,
  posts: z.array(deliveredPost),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type CampaignCollaboration = z.infer<typeof campaignCollaboration>;

/** Spec 3 Campaign (marketplace), plus what the plan form and the manage page need. */
const campaign = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  objective: z.string(),
  thumbnail: z.string().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  brand_id: z.string(),
  brandName: z.string(),
  brandLogo: z.string().nullable(),
  /** Euros. Null for another brand (it sees the pool's public card only: docs/campaigns.md). */
  budget: z.number().nullable(),
  budgetCents: z.number().int().nullable(),
  /** What is still held from the wallet for this campaign (euros); owner and admins only, else null. */
  held: z.number().nullable(),
  heldCents: z.number().int().nullable(),
  budget_type: z.string(),
  category: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  platforms: z.array(z.string()),
  content_types: z.array(z.string()),
  kpis: z.array(z.string()),
  deliverables: z.array(deliverable),
  target_audience: audienceReply.nullable(),
  duration_days: z.number().int().nullable(),
  duration_label: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  /** The plan, for the owner and admins; null for others. */
  plan: campaignPlan.nullable(),
  /** Empty for another brand (public card only). */
  materials: z.array(campaignMaterial),
  /** Empty for another brand (public card only). */
  collaborations: z.array(campaignCollaboration),
  /** True when the caller owns it. */
  is_owner: z.boolean(),
  /** The caller's own application to it (creators), else null. */
  my_application: z
    .object({ id: z.string(), status: z.enum(APPLICATION_STATUSES), rate: z.number(), rateCents: z.number().int() })
    .nullable(),
  /** Pending applications (owner and admins; else null). */
  pending_applications: z.number().int().nullable(),
});
export type Campaign = z.infer<typeof campaign>;

const pagination = z.object({
  offset: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
  total: z.number().int(),
});

/**
 * GET /api/campaigns: without `view` the pool (approved creators and admins; 403 otherwise), open by
 * default, `status` filters (creators: open or running); `view=my` the brand's own campaigns, or the
 * campaigns an approved creator applied to or collaborates on.
 */
export const listCampaignsQuery = z.object({
  view: z.enum(['my']).optional(),
  status: z.enum([...CAMPAIGN_STATUSES, 'all']).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(L.maxPageSize).default(L.pageSize),
});

export const campaignListReply = z.object({
  success: z.literal(true),
  data: z.array(campaign),
  pagination,
});
export type CampaignListReply = z.infer<typeof campaignListReply>;

export const campaignReply = ok(campaign);
export type CampaignReply = z.infer<typeof campaignReply>;

/** GET /api/campaigns/{id}/collaborations */
export const campaignCollaborationsReply = ok(z.array(campaignCollaboration));

/** GET /api/campaigns/{id}/assets (spec: data.assets) */
export const campaignAssetsReply = ok(z.object({ assets: z.array(campaignMaterial) }));
export type CampaignAssetsReply = z.infer<typeof campaignAssetsReply>;

// ---- Applications ----

/** POST /api/campaigns/{id}/applications (approved creator, open campaign, once). `rate` in euros. */
export const applyBody = z.object({
  message: z.string(M.messageRequired).trim().min(1, M.messageRequired).max(L.applicationMessageLength),
  rate: euroAmount(
    { invalid: M.rateRequired, min: M.ratePositive, max: M.rateMax(L.maxRateEuros), decimals: M.amountDecimals },
    { minCents: 1, maxCents: L.maxRateEuros * 100 },
  ),
});
export type ApplyBody = z.input<typeof applyBody>;

const application = z.object({
  id: z.string(),
  campaign_id: z.string(),
  campaign_title: z.string(),
  campaign_status: z.enum(CAMPAIGN_STATUSES),
  brand_name: z.string(),
  creator_id: z.string(),
  creator_name: z.string(),
  creator_avatar: z.string().nullable(),
  message: z.string(),
  rate: z.number(),
  rateCents: z.number().int(),
  status: z.enum(APPLICATION_STATUSES),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  /** The collaboration an accepted application became. */
  collaboration_id: z.string().nullable(),
});
export type Application = z.infer<typeof application>;

export const applicationReply = ok(application);
export type ApplicationReply = z.infer<typeof applicationReply>;
/** GET /api/campaigns/{id}/applications (owner brand), GET /api/applications/my (creator). */
export const applicationListReply = ok(z.array(application));
export type ApplicationListReply = z.infer<typeof applicationListReply>;

export const applicationIdParams = z.object({ id: uuid });

// ---- Collaborations ----

/** Spec 3 Collaboration, as My Active Collaborations lists it (GET /api/collaborations/my-active). */
const activeCollaboration = z.object({
  collaboration_id: z.string(),
  campaign_id: z.string(),
  campaign_title: z.string(),
  brand_name: z.string(),
  brand_logo: z.string().nullable(),
  campaign_description: z.string(),
  status: z.enum(COLLABORATION_STATUSES),
  platforms: z.array(z.string()),
  agreed_amount: z.number(),
  agreedCents: z.number().int(),
  deliverables: z.array(deliverableProgress),
  progress,
  performance_metrics: performanceMetrics,
  posts: z.array(deliveredPost),
  created_at: z.string(),
});
export type ActiveCollaboration = z.infer<typeof activeCollaboration>;

export const activeCollaborationsReply = ok(z.array(activeCollaboration));
export type ActiveCollaborationsReply = z.infer<typeof activeCollaborationsReply>;

export const collaborationIdParams = z.object({ id: uuid });

/**
 * POST /api/collaborations/{id}/complete (owner brand): the agreed amount moves from the campaign's
 * held budget to the creator's earnings once; `paid` is false on a replay.
 */
export const completeCollaborationReply = ok(
  z.object({
    collaboration: campaignCollaboration,
    paid: z.boolean(),
    /** The campaign's budget still held after the payout (euros). */
    campaignHeld: z.number(),
    campaignHeldCents: z.number().int(),
  }),
);
export type CompleteCollaborationReply = z.infer<typeof completeCollaborationReply>;
