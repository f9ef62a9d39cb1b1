// Pure rules of the creator and brand directories and the admin lists (accounts spec 2.1, 3, 5, 9).
// Shared by the server (which filters, searches and sorts in SQL by these same rules) and the web app.

/** Spec 5 (Admin): the types an admin picks when approving a creator. */
export const CREATOR_TYPES = [
  'influencer',
  'artist',
  'actor',
  'model',
  'film_director',
  'indie_director',
  'content_creator',
  'photographer',
  'musician',
  'dancer',
] as const;
export type CreatorType = (typeof CREATOR_TYPES)[number];

export function isCreatorType(value: unknown): value is CreatorType {
  return typeof value === 'string' && (CREATOR_TYPES as readonly string[]).includes(value);
}

/** Spec 9: the community view's filters, in display order. */
export const COMMUNITY_CATEGORIES = [
  'all',
  'fashion',
  'artists',
  'entertainment',
  'business',
  'actors',
  'lifestyle',
  'fitness',
  'food',
  'travel',
  'tech',
] as const;
export type CommunityCategory = (typeof COMMUNITY_CATEGORIES)[number];

/**
 * What each filter selects. The spec names the filters but not their meaning; ours: a creator is in a
 * category when one of its niches contains one of the category's keywords as a whole word (case
 * insensitive: "Fashion & Beauty" is fashion, "Smart home" is not art), or when the creator type an
 * admin gave it belongs to the category. 'all' selects everyone.
 */
export const CATEGORY_RULES: Record<
  Exclude<CommunityCategory, 'all'>,
  { keywords: readonly string[]; creatorTypes: readonly CreatorType[] }
> = {
  fashion: {
    keywords: ['fashion', 'style', 'beauty', 'makeup', 'clothing', 'apparel', 'modeling', 'modelling'],
    creatorTypes: ['model'],
  },
  artists: {
    keywords: ['art', 'arts', 'artist', 'artists', 'design', 'illustration', 'painting', 'photography', 'drawing'],
    creatorTypes: ['artist', 'photographer'],
  },
  entertainment: {
    keywords: ['entertainment', 'comedy', 'music', 'film', 'movies', 'gaming', 'dance', 'podcast', 'celebrity'],
    creatorTypes: ['musician', 'dancer', 'film_director', 'indie_director'],
  },
  business: {
    keywords: ['business', 'finance', 'entrepreneurship', 'marketing', 'startup', 'startups', 'career', 'investing'],
    creatorTypes: [],
  },
  actors: { keywords: ['acting', 'actor', 'actors', 'actress', 'theatre', 'theater'], creatorTypes: ['actor'] },
  lifestyle: {
    keywords: ['lifestyle', 'family', 'parenting', 'home', 'wellness', 'vlog', 'vlogging', 'daily life'],
    creatorTypes: [],
  },
  fitness: {
    keywords: ['fitness', 'gym', 'workout', 'sport', 'sports', 'yoga', 'health', 'running', 'training'],
    creatorTypes: [],
  },
  food: {
    keywords: ['food', 'cooking', 'recipes', 'recipe', 'baking', 'restaurant', 'restaurants', 'nutrition', 'foodie'],
    creatorTypes: [],
  },
  travel: { keywords: ['travel', 'adventure', 'tourism', 'outdoors', 'backpacking'], creatorTypes: [] },
  tech: {
    keywords: ['tech', 'technology', 'software', 'gadgets', 'ai', 'coding', 'programming', 'science'],
    creatorTypes: [],
  },
};

/** Search terms longer than this are cut (the field is a search box, not a document). */
export const DIRECTORY_SEARCH_MAX = 100;

/** Community directory sorts. 'followers' puts creators with no known follower count last. */
export const CREATOR_SORTS = ['newest', 'followers', 'name'] as const;
export type CreatorSort = (typeof CREATOR_SORTS)[number];

/** Spec 9: admin list sorts (newest first, most followers first, most credits first). */
export const ADMIN_CREATOR_SORTS = ['newest', 'followers', 'credits'] as const;
export type AdminCreatorSort = (typeof ADMIN_CREATOR_SORTS)[number];

/**
 * Spec 9: brand directory sorts. newest: newest account first; industry: A→Z, brands without one
 * last; budget_range: highest lower bound first (see budgetRangeFloor), brands without one last.
 * Ties fall back to newest.
 */
export const BRAND_SORTS = ['newest', 'industry', 'budget_range'] as const;
export type BrandSort = (typeof BRAND_SORTS)[number];

/** Admin creator list filter on user_status. */
export const ADMIN_STATUS_FILTERS = ['all', 'pending', 'approved_creator', 'regular_user'] as const;
export type AdminStatusFilter = (typeof ADMIN_STATUS_FILTERS)[number];

/** Admin brand list filter on verification_status. */
export const ADMIN_VERIFICATION_FILTERS = ['all', 'pending', 'verified', 'rejected'] as const;
export type AdminVerificationFilter = (typeof ADMIN_VERIFICATION_FILTERS)[number];

/** Directory and admin list page size (offset/limit pagination). */
export const DIRECTORY_PAGE = { defaultLimit: 24, maxLimit: 100 } as const;

/**
 * The lower bound of a free-text budget range, in its own currency units: '$1K - $5K' → 1000,
 * '€500–€2,000' → 500, '10k+' → 10000, '2.5M' → 2500000. Null when it holds no number. The server
 * sorts by the same parse in SQL.
 */
export function budgetRangeFloor(range: string | null | undefined): number | null {
  if (!range) return null;
  const match = /(\d+(?:\.\d+)?)\s*([km]?)/i.exec(range.replaceAll(',', ''));
  if (!match) return null;
  const unit = match[2].toLowerCase();
  return Number(match[1]) * (unit === 'k' ? 1000 : unit === 'm' ? 1_000_000 : 1);
}

/** Spec 9: admin cards show 2 niches, then "+N" for the rest. */
const CARD_VISIBLE_NICHES = 2;

export function nicheDisplay(
  niches: readonly string[],
  visible: number = CARD_VISIBLE_NICHES,
): { shown: string[]; more: number } {
  return { shown: niches.slice(0, visible), more: Math.max(0, niches.length - visible) };
}
