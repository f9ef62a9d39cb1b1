import { describe, expect, it } from 'vitest';
import { sceneIndexForImage, scriptScenes, withoutOtherTimes } from './script-scenes.ts';

describe('scriptScenes', () => {
  it('reads slug lines into place, inside/outside and time, CONTINUOUS keeping the time before', () => {
    const scenes = scriptScenes(
      'Cold open.\n\nINT. HARBOUR KITCHEN - NIGHT\nShe waits.\n\nI/E. VAN - CONTINUOUS\nThey drive.\n\nEXT. PIER\nAt dawn the gulls cry.',
    );
    expect(scenes.map((s) => [s.heading, s.side, s.place, s.timeWord])).toEqual([
      ['SCENE 1', null, '', null],
      ['INT. HARBOUR KITCHEN - NIGHT', 'interior', 'harbour kitchen', 'night'],
      ['I/E. VAN - CONTINUOUS', 'interior/exterior', 'van', 'night'],
      ['EXT. PIER', 'exterior', 'pier', 'dawn'],
    ]);
    expect(scenes[1]?.light).toContain('night');
  });

  it('splits prose by its own places and times, keeping the words as written', () => {
    const scenes = scriptScenes(
      'A courier races through Tokyo at noon. She stops at a crowded crossing. In the evening she waits on a bridge.',
    );
    expect(scenes.map((s) => [s.place, s.timeWord])).toEqual([
      ['Tokyo', 'noon'],
      ['bridge', 'evening'],
    ]);
    expect(scenes[0]?.text).toBe('A courier races through Tokyo at noon. She stops at a crowded crossing.');
    expect(scenes[0]?.light).toContain('daylight');
  });

  it('reads a script without slug lines paragraph by paragraph', () => {
    expect(scriptScenes('A girl finds a dog.\n\nThey walk home in the rain.').map((s) => s.text)).toEqual([
      'A girl finds a dog.',
      'They walk home in the rain.',
    ]);
  });
});

describe('sceneIndexForImage', () => {
  it('spreads images over the scenes in order and uses every scene when there are enough images', () => {
    const map = (n: number, s: number) => Array.from({ length: n }, (_, i) => sceneIndexForImage(i, n, s));
    expect(map(3, 3)).toEqual([0, 1, 2]);
    expect(map(6, 3)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(map(2, 3)).toEqual([0, 2]);
    for (const [n, s] of [
      [5, 5],
      [7, 5],
      [100, 37],
    ] as const)
      expect(new Set(map(n, s)).size).toBe(s);
  });
});

describe('withoutOtherTimes', () => {
  it('drops phrases that name another time of day', () => {
    expect(withoutOtherTimes('a kitchen, bright natural daylight, steam', 'night')).toBe('a kitchen, steam');
    expect(withoutOtherTimes('a pier, moonlight on the water', 'day')).toBe('a pier');
    expect(withoutOtherTimes('a road, natural daylight', 'day')).toBe('a road, natural daylight');
  });
});
