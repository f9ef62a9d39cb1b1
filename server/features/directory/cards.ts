// The SQL behind creator and brand cards: one select each, shared by the directories, the public
// profiles and the admin lists, plus the search, category and sort rules of common/rules/directory.ts.
import { and, asc, count, desc, eq, inArray, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { SOCIAL_LINK_PLATFORMS, type SocialLinkPlatform } from '../../../common/api/account.constants.ts';
import type { BrandCard, CreatorCard } from '../../../common/api/directory.ts';
import type { CommunityCategory } from '../../../common/rules/directory.ts';
import { CATEGORY_RULES } from '../../../common/rules/directory.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  brandProfiles,
  campaigns,
  creatorProfiles,
  socialAccounts,
  socialPosts,
  userSettings,
  users,
} from '../../db/schema/index.ts';
import { shownLogo } from '../account/logo.ts';
import { engagementSql } from '../published-posts/published.ts';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Display name: the profile's, else the account's first and last name. */
const creatorName = sql<string>`coalesce(nullif(trim(${creatorProfiles.displayName}), ''), trim(${users.firstName} || ' ' || ${users.lastName}))`;
const creatorBio = sql<string | null>`coalesce(${creatorProfiles.bio}, ${users.bio})`;
const creatorLocation = sql<string | null>`coalesce(${creatorProfiles.location}, ${users.location})`;
/** profile_visibility, 'public' when the user never saved settings. */
export const visibility = sql<string>`coalesce(${userSettings.profileVisibility}, 'public')`;
export const verificationStatus = sql<
  BrandCard['verification_status']
>`coalesce(${brandProfiles.verificationStatus}, 'pending')`;

const anyElement = (column: SQLWrapper, predicate: SQL) =>
  sql`exists (select 1 from jsonb_array_elements_text(coalesce(${column}, '[]'::jsonb)) as e(v) where ${predicate})`;

/** Spec 9 search over name, bio, niches, skills, location (and email for admins), case-insensitive substring. */
export function creatorSearch(query: string, includeEmail: boolean): SQL {
  const pattern = `%${escapeLike(query)}%`;
  const conditions: SQL[] = [
    sql`${creatorName} ilike ${pattern}`,
    sql`${creatorBio} ilike ${pattern}`,
    sql`${creatorLocation} ilike ${pattern}`,
    anyElement(creatorProfiles.niches, sql`e.v ilike ${pattern}`),
    anyElement(creatorProfiles.skills, sql`e.v ilike ${pattern}`),
  ];
  if (includeEmail) conditions.push(sql`${users.email} ilike ${pattern}`);
  return or(...conditions) as SQL;
}

/** The community filter (CATEGORY_RULES): a niche holding a keyword as a whole word, or a creator type. */
export function creatorCategory(category: CommunityCategory): SQL | undefined {
  if (category === 'all') return undefined;
  const rule = CATEGORY_RULES[category];
  // PostgreSQL's \m and \M are the word boundaries JavaScript writes \b.
  const regex = `\\m(${rule.keywords.join('|')})\\M`;
  const byNiche = anyElement(creatorProfiles.niches, sql`e.v ~* ${regex}`);
  if (rule.creatorTypes.length === 0) return byNiche;
  return or(inArray(users.creatorType, [...rule.creatorTypes]), byNiche);
}

export function brandSearch(query: string, includeEmail: boolean): SQL {
  const pattern = `%${escapeLike(query)}%`;
  const conditions: SQL[] = [
    sql`${brandProfiles.companyName} ilike ${pattern}`,
    sql`${brandProfiles.industry} ilike ${pattern}`,
    sql`${brandProfiles.companyDescription} ilike ${pattern}`,
    sql`${brandProfiles.headquartersLocation} ilike ${pattern}`,
  ];
  if (includeEmail) conditions.push(sql`${users.email} ilike ${pattern}`);
  return or(...conditions) as SQL;
}

const newest = [desc(users.createdAt), desc(users.id)];

/**
 * Followers: the sum of the follower counts the networks report for the creator's connected accounts
 * (social_accounts.follower_count, kept by social/metrics.ts); null when no connected account reports one.
 */
const totalFollowers = sql<
  number | null
>`(select sum(${socialAccounts.followerCount})::int from ${socialAccounts} where ${socialAccounts.userId} = ${users.id})`;

/** Engagement rate, percent, over the creator's published posts (engagementSql's rule). */
const engagementRate = engagementSql(sql`${socialPosts.userId} = ${users.id}`).rate;

/** 'followers' sorts by totalFollowers, creators without a figure last (newest first among equals). */
export function creatorOrder(sort: 'newest' | 'followers' | 'name' | 'credits'): SQL[] {
  switch (sort) {
    case 'followers':
      return [sql`${totalFollowers} desc nulls last`, ...newest];
    case 'name':
      return [asc(sql`lower(${creatorName})`), ...newest];
    case 'credits':
      return [desc(users.credits), ...newest];
    default:
      return newest;
  }
}

/** budgetRangeFloor in SQL: the first number of the range (commas dropped), times 1000 for k and 10^6 for m. */
const budgetFloor = sql`(select (m.x[1])::numeric * case lower(m.x[2]) when 'k' then 1000 when 'm' then 1000000 else 1 end
  from regexp_match(replace(${brandProfiles.budgetRange}, ',', ''), '(\\d+(?:\\.\\d+)?)\\s*([kKmM]?)') as m(x))`;

export function brandOrder(sort: 'newest' | 'industry' | 'budget_range'): SQL[] {
  switch (sort) {
    case 'industry':
      return [sql`lower(nullif(trim(${brandProfiles.industry}), '')) asc nulls last`, ...newest];
    case 'budget_range':
      return [sql`${budgetFloor} desc nulls last`, ...newest];
    default:
      return newest;
  }
}

const creatorColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  credits: users.credits,
  avatarUrl: users.avatarUrl,
  createdAt: users.createdAt,
  creatorType: users.creatorType,
  userStatus: users.userStatus,
  website: users.website,
  displayName: creatorName,
  bio: creatorBio,
  location: creatorLocation,
  profileWebsite: creatorProfiles.website,
  primaryPlatform: creatorProfiles.primaryPlatform,
  niches: creatorProfiles.niches,
  skills: creatorProfiles.skills,
  isVerified: creatorProfiles.isVerified,
  socialLinks: creatorProfiles.socialLinks,
  startingRateCents: creatorProfiles.startingRateCents,
  totalFollowers,
  engagementRate,
  visibility,
};

export type CreatorRow = Awaited<ReturnType<typeof selectCreators>>[number];

/** Creators with their (optional) profile and settings rows, filtered by `where`. */
export function selectCreators(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(creatorColumns)
    .from(users)
    .leftJoin(creatorProfiles, eq(creatorProfiles.userId, users.id))
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(and(eq(users.role, 'creator'), where));
}

export async function countCreators(db: DbOrTx, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .leftJoin(creatorProfiles, eq(creatorProfiles.userId, users.id))
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(and(eq(users.role, 'creator'), where));
  return Number(row?.n ?? 0);
}

const link = (links: Record<string, string> | null, key: string) => {
  const value = links?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
};

/**
 * A creator card. `private` (email, credits) only when the viewer may see them. Follower and engagement
 * stats come from the networks (see totalFollowers, engagementRate); null when none reported any.
 */
export function toCreatorCard(row: CreatorRow, showPrivate: boolean): CreatorCard {
  return {
    id: row.id,
    displayName: row.displayName,
    bio: row.bio,
    niches: row.niches ?? [],
    skills: row.skills ?? [],
    location: row.location,
    avatar: row.avatarUrl,
    isVerified: row.isVerified ?? false,
    stats: {
      totalFollowers: row.totalFollowers === null ? null : Number(row.totalFollowers),
      avgEngagementRate: row.engagementRate === null ? null : Number(row.engagementRate),
    },
    social_links: {
      youtube: link(row.socialLinks, 'youtube'),
      instagram: link(row.socialLinks, 'instagram'),
      tiktok: link(row.socialLinks, 'tiktok'),
    },
    pricing: { starting_rate: row.startingRateCents === null ? null : row.startingRateCents / 100 },
    platforms: platformsOf(row),
    created_at: new Date(row.createdAt).toISOString(),
    credits: showPrivate ? row.credits : null,
    email: showPrivate ? row.email : null,
    creator_type: row.creatorType,
    user_status: row.userStatus,
  };
}

/** The primary platform first, then every platform the profile links to, each once. */
function platformsOf(row: CreatorRow): SocialLinkPlatform[] {
  const primary = SOCIAL_LINK_PLATFORMS.find((p) => p === row.primaryPlatform);
  const linked = SOCIAL_LINK_PLATFORMS.filter((p) => link(row.socialLinks, p) !== null);
  return [...new Set([...(primary ? [primary] : []), ...linked])];
}

export function otherLinks(row: CreatorRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['twitter', 'linkedin', 'facebook']) {
    const value = link(row.socialLinks, key);
    if (value) out[key] = value;
  }
  return out;
}

const activeCampaigns = sql<number>`(select count(*)::int from ${campaigns} where ${campaigns.brandUserId} = ${users.id} and ${campaigns.status} in ('open', 'running'))`;

const brandColumns = {
  id: users.id,
  email: users.email,
  avatarUrl: users.avatarUrl,
  createdAt: users.createdAt,
  firstName: users.firstName,
  lastName: users.lastName,
  companyName: brandProfiles.companyName,
  logoUrl: brandProfiles.logoUrl,
  industry: brandProfiles.industry,
  budgetRange: brandProfiles.budgetRange,
  companyDescription: brandProfiles.companyDescription,
  headquartersLocation: brandProfiles.headquartersLocation,
  companyWebsite: brandProfiles.companyWebsite,
  companySize: brandProfiles.companySize,
  targetAudience: brandProfiles.targetAudience,
  marketingObjectives: brandProfiles.marketingObjectives,
  profileCreatedAt: brandProfiles.createdAt,
  verificationStatus,
  activeCampaigns,
  visibility,
};

export type BrandRow = Awaited<ReturnType<typeof selectBrands>>[number];

export function selectBrands(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(brandColumns)
    .from(users)
    .leftJoin(brandProfiles, eq(brandProfiles.userId, users.id))
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(and(eq(users.role, 'brand'), where));
}

export async function countBrands(db: DbOrTx, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .leftJoin(brandProfiles, eq(brandProfiles.userId, users.id))
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(and(eq(users.role, 'brand'), where));
  return Number(row?.n ?? 0);
}

export function toBrandCard(row: BrandRow, showPrivate: boolean): BrandCard {
  return {
    id: row.id,
    brand_id: row.id,
    company_name: row.companyName,
    owner_name: `${row.firstName} ${row.lastName}`.trim(),
    logo_url: shownLogo(row.logoUrl),
    industry: row.industry,
    budget_range: row.budgetRange,
    activeCampaigns: Number(row.activeCampaigns ?? 0),
    email: showPrivate ? row.email : null,
    company_description: row.companyDescription,
    headquarters_location: row.headquartersLocation,
    profile_created_at: row.profileCreatedAt ? new Date(row.profileCreatedAt).toISOString() : null,
    verification_status: row.verificationStatus,
    avatar: row.avatarUrl,
  };
}

export function page(total: number, offset: number, limit: number) {
  return { offset, limit, total, hasMore: offset + limit < total };
}
