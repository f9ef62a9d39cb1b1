// The film writer's words: places and their kinds, genre and tone vocabulary, shot sizes and camera moves by
// tension, and the small grammar rules (pronouns, agreement, prepositions, participles) its sentences are built with.
import { baseVerb, clean, firstPerson, inflect, midSentence, verbPhrase } from './english.ts';

export type Side = 'INT.' | 'EXT.';

export interface Person {
  id: string;
  name: string;
  role: string;
  /** A bare verb phrase in third person ('find her brother'). */
  goal: string;
  conflict: string;
  arc: string;
  traits: string[];
  occupation: string;
  pronoun: { subject: string; object: string; possessive: string };
}

/** Places a film is often set in, with whether a scene there is inside. */
export const PLACE_WORDS: Record<string, Side> = {
  lighthouse: 'EXT.',
  harbour: 'EXT.',
  harbor: 'EXT.',
  island: 'EXT.',
  coast: 'EXT.',
  beach: 'EXT.',
  shore: 'EXT.',
  pier: 'EXT.',
  street: 'EXT.',
  alley: 'EXT.',
  rooftop: 'EXT.',
  forest: 'EXT.',
  woods: 'EXT.',
  field: 'EXT.',
  farm: 'EXT.',
  desert: 'EXT.',
  mountain: 'EXT.',
  village: 'EXT.',
  town: 'EXT.',
  city: 'EXT.',
  garden: 'EXT.',
  bridge: 'EXT.',
  station: 'INT.',
  kitchen: 'INT.',
  cottage: 'INT.',
  house: 'INT.',
  apartment: 'INT.',
  office: 'INT.',
  bar: 'INT.',
  diner: 'INT.',
  cafe: 'INT.',
  hospital: 'INT.',
  school: 'INT.',
  church: 'INT.',
  ship: 'INT.',
  spaceship: 'INT.',
  lab: 'INT.',
  laboratory: 'INT.',
  prison: 'INT.',
  castle: 'INT.',
  palace: 'INT.',
  warehouse: 'INT.',
  hotel: 'INT.',
  museum: 'INT.',
  library: 'INT.',
  studio: 'INT.',
  bunker: 'INT.',
};

/** Places that hold other places (an island holds a lighthouse): the main place of the headings. */
const WIDE_PLACES = new Set([
  'city',
  'town',
  'village',
  'island',
  'coast',
  'desert',
  'forest',
  'woods',
  'mountain',
  'farm',
  'field',
]);

/** Wide places first, then outdoor ones, then rooms. */
export function placeRank(word: string): number {
  if (WIDE_PLACES.has(word)) return 0;
  return PLACE_WORDS[word] === 'EXT.' ? 1 : 2;
}

export const GENRE_VERB: Record<string, string> = {
  drama: 'hold on to',
  action: 'save',
  comedy: 'save',
  horror: 'survive',
  'sci-fi': 'save',
  romance: 'find love in',
  thriller: 'expose the truth about',
  documentary: 'tell the story of',
};

/** What a film of the genre is about, when the concept names no theme. */
export const GENRE_THEMES: Record<string, string[]> = {
  drama: ['family', 'sacrifice'],
  action: ['courage', 'justice'],
  comedy: ['friendship', 'self-acceptance'],
  horror: ['fear', 'survival'],
  'sci-fi': ['humanity', 'progress'],
  romance: ['love', 'trust'],
  thriller: ['truth', 'paranoia'],
  documentary: ['memory', 'truth'],
};

/** Scene moods by tone, from calm to the highest tension. */
export const MOODS: Record<string, string[]> = {
  dark: ['brooding', 'uneasy', 'menacing', 'desperate', 'bleak'],
  light: ['warm', 'playful', 'hopeful', 'frantic', 'joyous'],
  dramatic: ['quiet', 'charged', 'tense', 'devastating', 'cathartic'],
  comedic: ['breezy', 'awkward', 'chaotic', 'absurd', 'triumphant'],
  suspenseful: ['watchful', 'uneasy', 'tense', 'frantic', 'explosive'],
  inspirational: ['quiet', 'determined', 'tense', 'despairing', 'uplifting'],
};

export const SHOT_FOR_TENSION = ['wide shot', 'medium shot', 'over-the-shoulder shot', 'close-up', 'extreme close-up'];
export const MOVE_FOR_TENSION = ['slow pan', 'steady dolly in', 'handheld follow', 'slow push-in', 'whip pan'];

export function pronounsOf(gender: string | undefined): Person['pronoun'] {
  const g = (gender ?? '').toLowerCase();
  if (/\b(female|woman|girl|she|f)\b/.test(g)) return { subject: 'she', object: 'her', possessive: 'her' };
  if (/\b(male|man|boy|he|m)\b/.test(g)) return { subject: 'he', object: 'him', possessive: 'his' };
  return { subject: 'they', object: 'them', possessive: 'their' };
}

/** The predicate of a description written as a sentence: 'A keeper guards the light' → 'guard the light'. */
export function predicateOf(description: string, proper: ReadonlySet<string>): string {
  const must = /\b(?:must|has to|have to|needs to|tries to|wants to)\s+([^.;!?]+)/i.exec(description);
  if (must?.[1]) return verbPhrase(must[1], proper);
  const words = clean(description.split(/[.;!?]/)[0]).split(' ');
  const determiners = /^(a|an|the|two|three|four|five|some|many|his|her|their|its|our|my|this|that|these|those)$/i;
  for (let i = 1; i < words.length && i < 6; i++) {
    const word = words[i] ?? '';
    if (/^[a-z]+s$/.test(word) && !/ss$/.test(word) && !determiners.test(words[i - 1] ?? '')) {
      return [baseVerb(word), ...words.slice(i + 1)].join(' ');
    }
  }
  return '';
}

/** A place for headings: upper case, no leading article, at most five words. */
export function headingPlace(phrase: string): string {
  return clean(phrase)
    .replace(/^(a|an|the)\s+/i, '')
    .split(' ')
    .slice(0, 5)
    .join(' ')
    .toUpperCase();
}

/** A place the audience knows by name: 'the …' unless it is a proper noun or already has a determiner. */
export function withArticleOrThe(place: string, proper: ReadonlySet<string>): string {
  const text = midSentence(place, proper);
  const first = text.split(' ')[0] ?? '';
  if (/^(a|an|the|his|her|their|my|our|its)$/i.test(first) || proper.has(first) || /^\p{Lu}/u.test(first)) return text;
  return `the ${text}`;
}

/** 'wants' for he and she, 'want' for they. */
export function agree(person: Person, verb: string): string {
  return person.pronoun.subject === 'they' ? baseVerb(verb) : verb;
}

/** 'Silas'' → "Silas'" (a name in a heading written back in title case). */
export function titleCase(word: string): string {
  return word.replace(/^\p{L}/u, (c) => c.toUpperCase());
}

const ON_PLACES =
  /^(island|coast|beach|shore|farm|ship|spaceship|street|pier|bridge|rooftop|mountain|field|frontier|planet|moon|boat|train|plain|road|highway|estate|ranch|border)$/;

/** 'on' for places one stands on (an island, a ship), 'in' for the rest. */
export function prepositionFor(noun: string): string {
  return ON_PLACES.test(noun.toLowerCase()) ? 'on' : 'in';
}

/** The head noun of a place phrase: 'a storm-beaten island off Maine' → 'island'. */
export function headNoun(phrase: string): string {
  // The noun before a preposition, a participle or a relative clause: 'the Kepler Station orbiting Saturn' → station.
  const before =
    clean(phrase).split(
      /\s+(?:off|of|in|near|on|at|by|outside|beyond|under|above|where|that|which|with|[a-z]+ing)\s+/,
    )[0] ?? '';
  return (before.split(' ').at(-1) ?? '').toLowerCase().replace(/[^a-z-]/g, '');
}

/** 'she fears the sea' → 'I fear the sea'. */
export function firstPersonClause(clause: string): string {
  const [subject = '', verb = '', ...rest] = clean(clause).split(' ');
  if (!['he', 'she', 'they'].includes(subject.toLowerCase())) return firstPerson(midSentence(clause));
  const v = baseVerb(verb);
  return [`I`, v === 'be' ? 'am' : v, ...rest].map((w, i) => (i > 1 ? firstPerson(w) : w)).join(' ');
}

/** 'find her brother' → 'find our brother' (said by one of 'us'). */
export function firstPersonPlural(phrase: string): string {
  return phrase
    .replace(/\b(?:his|her|their)\b(?=\s+\p{L})/giu, 'our')
    .replace(/\b(?:himself|herself|themselves)\b/gi, 'ourselves')
    .replace(/\b(?:him|her|them)\b/gi, 'us');
}

/** An arc as a bare verb phrase: 'learns to trust others' → 'learn to trust others'. */
export function arcVerb(arc: string): string {
  const text = clean(arc).replace(/^(?:he|she|they)\s+/i, '');
  return inflect(text, baseVerb);
}

/** 'learn' → 'learnt', 'trust' → 'trusted', 'give' → 'given' (for 'having …'). */
export function pastParticiple(word: string): string {
  const irregular: Record<string, string> = {
    learn: 'learnt',
    find: 'found',
    give: 'given',
    take: 'taken',
    let: 'let',
    become: 'become',
    come: 'come',
    go: 'gone',
    see: 'seen',
    make: 'made',
    lose: 'lost',
    leave: 'left',
    forgive: 'forgiven',
    hold: 'held',
    grow: 'grown',
    face: 'faced',
    be: 'been',
    have: 'had',
    get: 'got',
    win: 'won',
    keep: 'kept',
    understand: 'understood',
  };
  const lower = word.toLowerCase();
  if (irregular[lower]) return irregular[lower];
  if (lower.endsWith('e')) return `${lower}d`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ied`;
  return `${lower}ed`;
}
