import { describe, expect, it } from 'vitest';
import {
  EDITOR_SESSION_LIMITS,
  normaliseSessionData,
  sessionDataSize,
  sessionSizeError,
  validateSessionData,
} from './editor-sessions.ts';

describe('validateSessionData', () => {
  it('accepts each component type’s shape', () => {
    expect(validateSessionData('multi-image-canvas', { canvasImages: [], canvasState: {}, imageSequence: [] })).toEqual(
      [],
    );
    expect(validateSessionData('magic-selector', { baseImage: null, prompt: '', mode: 'inpaint' })).toEqual([]);
    expect(validateSessionData('multi-reference', { referenceImages: [], prompt: 'x' })).toEqual([]);
    expect(validateSessionData('multi-composition', { layers: [], canvasWidth: 1, canvasHeight: 2 })).toEqual([]);
  });

  it('reports the spec’s messages', () => {
    expect(validateSessionData('magic-selector', [])).toEqual(['Session data must be an object']);
    expect(validateSessionData('multi-image-canvas', {})).toEqual([
      'canvasImages must be an array',
      'canvasState must be an object',
      'imageSequence must be an array',
    ]);
    expect(validateSessionData('magic-selector', { baseImage: 1 })).toEqual([
      'baseImage must be a string or null',
      'prompt must be a string',
      'mode must be a string',
    ]);
    expect(validateSessionData('multi-reference', {})).toEqual([
      'referenceImages must be an array',
      'prompt must be a string',
    ]);
    expect(validateSessionData('multi-composition', { layers: [], canvasWidth: '1' })).toEqual([
      'canvasWidth and canvasHeight must be numbers',
    ]);
    expect(validateSessionData('paint', {})).toEqual(['Unsupported component type: paint']);
  });
});

describe('size', () => {
  it('measures UTF-8 bytes and flags over 10 MB', () => {
    expect(sessionDataSize({ a: 'é' })).toBe(10);
    expect(sessionSizeError(EDITOR_SESSION_LIMITS.maxBytes)).toBeNull();
    expect(sessionSizeError(11 * 1024 * 1024)).toBe('Session data too large: 11.00MB (max: 10MB)');
  });
});

describe('normaliseSessionData', () => {
  it('resets transient canvas state and keeps completed statuses', () => {
    const input = {
      canvasImages: [{ id: 'a', isDragging: true, isSelected: true, x: 5 }],
      canvasState: { zoom: 2, panX: 10, panY: 20, isPanning: true, lastPanPoint: { x: 3, y: 4 } },
      imageSequence: [
        { id: '1', videoStatus: 'completed' },
        { id: '2', videoStatus: 'generating' },
        { id: '3', videoStatus: 'failed' },
      ],
      masterSequence: { id: 'm', isGeneratingMaster: true, items: [{ id: '2', videoStatus: 'generating' }] },
    };
    const out = normaliseSessionData('multi-image-canvas', input);
    expect(out.canvasImages).toEqual([{ id: 'a', isDragging: false, isSelected: false, x: 5 }]);
    expect(out.canvasState).toEqual({ zoom: 2, panX: 10, panY: 20, isPanning: false, lastPanPoint: { x: 0, y: 0 } });
    expect(out.imageSequence.map((i) => i.videoStatus)).toEqual(['completed', 'pending', 'pending']);
    expect(out.masterSequence).toEqual({
      id: 'm',
      isGeneratingMaster: false,
      items: [{ id: '2', videoStatus: 'pending' }],
    });
    expect(input.canvasImages[0]?.isDragging).toBe(true);
  });

  it('leaves other component types as they are', () => {
    const data = { baseImage: null, prompt: 'p', mode: 'inpaint' };
    expect(normaliseSessionData('magic-selector', data)).toEqual(data);
  });
});
