import { describe, expect, it } from 'vitest';
import {
  budgetRangeFloor,
  CATEGORY_RULES,
  COMMUNITY_CATEGORIES,
  CREATOR_TYPES,
  isCreatorType,
  nicheDisplay,
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
