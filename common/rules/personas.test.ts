import { describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES, PRICES } from '../api/generation.constants.ts';
import {
  abbreviateCount,
  addTag,
  DEFAULT_LANGUAGE,
  DEFAULT_PERSONALITY,
  formatLicensePrice,
  LANGUAGES,
  NATIONALITIES,
  normaliseTags,
  PERSONA_IMAGE_TYPES,
  PERSONA_VIDEO,
  PERSONALITY_OPTIONS,
  personaImageSetPrice,
  personaProgress,
} from './personas.ts';

describe('persona option lists', () => {
  it('has the spec’s personalities with Professional first and default', () => {
    expect(PERSONALITY_OPTIONS).toEqual([
      'Professional',
      'Friendly & Approachable',
      'Witty & Sarcastic',
      'Inspirational & Motivational',
    ]);
    expect(DEFAULT_PERSONALITY).toBe('Professional');
  });

  it('offers about 64 nationalities and 53 languages without duplicates, English by default', () => {
    expect(NATIONALITIES).toHaveLength(64);
    expect(new Set(NATIONALITIES).size).toBe(NATIONALITIES.length);
    expect(LANGUAGES).toHaveLength(53);
    expect(new Set(LANGUAGES).size).toBe(LANGUAGES.length);
    expect(LANGUAGES).toContain(DEFAULT_LANGUAGE);
    expect(DEFAULT_LANGUAGE).toBe('English');
  });

  it('generates face_only first, then the other four', () => {
    expect(PERSONA_IMAGE_TYPES).toEqual(['face_only', 'portrait', 'full_body', 'action_shot', 'environment']);
  });

  it('keeps the persona video constants of spec 9', () => {
    expect(PERSONA_VIDEO).toMatchObject({
      model: 'veo-3.0-generate-001',
      durations: [5, 8],
      defaultDuration: 8,
      aspectRatios: ['16:9', '9:16'],
      defaultAspectRatio: '16:9',
      resolution: '1080p',
      creativity: 0.6,
      styleStrength: 0.85,
      motionIntensity: 0.5,
      generateAudio: true,
      credits: PRICES.personaVideo,
    });
  });
});

describe('normaliseTags / addTag', () => {
  it('trims, drops empty tags and de-duplicates case-insensitively keeping the first spelling', () => {
    expect(normaliseTags([' Yoga ', 'wellness', 'yoga', '', '  ', 'Wellness', 'Beach'])).toEqual([
      'Yoga',
      'wellness',
      'Beach',
    ]);
  });

  it('adds a typed tag only when it is new', () => {
    expect(addTag(['Yoga'], '  beach ')).toEqual(['Yoga', 'beach']);
    expect(addTag(['Yoga'], 'YOGA')).toEqual(['Yoga']);
    expect(addTag(['Yoga'], '   ')).toEqual(['Yoga']);
  });
});

describe('abbreviateCount', () => {
  it('abbreviates thousands with k', () => {
    expect(abbreviateCount(0)).toBe('0');
    expect(abbreviateCount(999)).toBe('999');
    expect(abbreviateCount(1000)).toBe('1k');
    expect(abbreviateCount(1500)).toBe('1.5k');
    expect(abbreviateCount(12_340)).toBe('12.3k');
    expect(abbreviateCount(250_400)).toBe('250k');
    expect(abbreviateCount(Number.NaN)).toBe('0');
  });
});

describe('progress, price and license label', () => {
  it('moves 20 per image of five', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => personaProgress(n, 5))).toEqual([0, 20, 40, 60, 80, 100]);
    expect(personaProgress(1, 1)).toBe(100);
    expect(personaProgress(0, 0)).toBe(100);
  });

  it('prices the image set per image', () => {
    expect(personaImageSetPrice(5, PRICES)).toBe(5 * PRICES.personaImage);
    expect(personaImageSetPrice(1, LOCAL_PREVIEW_PRICES)).toBe(LOCAL_PREVIEW_PRICES.personaImage);
  });

  it('formats euros with 2 decimals', () => {
    expect(formatLicensePrice(12.5)).toBe('€12.50');
    expect(formatLicensePrice(0)).toBe('€0.00');
  });
});
