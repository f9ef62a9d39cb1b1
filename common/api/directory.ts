// HTTP contract of the directories and public profiles (issue 8; accounts spec 2.1, 3, 6, 7, 9):
// GET /api/creators, GET /api/brands (approved creators, brands and admins), GET /api/creators/{id},
// GET /api/brands/{id} (any signed-in user). Admin lists reuse these cards (common/api/admin.ts).
import { z } from 'zod';
import {
  BRAND_SORTS,
  COMMUNITY_CATEGORIES,
  CREATOR_SORTS,
  DIRECTORY_PAGE,
  DIRECTORY_SEARCH_MAX,
} from '../rules/directory.ts';
import { BRAND_VERIFICATION_STATUSES, SOCIAL_LINK_PLATFORMS } from './account.constants.ts';
import { USER_STATUSES } from './auth.constants.ts';

/** A query string value: trimmed, '' counts as absent. */
export const searchParam = z
  .string()
  .max(DIRECTORY_SEARCH_MAX * 4)
  .optional()
  .transform((v) => {
    const trimmed = (v ?? '').trim().replace(/\s+/g, ' ').slice(0, DIRECTORY_SEARCH_MAX);
    return trimmed === '' ? undefined : trimmed;
  });

export const pageParams = {
  limit: z.coerce.number().int().min(1).max(DIRECTORY_PAGE.maxLimit).default(DIRECTORY_PAGE.defaultLimit),
  offset: z.coerce.number().int().min(0).default(0),
};

export const pagination = z.object({
  offset: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
  total: z.number().int(),
});

/**
 * Spec 3 Creator card. Numbers the studio does not know are null, never invented: stats stay null
 * until follower and engagement data exist for the creator; pricing.starting_rate (euros) is null
 * when the creator has not set one. email and credits are filled only for admins and the creator
 * itself (null otherwise).
 */
export const creatorCard = z.object({
  id: z.string(),
  /** The profile's display name, else the account's first and last name. */
  displayName: z.string(),
  bio: z.string().nullable(),
  niches: z.array(z.string()),
  skills: z.array(z.string()),
  location: z.string().nullable(),
  /** The account's avatar URL; null when none (the web app shows its default image). */
  avatar: z.string().nullable(),
  isVerified: z.boolean(),
  stats: z.object({
    totalFollowers: z.number().int().nullable(),
    /** Percent, e.g. 4.2 for 4.2 %. */
    avgEngagementRate: z.number().nullable(),
  }),
  social_links: z.object({
    youtube: z.string().nullable(),
    instagram: z.string().nullable(),
    tiktok: z.string().nullable(),
  }),
  pricing: z.object({ starting_rate: z.number().nullable() }),
  /** The networks the creator names on their profile: the primary platform first, then those they link. */
  platforms: z.array(z.enum(SOCIAL_LINK_PLATFORMS)),
  created_at: z.string(),
  credits: z.number().int().nullable(),
  email: z.string().nullable(),
  creator_type: z.string().nullable(),
  user_status: z.enum(USER_STATUSES).nullable(),
});
export type CreatorCard = z.infer<typeof creatorCard>;

/**
 * Spec 3 Brand card. id and brand_id are both the brand's user id (a brand has one profile). The
 * profile fields are null when the brand has not filled them; budget_range is never made up.
 * activeCampaigns counts the brand's open and running campaigns. email only for admins and the brand itself.
 */
export const brandCard = z.object({
  id: z.string(),
  brand_id: z.string(),
  company_name: z.string().nullable(),
  /** The account holder's name: what a brand that has not named its company is shown as. */
  owner_name: z.string(),
  logo_url: z.string().nullable(),
  industry: z.string().nullable(),
  budget_range: z.string().nullable(),
  activeCampaigns: z.number().int(),
  email: z.string().nullable(),
  company_description: z.string().nullable(),
  headquarters_location: z.string().nullable(),
  /** When the brand profile was first saved; null when it never was. */
  profile_created_at: z.string().nullable(),
  verification_status: z.enum(BRAND_VERIFICATION_STATUSES),
  avatar: z.string().nullable(),
});
export type BrandCard = z.infer<typeof brandCard>;

// ---- GET /api/creators ----

export const listCreatorsQuery = z.object({
  search: searchParam,
  category: z.enum(COMMUNITY_CATEGORIES).default('all'),
  sort: z.enum(CREATOR_SORTS).default('newest'),
  ...pageParams,
});
export type ListCreatorsQuery = z.input<typeof listCreatorsQuery>;

export const listCreatorsReply = z.object({
  success: z.literal(true),
  data: z.array(creatorCard),
  pagination,
});
export type ListCreatorsReply = z.infer<typeof listCreatorsReply>;

// ---- GET /api/brands ----

export const listBrandsQuery = z.object({
  search: searchParam,
  sort: z.enum(BRAND_SORTS).default('newest'),
  ...pageParams,
});
export type ListBrandsQuery = z.input<typeof listBrandsQuery>;

export const listBrandsReply = z.object({
  success: z.literal(true),
  data: z.array(brandCard),
  pagination,
});
export type ListBrandsReply = z.infer<typeof listBrandsReply>;

// ---- Public profiles: GET /api/creators/{id}, GET /api/brands/{id} ----

export const profileIdParams = z.object({ id: z.string().uuid() });

/** The creator card plus the rest of the public profile. */
const creatorPublicProfile = creatorCard.extend({
  first_name: z.string(),
  last_name: z.string(),
  website: z.string().nullable(),
  primary_platform: z.string().nullable(),
  /** Other profile links (twitter, linkedin, facebook) when set. */
  other_links: z.record(z.string(), z.string()),
  /** True when the viewer is this creator (the web app shows an edit link). */
  is_own: z.boolean(),
});
export type CreatorPublicProfile = z.infer<typeof creatorPublicProfile>;
export const creatorPublicProfileReply = z.object({ success: z.literal(true), data: creatorPublicProfile });
export type CreatorPublicProfileReply = z.infer<typeof creatorPublicProfileReply>;

const brandPublicProfile = brandCard.extend({
  company_website: z.string().nullable(),
  company_size: z.string().nullable(),
  target_audience: z.string().nullable(),
  marketing_objectives: z.string().nullable(),
  created_at: z.string(),
  is_own: z.boolean(),
});
export type BrandPublicProfile = z.infer<typeof brandPublicProfile>;
export const brandPublicProfileReply = z.object({ success: z.literal(true), data: brandPublicProfile });
export type BrandPublicProfileReply = z.infer<typeof brandPublicProfileReply>;
