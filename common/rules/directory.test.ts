import { describe, expect, it } from 'vitest';
import {
  BRAND_SEARCH_FIELDS,
  budgetRangeFloor,
  CATEGORY_RULES,
  COMMUNITY_CATEGORIES,
  CREATOR_SEARCH_FIELDS,
  CREATOR_TYPES,
  isCommunityCategory,
  isCreatorType,
  matchesCategory,
  matchesCreatorSearch,
  nicheDisplay,
  normalizeSearch,
} from './directory.ts';

describe('creator types and categories', () => {
  it('lists the spec creator types in order', () => {
    expect(CREATOR_TYPES).toEqual([
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
    ]);
    expect(isCreatorType('dancer')).toBe(true);
    expect(isCreatorType('wizard')).toBe(false);
    expect(isCreatorType(null)).toBe(false);
  });

  it('lists the spec community filters, each with a rule', () => {
    expect(COMMUNITY_CATEGORIES).toEqual([
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
    ]);
    for (const category of COMMUNITY_CATEGORIES) {
      if (category !== 'all') expect(CATEGORY_RULES[category].keywords.length).toBeGreaterThan(0);
    }
    expect(isCommunityCategory('tech')).toBe(true);
    expect(isCommunityCategory('cats')).toBe(false);
  });

  it('matches niches by whole word, case-insensitively, and creator types', () => {
    const c = (niches: string[], creator_type: string | null = null) => ({ niches, creator_type });
    expect(matchesCategory(c(['Fashion & Beauty']), 'fashion')).toBe(true);
    expect(matchesCategory(c(['Street STYLE']), 'fashion')).toBe(true);
    expect(matchesCategory(c(['Smart home', 'party']), 'artists')).toBe(false);
    expect(matchesCategory(c(['Digital art']), 'artists')).toBe(true);
    expect(matchesCategory(c([], 'actor'), 'actors')).toBe(true);
    expect(matchesCategory(c([], 'model'), 'fashion')).toBe(true);
    expect(matchesCategory(c([], 'model'), 'tech')).toBe(false);
    expect(matchesCategory(c(['AI art']), 'tech')).toBe(true);
    expect(matchesCategory(c(['Said hello']), 'tech')).toBe(false);
    expect(matchesCategory(c([]), 'all')).toBe(true);
  });
});

describe('search', () => {
  const creator = {
    displayName: 'Lina Haddad',
    bio: 'Street photographer',
    niches: ['Travel'],
    skills: ['Video editing'],
    location: 'Beirut',
    email: 'lina@example.com',
  };
  it('covers name, bio, niches, skills and location', () => {
    expect(CREATOR_SEARCH_FIELDS).toEqual(['name', 'bio', 'niches', 'skills', 'location']);
    expect(BRAND_SEARCH_FIELDS).toEqual(['company_name', 'industry', 'company_description', 'headquarters_location']);
    for (const q of ['lina', 'PHOTOGRAPHER', 'travel', 'editing', 'beirut', '  haddad  ', '']) {
      expect(matchesCreatorSearch(creator, q), q).toBe(true);
    }
    expect(matchesCreatorSearch(creator, 'paris')).toBe(false);
  });
  it('covers the email for admins only', () => {
    expect(matchesCreatorSearch(creator, 'example.com')).toBe(false);
    expect(matchesCreatorSearch(creator, 'example.com', { includeEmail: true })).toBe(true);
  });
  it('normalises the query', () => {
    expect(normalizeSearch('  a   b ')).toBe('a b');
    expect(normalizeSearch(undefined)).toBe('');
    expect(normalizeSearch('x'.repeat(500))).toHaveLength(100);
  });
});

describe('card display', () => {
  it('shows 2 niches then +N', () => {
    expect(nicheDisplay(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b'], more: 2 });
    expect(nicheDisplay(['a'])).toEqual({ shown: ['a'], more: 0 });
    expect(nicheDisplay([])).toEqual({ shown: [], more: 0 });
  });
  it('reads the lower bound of a budget range', () => {
    expect(budgetRangeFloor('$1K - $5K')).toBe(1000);
    expect(budgetRangeFloor('€500–€2,000')).toBe(500);
    expect(budgetRangeFloor('10k+')).toBe(10_000);
    expect(budgetRangeFloor('2.5M')).toBe(2_500_000);
    expect(budgetRangeFloor('$25,000 - $50,000')).toBe(25_000);
    expect(budgetRangeFloor('flexible')).toBeNull();
    expect(budgetRangeFloor(null)).toBeNull();
  });
});
