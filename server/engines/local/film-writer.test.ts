// The local film writer keeps the user's proper nouns as written and does not pour unrelated concepts
// into one fill-in pattern (issue 30 point 4).
import { describe, expect, it } from 'vitest';
import { shingles } from '../../test/shingles.ts';
import { type FilmWriterInput, writeFilmScreenplay } from './film-writer.ts';

const KEPLER: FilmWriterInput = {
  concept: {
    title: 'Last Light on Kepler',
    description:
      'On the Kepler Station, engineer Mara Voss discovers that Commander Hollis has been hiding a failing reactor from the crew.',
    genre: 'sci-fi',
    tone: 'tense',
    targetDuration: 90,
    setting: { location: 'the Kepler Station orbiting Saturn' },
  },
  characters: [
    { name: 'Mara Voss', role: 'protagonist', goal: 'save the crew' },
    { name: 'Commander Hollis', role: 'antagonist', goal: 'keep the station running at any cost' },
  ],
};
const BAKERY: FilmWriterInput = {
  concept: {
    title: 'The Bakery on Elm Street',
    description:
      'A retired baker named Rosa reopens her family bakery in a small Italian village and wins back her grandson.',
    genre: 'comedy',
    tone: 'warm',
    targetDuration: 60,
    setting: { location: 'a small village in Umbria' },
  },
  characters: [
    { name: 'Rosa', role: 'protagonist', goal: 'reopen the bakery', demographics: { gender: 'female' } },
    { name: 'Luca', role: 'supporting', goal: 'find a place to belong' },
  ],
};

/** Every string of the screenplay, cut into sentences. */
function sentencesOf(input: FilmWriterInput): string[] {
  const out: string[] = [];
  const walk = (value: unknown, key = ''): void => {
    if (typeof value === 'string') {
      if (!['type', 'character', 'cameraMovement', 'timeOfDay', 'location'].includes(key))
        out.push(...value.split(/(?<=[.!?])\s+/));
    } else if (Array.isArray(value)) for (const v of value) walk(v, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(writeFilmScreenplay(input));
  return out.filter(Boolean);
}

/** A sentence's structure: the words the user gave (names, concept words) masked, so only the pattern is left. */
function structureOf(sentence: string, input: FilmWriterInput): string {
  const given = new Set(
    (
      JSON.stringify(input)
        .toLowerCase()
        .match(/\p{L}{3,}/gu) ?? []
    ).filter((w) => !['the', 'and', 'her', 'his', 'from', 'that', 'has', 'been', 'any'].includes(w)),
  );
  return sentence.toLowerCase().replace(/\p{L}+/gu, (w) => (given.has(w) ? '_' : w));
}

describe('the local film writer', () => {
  it('keeps proper names capitalised wherever they appear', () => {
    const text = sentencesOf(KEPLER).join(' ');
    expect(text).toContain('Commander Hollis');
    expect(text).toContain('Kepler Station');
    expect(text).not.toMatch(/commander hollis|Commander hollis|kepler station|kepler Station|mara voss/);
    expect(text).not.toMatch(/\bsaturn\b/);
  });

  // The target is under 15 %; the writer was at 38 % on this measure and is at about 24 % now
  // (short dialogue lines and the time-of-day light phrases are still shared). This guards the gain.
  it('shares under 30 % of its sentence structure between unrelated concepts (was 38 %; target 15 %)', () => {
    const a = sentencesOf(KEPLER).map((s) => structureOf(s, KEPLER));
    const b = sentencesOf(BAKERY).map((s) => structureOf(s, BAKERY));
    const pool = (xs: string[]) => new Set(xs.flatMap((s) => [...shingles(s)]));
    /** Sentences whose 4-word shingles are mostly found in the other screenplay. */
    const sharedShare = (xs: string[], other: Set<string>) => {
      const counted = xs.filter((s) => shingles(s).size > 0);
      const shared = counted.filter((s) => {
        const own = [...shingles(s)];
        return own.filter((x) => other.has(x)).length / own.length >= 0.5;
      });
      return shared.length / counted.length;
    };
    expect(sharedShare(a, pool(b))).toBeLessThan(0.3);
    expect(sharedShare(b, pool(a))).toBeLessThan(0.3);
  });
});
