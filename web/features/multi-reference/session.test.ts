import { describe, expect, it } from 'vitest';
import {
  captureMultiReferenceSession,
  DEFAULT_BLEND,
  type MultiReferenceSession,
  parseMultiReferenceSession,
} from './session.ts';

const state: MultiReferenceSession = {
  mode: 'video-to-video',
  referenceImages: [
    {
      id: 'r1',
      url: '/api/images/a.png',
      filename: 'red.png',
      weight: 100,
      type: 'lighting',
      description: 'warm light',
      mediaType: 'image',
    },
    {
      id: 'r2',
      url: '/api/images/b.png',
      filename: 'blue.png',
      weight: 10,
      type: 'color',
      description: '',
      mediaType: 'image',
    },
  ],
  prompt: 'an abstract study',
  styleModifier: 'oil painting',
  negativePrompt: 'text',
  blendSettings: {
    blendMode: 'layered',
    strength: 30,
    variations: 3,
    aspectRatio: '16:9',
    quality: 'premium',
    compositionMode: 'advanced-composition',
    preserveDetails: false,
  },
  results: [
    { url: '/api/personas/image/v1.png', id: 'x', variation: 1, mediaType: 'image' },
    { url: '/api/videos/v2.mp4', id: 'y', variation: 2, mediaType: 'video' },
  ],
};

describe('Multi-Reference session state', () => {
  it('round-trips everything through JSON', () => {
    const saved = JSON.parse(JSON.stringify(captureMultiReferenceSession(state)));
    expect(parseMultiReferenceSession(saved)).toEqual(state);
  });

  it('saves nothing while untouched', () => {
    expect(
      captureMultiReferenceSession({
        ...state,
        referenceImages: [],
        prompt: '',
        styleModifier: '',
        negativePrompt: '',
        results: [],
      }),
    ).toBeNull();
  });

  it('accepts the spec shape alone, clamping and defaulting the rest', () => {
    const parsed = parseMultiReferenceSession({
      referenceImages: [
        { url: '/a.png', weight: 500, type: 'weird' },
        { nourl: 1 },
        ...Array.from({ length: 9 }, (_, i) => ({ url: `/x${i}.png` })),
      ],
      prompt: 'p',
    });
    expect(parsed.referenceImages).toHaveLength(8);
    expect(parsed.referenceImages[0]).toEqual({
      id: 'ref-0',
      url: '/a.png',
      filename: 'reference-1',
      weight: 100,
      type: 'style',
      description: '',
      mediaType: 'image',
    });
    expect(parsed.referenceImages[1]?.weight).toBe(50);
    expect(parsed.blendSettings).toEqual(DEFAULT_BLEND);
    expect(parsed.results).toEqual([]);
  });

  it('refuses data of another shape with the spec messages', () => {
    expect(() => parseMultiReferenceSession('x')).toThrow('Session data must be an object');
    expect(() => parseMultiReferenceSession({ prompt: '' })).toThrow('referenceImages must be an array');
    expect(() => parseMultiReferenceSession({ referenceImages: [] })).toThrow('prompt must be a string');
  });
});
