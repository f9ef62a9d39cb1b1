import { describe, expect, it } from 'vitest';
import { previewOf } from '../../ui/PreviewNote.tsx';
import { captureMagicSelectorSession, type MagicSelectorSession, parseMagicSelectorSession } from './session.ts';

const state: MagicSelectorSession = {
  baseImage: '/api/personas/image/base.png',
  prompt: 'green moss',
  mode: 'style-transfer',
  result: { url: '/api/personas/image/out.png', id: 'asset-1', width: 256, height: 256 },
  quality: 'premium',
  styleStrength: 40,
  referenceImage: 'data:image/webp;base64,UklGRg==',
  maskImage: 'data:image/png;base64,iVBORw0KGgo=',
};

describe('Magic Selector session state', () => {
  it('round-trips everything through JSON', () => {
    const saved = JSON.parse(JSON.stringify(captureMagicSelectorSession(state)));
    expect(parseMagicSelectorSession(saved)).toEqual(state);
  });

  it('saves nothing while untouched and drops the mask without a base image', () => {
    const empty = { ...state, baseImage: null, prompt: ' ', referenceImage: null, result: null };
    expect(captureMagicSelectorSession(empty)).toBeNull();
    expect(captureMagicSelectorSession({ ...empty, prompt: 'x' })?.maskImage).toBeNull();
  });

  it('accepts the spec shape alone and fills the rest with defaults', () => {
    expect(parseMagicSelectorSession({ baseImage: null, prompt: '', mode: 'nonsense', result: '/r.png' })).toEqual({
      baseImage: null,
      prompt: '',
      mode: 'inpaint',
      result: { url: '/r.png', id: null, width: null, height: null },
      quality: 'standard',
      styleStrength: 75,
      referenceImage: null,
      maskImage: null,
    });
    expect(parseMagicSelectorSession({ ...state, styleStrength: 400, maskImage: 'javascript:1' })).toMatchObject({
      styleStrength: 100,
      maskImage: null,
    });
  });

  it('refuses data of another shape with the spec messages', () => {
    expect(() => parseMagicSelectorSession([])).toThrow('Session data must be an object');
    expect(() => parseMagicSelectorSession({ baseImage: 3, prompt: '', mode: 'inpaint' })).toThrow(
      'baseImage must be a string or null',
    );
    expect(() => parseMagicSelectorSession({ baseImage: null, mode: 'inpaint' })).toThrow('prompt must be a string');
    expect(() => parseMagicSelectorSession({ baseImage: null, prompt: '' })).toThrow('mode must be a string');
  });
});

describe('previewOf (shared with the quick edit and Multi-Reference)', () => {
  it('reads what the local preview applied and did not, and nothing when the engine did not say', () => {
    expect(
      previewOf({ engine: 'local', preview: { applied: ['colour: red', 3], notApplied: ['dog'], note: 'x' } }),
    ).toEqual({ applied: ['colour: red'], notApplied: ['dog'] });
    expect(previewOf({ engine: 'vendor' })).toBeNull();
    expect(previewOf(null)).toBeNull();
  });
});
