// The timeline editor's layout maths: the clips laid end to end on one track, the ruler's ticks, and the
// conversions between a time on the timeline and a moment of one clip. Pure, so the editor and its tests share it.
import { SEQUENCE_MESSAGES } from '../../../common/rules/sequences.ts';

interface TimedItem {
  id: string;
  startTime: number;
  duration: number;
}

export interface ClipPlacement {
  id: string;
  /** Where the clip begins on the timeline, in seconds. */
  offset: number;
  duration: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Each item's place on the track: one after the other, in order, each as long as its cut. */
export function layOutClips(items: readonly TimedItem[]): ClipPlacement[] {
  let offset = 0;
  return items.map((item) => {
    const duration = Math.max(0, item.duration);
    const placement = { id: item.id, offset: round3(offset), duration };
    offset += duration;
    return placement;
  });
}

/** The length of the whole timeline, in seconds. */
export function timelineLength(items: readonly TimedItem[]): number {
  return round3(items.reduce((sum, item) => sum + Math.max(0, item.duration), 0));
}

export interface RulerTick {
  second: number;
  /** Labelled ticks are taller and carry the time. */
  labelled: boolean;
}

/** Labelled ticks are at least this far apart, so their texts never touch. */
const MIN_LABEL_GAP_PX = 40;
const LABEL_STEPS = [1, 2, 5, 10, 15, 30, 60];

/** Seconds between labelled ticks at this zoom: the smallest of 1, 2, 5, 10… that leaves room for a label. */
export function labelStep(pxPerSecond: number): number {
  return LABEL_STEPS.find((step) => step * pxPerSecond >= MIN_LABEL_GAP_PX) ?? 60;
}

/** One tick per second from 0 to `seconds` (rounded up), every `labelStep` one labelled. */
export function rulerTicks(seconds: number, pxPerSecond: number): RulerTick[] {
  const step = labelStep(pxPerSecond);
  const last = Math.max(0, Math.ceil(seconds));
  return Array.from({ length: last + 1 }, (_, second) => ({ second, labelled: second % step === 0 }));
}

/** The timeline time of a moment of an item's clip (its video's currentTime), kept inside the item's cut. */
export function timelineTimeOf(items: readonly TimedItem[], itemId: string, clipTime: number): number {
  const index = items.findIndex((item) => item.id === itemId);
  const item = items[index];
  if (!item) return 0;
  const offset = layOutClips(items)[index]?.offset ?? 0;
  const into = Math.min(Math.max(0, clipTime - item.startTime), Math.max(0, item.duration));
  return round3(offset + into);
}

/**
 * The item under a timeline time and the moment of its clip to show there; a time past the end is the end of
 * the last item. Null for an empty timeline.
 */
export function locateTime(
  items: readonly TimedItem[],
  seconds: number,
): { index: number; id: string; clipTime: number } | null {
  if (items.length === 0) return null;
  const placements = layOutClips(items);
  const time = Math.max(0, seconds);
  let index = placements.findIndex((clip) => time < clip.offset + clip.duration);
  if (index < 0) index = items.length - 1;
  const item = items[index] as TimedItem;
  const placement = placements[index] as ClipPlacement;
  const into = Math.min(Math.max(0, time - placement.offset), Math.max(0, item.duration));
  return { index, id: item.id, clipTime: round3(item.startTime + into) };
}

/** A pinned item's name: the image name in its 'Manually pinned: {name}' prompt, or the prompt itself. */
export function itemName(prompt: string): string {
  const prefix = SEQUENCE_MESSAGES.pinned('');
  return prompt.startsWith(prefix) ? prompt.slice(prefix.length) : prompt;
}

/** The picture a clip shows: its video's poster frame, else the pinned image's small copy, else the image. */
export function clipThumbnail(item: { posterUrl?: string | null; thumbnailUrl?: string | null; imageUrl: string }) {
  return item.posterUrl || item.thumbnailUrl || item.imageUrl;
}
