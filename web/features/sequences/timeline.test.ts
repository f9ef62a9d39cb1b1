import { describe, expect, it } from 'vitest';
import {
  clipThumbnail,
  itemName,
  labelStep,
  layOutClips,
  locateTime,
  rulerTicks,
  timelineLength,
  timelineTimeOf,
} from './timeline.ts';

const items = [
  { id: 'a', startTime: 1, duration: 3 },
  { id: 'b', startTime: 0, duration: 5 },
  { id: 'c', startTime: 2.5, duration: 1.5 },
];

describe('timeline layout', () => {
  it('lays the clips end to end in order', () => {
    expect(layOutClips(items)).toEqual([
      { id: 'a', offset: 0, duration: 3 },
      { id: 'b', offset: 3, duration: 5 },
      { id: 'c', offset: 8, duration: 1.5 },
    ]);
    expect(timelineLength(items)).toBe(9.5);
    expect(layOutClips([])).toEqual([]);
    expect(timelineLength([])).toBe(0);
  });

  it('ticks every second, labelled as often as the zoom leaves room for', () => {
    expect(labelStep(10)).toBe(5);
    expect(labelStep(20)).toBe(2);
    expect(labelStep(40)).toBe(1);
    expect(labelStep(50)).toBe(1);
    const ticks = rulerTicks(9.5, 20);
    expect(ticks).toHaveLength(11);
    expect(ticks.filter((tick) => tick.labelled).map((tick) => tick.second)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(rulerTicks(0, 20)).toEqual([{ second: 0, labelled: true }]);
  });

  it('maps a clip moment to the timeline and back', () => {
    expect(timelineTimeOf(items, 'a', 1)).toBe(0);
    expect(timelineTimeOf(items, 'a', 2.5)).toBe(1.5);
    expect(timelineTimeOf(items, 'b', 2)).toBe(5);
    // Outside the cut: held at its ends.
    expect(timelineTimeOf(items, 'c', 0)).toBe(8);
    expect(timelineTimeOf(items, 'c', 7)).toBe(9.5);
    expect(timelineTimeOf(items, 'missing', 3)).toBe(0);

    expect(locateTime(items, 1.5)).toEqual({ index: 0, id: 'a', clipTime: 2.5 });
    expect(locateTime(items, 3)).toEqual({ index: 1, id: 'b', clipTime: 0 });
    expect(locateTime(items, 9)).toEqual({ index: 2, id: 'c', clipTime: 3.5 });
    expect(locateTime(items, 20)).toEqual({ index: 2, id: 'c', clipTime: 4 });
    expect(locateTime(items, -1)).toEqual({ index: 0, id: 'a', clipTime: 1 });
    expect(locateTime([], 1)).toBeNull();
  });

  it('shows the poster frame, else the image thumbnail, else the image', () => {
    expect(clipThumbnail({ posterUrl: '/p.webp', thumbnailUrl: '/t.webp', imageUrl: '/i.png' })).toBe('/p.webp');
    expect(clipThumbnail({ posterUrl: null, thumbnailUrl: '/t.webp', imageUrl: '/i.png' })).toBe('/t.webp');
    expect(clipThumbnail({ imageUrl: '/i.png' })).toBe('/i.png');
  });

  it('names an item by the image in its pin prompt', () => {
    expect(itemName('Manually pinned: Lighthouse at dusk')).toBe('Lighthouse at dusk');
    expect(itemName('A slow dolly over the sea')).toBe('A slow dolly over the sea');
  });
});
