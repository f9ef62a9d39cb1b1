import { type FilmScreenplayDraft, lightOfTime } from '../../../common/api/film.ts';
import {
  baseVerb,
  clean,
  firstPerson,
  gerund,
  inflect,
  isClause,
  listJoin,
  midSentence,
  possessive,
  properNouns,
  restoreCase,
  secondPerson,
  sentence,
  verbPhrase,
  withArticle,
} from './english.ts';
import { hashString, Rng } from './random.ts';

// The local film writer: a three-act screenplay composed from the concept and the characters (names,
// roles, goals, conflicts, arcs, relationships, setting, genre, tone). Deterministic: the same input
// gives the same screenplay (the random choices are seeded by the input). No bank of finished lines:
// every sentence is built by grammar rules around the user's own phrases, and no line of dialogue is
// used twice.

interface FilmWriterConcept {
  title: string;
  description: string;
  genre?: string;
  tone?: string;
  targetDuration?: number;
  theme?: string;
  logline?: string;
  setting?: { timeperiod?: string; location?: string; world?: string };
}

export interface FilmWriterCharacter {
  id?: string;
  name: string;
  role?: string;
  description?: string;
  personality?: string;
  motivation?: string;
  goal?: string;
  conflict?: string;
  arc?: string;
  backstory?: string;
  demographics?: { gender?: string; occupation?: string; age?: string | number };
  relationships?: Array<{ characterId: string; relationship: string }>;
}

export interface FilmWriterInput {
  concept: FilmWriterConcept;
  characters: FilmWriterCharacter[];
}

type Side = 'INT.' | 'EXT.';
type Intent =
  | 'want'
  | 'ask'
  | 'news'
  | 'doubt'
  | 'urge'
  | 'vow'
  | 'threat'
  | 'plead'
  | 'reveal'
  | 'grief'
  | 'realise'
  | 'rally'
  | 'defy'
  | 'reflect';

/** Intents whose sentences need no listener and no antagonist: the spare lines of any speaker. */
const SPARE_INTENTS: Intent[] = ['want', 'doubt', 'reflect', 'vow', 'realise'];

interface Beat {
  name: string;
  /** 0 calm … 4 highest tension. */
  tension: number;
  /** Who is in the scene besides the lead. */
  cast: 'lead' | 'ally' | 'antagonist' | 'all';
  intents: [Intent, Intent, ...Intent[]];
  /** The action sentence's verb phrase, with the lead as subject (third person). */
  action: (w: Writer) => string;
  purpose: (w: Writer) => string;
  time: string[];
  side: Side | 'any';
}

interface Person {
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
const PLACE_WORDS: Record<string, Side> = {
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
function placeRank(word: string): number {
  if (WIDE_PLACES.has(word)) return 0;
  return PLACE_WORDS[word] === 'EXT.' ? 1 : 2;
}

const GENRE_VERB: Record<string, string> = {
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
const GENRE_THEMES: Record<string, string[]> = {
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
const MOODS: Record<string, string[]> = {
  dark: ['brooding', 'uneasy', 'menacing', 'desperate', 'bleak'],
  light: ['warm', 'playful', 'hopeful', 'frantic', 'joyous'],
  dramatic: ['quiet', 'charged', 'tense', 'devastating', 'cathartic'],
  comedic: ['breezy', 'awkward', 'chaotic', 'absurd', 'triumphant'],
  suspenseful: ['watchful', 'uneasy', 'tense', 'frantic', 'explosive'],
  inspirational: ['quiet', 'determined', 'tense', 'despairing', 'uplifting'],
};

const SHOT_FOR_TENSION = ['wide shot', 'medium shot', 'over-the-shoulder shot', 'close-up', 'extreme close-up'];
const MOVE_FOR_TENSION = ['slow pan', 'steady dolly in', 'handheld follow', 'slow push-in', 'whip pan'];

const lead = (w: Writer) => w.lead.name;
const BEATS: Beat[][] = [
  [
    {
      name: 'Opening image',
      tension: 0,
      cast: 'lead',
      intents: ['want', 'reflect'],
      action: (w) =>
        w.vary(
          `goes about ${w.lead.pronoun.possessive} days ${w.inPlace}, still hoping to ${w.lead.goal}`,
          `wakes ${w.inPlace} with one thing on ${w.lead.pronoun.possessive} mind: to ${w.lead.goal}`,
          `keeps to ${w.lead.pronoun.possessive} routine ${w.inPlace} and tells no one that ${w.lead.pronoun.subject} ${agree(w.lead, 'wants')} to ${w.lead.goal}`,
          w.lead.occupation
            ? `works ${w.inPlace} as ${withArticle(w.lead.occupation, w.proper)}, quietly planning to ${w.lead.goal}`
            : `walks through ${w.placePhrase}, counting what it would take to ${w.lead.goal}`,
        ),
      purpose: (w) =>
        `Establish ${lead(w)}, ${w.placePhrase} and what ${w.lead.pronoun.subject} ${agree(w.lead, 'wants')}`,
      time: ['DAWN', 'MORNING', 'DAY'],
      side: 'any',
    },
    {
      name: 'Inciting incident',
      tension: 2,
      cast: 'antagonist',
      intents: ['news', 'ask', 'threat'],
      action: (w) =>
        w.antagonist
          ? `runs into ${w.antagonist.name}, who means to ${w.antagonist.goal}`
          : `is shaken when ${w.conflictClause}`,
      purpose: (w) =>
        `Disrupt ${possessive(lead(w))} routine and threaten ${w.lead.pronoun.possessive} hope to ${w.lead.goal}`,
      time: ['DAY', 'DUSK'],
      side: 'any',
    },
    {
      name: 'Debate',
      tension: 1,
      cast: 'ally',
      intents: ['doubt', 'urge', 'plead'],
      action: (w) =>
        w.vary(
          `hesitates, afraid of what ${inflect(w.lead.goal, gerund)} would cost`,
          `weighs ${inflect(w.lead.goal, gerund)} against everything ${w.lead.pronoun.subject} could lose`,
          `turns down the chance to ${w.lead.goal}, for now`,
          `asks an old friend whether ${inflect(w.lead.goal, gerund)} is worth the risk`,
        ),
      purpose: (w) => `Show what ${inflect(w.lead.goal, gerund)} would cost ${lead(w)}`,
      time: ['EVENING', 'NIGHT'],
      side: 'INT.',
    },
    {
      name: 'Break into two',
      tension: 2,
      cast: 'ally',
      intents: ['vow', 'urge'],
      action: (w) =>
        w.vary(
          `commits to ${inflect(w.lead.goal, gerund)}, whatever it takes`,
          `makes the call: ${w.lead.pronoun.subject} will ${w.lead.goal}`,
          `packs what ${w.lead.pronoun.subject} ${agree(w.lead, 'needs')} and sets out to ${w.lead.goal}`,
        ),
      purpose: (w) =>
        w.vary(
          `Commit ${lead(w)} to the journey of the second act`,
          `Make ${inflect(w.lead.goal, gerund)} ${possessive(lead(w))} choice, not chance`,
          `Send ${lead(w)} out of ${w.placePhrase}'s comfort and into the story`,
        ),
      time: ['NIGHT', 'DAWN'],
      side: 'EXT.',
    },
  ],
  [
    {
      name: 'Fun and games',
      tension: 1,
      cast: 'ally',
      intents: ['ask', 'reveal', 'want'],
      action: (w) =>
        w.vary(
          `tries a first way to ${w.lead.goal} and learns how things work ${w.inPlace}`,
          `tests a first plan ${w.inPlace}, and the ${w.placeNoun} pushes back`,
          `takes a first small step toward ${inflect(w.lead.goal, gerund)} and finds an unexpected ally`,
        ),
      purpose: (w) => `Deliver the promise of the premise, where ${w.premise}`,
      time: ['DAY', 'AFTERNOON'],
      side: 'any',
    },
    {
      name: 'Midpoint',
      tension: 3,
      cast: 'all',
      intents: ['reveal', 'news', 'defy'],
      action: (w) =>
        w.antagonist
          ? `learns what ${w.antagonist.name} has planned and raises the stakes`
          : `learns the truth behind ${w.conflictNoun} and raises the stakes`,
      purpose: (w) =>
        w.vary(
          `Turn the story: ${lead(w)} stops reacting and starts acting`,
          `Reveal what ${inflect(w.lead.goal, gerund)} really means, halfway through`,
          `Raise what ${lead(w)} stands to lose ${w.inPlace}`,
        ),
      time: ['NIGHT', 'DUSK'],
      side: 'INT.',
    },
    {
      name: 'Bad guys close in',
      tension: 3,
      cast: 'antagonist',
      intents: ['threat', 'defy', 'plead'],
      action: (w) =>
        w.antagonist
          ? `is cornered as ${w.antagonist.name} moves to ${w.antagonist.goal}`
          : `feels ${w.conflictNoun} tighten around ${w.lead.pronoun.object}`,
      purpose: (w) =>
        w.vary(
          `Tighten the pressure on ${lead(w)} from outside and within`,
          `Close every easy road to ${inflect(w.lead.goal, gerund)}`,
          `Let ${w.conflictNoun} catch up with ${lead(w)}`,
        ),
      time: ['DAY', 'NIGHT'],
      side: 'EXT.',
    },
    {
      name: 'All is lost',
      tension: 4,
      cast: 'ally',
      intents: ['grief', 'doubt'],
      action: (w) =>
        w.vary(
          `fails to ${w.lead.goal} and loses what mattered most`,
          `watches the plan to ${w.lead.goal} fall apart`,
          `loses the last hope of ${inflect(w.lead.goal, gerund)}`,
        ),
      purpose: (w) =>
        w.vary(
          `Bring ${lead(w)} to the lowest point`,
          `Take ${inflect(w.lead.goal, gerund)} out of reach`,
          `Strip ${lead(w)} of the last advantage ${w.inPlace}`,
        ),
      time: ['NIGHT'],
      side: 'any',
    },
    {
      name: 'Dark night of the soul',
      tension: 2,
      cast: 'lead',
      intents: ['reflect', 'doubt', 'realise'],
      action: (w) =>
        w.vary(
          `sits alone with ${w.conflictNoun}`,
          `cannot sleep for thinking of ${w.conflictNoun}`,
          `goes back over every mistake, ${w.conflictNoun} heavy on ${w.lead.pronoun.object}`,
        ),
      purpose: (w) =>
        w.vary(
          `Let ${lead(w)} face the flaw that the arc must change`,
          `Give ${lead(w)} a quiet hour with ${w.conflictNoun}`,
          `Ask whether ${inflect(w.lead.goal, gerund)} was ever the right goal`,
        ),
      time: ['NIGHT', 'DAWN'],
      side: 'INT.',
    },
    {
      name: 'Second wind',
      tension: 2,
      cast: 'ally',
      intents: ['rally', 'realise'],
      action: (w) =>
        w.vary(
          `finds a new reason to ${w.lead.goal}`,
          `hears the one thing that makes ${w.lead.pronoun.object} try again to ${w.lead.goal}`,
          `gets up at first light, ready to ${w.lead.goal} after all`,
        ),
      purpose: (w) =>
        w.vary(
          `Give ${lead(w)} what the final act needs`,
          `Renew the reason for ${inflect(w.lead.goal, gerund)}`,
          `Hand ${lead(w)} a second chance ${w.inPlace}`,
        ),
      time: ['MORNING', 'DAY'],
      side: 'any',
    },
  ],
  [
    {
      name: 'Break into three',
      tension: 2,
      cast: 'ally',
      intents: ['realise', 'rally'],
      action: (w) =>
        w.vary(
          `sees a way through, changed by ${w.arcNoun}`,
          `understands at last what ${w.arcNoun} has taught ${w.lead.pronoun.object}`,
          `finds the answer in ${w.arcNoun}`,
        ),
      purpose: (w) =>
        w.vary(
          `Join what ${w.lead.name} learnt in the second act to the goal of the first`,
          `Turn ${w.arcNoun} into a plan for ${inflect(w.lead.goal, gerund)}`,
          `Point ${lead(w)} back toward ${w.placePhrase} with a plan`,
        ),
      time: ['DAWN', 'DAY'],
      side: 'any',
    },
    {
      name: 'Finale',
      tension: 4,
      cast: 'antagonist',
      intents: ['defy', 'threat', 'plead'],
      action: (w) =>
        w.antagonist
          ? `confronts ${w.antagonist.name} to ${w.lead.goal} once and for all`
          : `confronts ${w.conflictNoun} to ${w.lead.goal} once and for all`,
      purpose: (w) => `Resolve the central conflict ${w.inPlace}`,
      time: ['NIGHT', 'DUSK'],
      side: 'EXT.',
    },
    {
      name: 'Final image',
      tension: 0,
      cast: 'ally',
      intents: ['reflect', 'realise'],
      action: (w) =>
        w.vary(
          `looks out over ${w.placePhrase}, no longer the person of the opening image`,
          `returns to ${w.placePhrase}, changed`,
          `stands ${w.inPlace} once more, and this time ${w.lead.pronoun.subject} ${agree(w.lead, 'smiles')}`,
        ),
      purpose: (w) =>
        w.vary(
          `Mirror the opening image and show how ${lead(w)} has changed`,
          `Leave ${w.placePhrase} different from how we found it`,
          `Close on what ${inflect(w.lead.goal, gerund)} cost and gave`,
        ),
      time: ['DAWN', 'MORNING', 'DAY'],
      side: 'EXT.',
    },
  ],
];

function pronounsOf(gender: string | undefined): Person['pronoun'] {
  const g = (gender ?? '').toLowerCase();
  if (/\b(female|woman|girl|she|f)\b/.test(g)) return { subject: 'she', object: 'her', possessive: 'her' };
  if (/\b(male|man|boy|he|m)\b/.test(g)) return { subject: 'he', object: 'him', possessive: 'his' };
  return { subject: 'they', object: 'them', possessive: 'their' };
}

/** The predicate of a description written as a sentence: 'A keeper guards the light' → 'guard the light'. */
function predicateOf(description: string, proper: ReadonlySet<string>): string {
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
function headingPlace(phrase: string): string {
  return clean(phrase)
    .replace(/^(a|an|the)\s+/i, '')
    .split(' ')
    .slice(0, 5)
    .join(' ')
    .toUpperCase();
}

class Writer {
  readonly rng: Rng;
  readonly proper: Set<string>;
  readonly people: Person[];
  readonly lead: Person;
  readonly antagonist: Person | null;
  readonly allies: Person[];
  readonly genre: string;
  readonly tone: string;
  readonly mainPlace: string;
  readonly placePhrase: string;
  /** 'on a storm-beaten island off Maine', 'in the old city'. */
  readonly inPlace: string;
  /** The place's head noun: 'island'. */
  readonly placeNoun: string;
  readonly subPlaces: Array<{ name: string; side: Side }>;
  readonly premise: string;
  readonly conflictClause: string;
  readonly conflictNoun: string;
  readonly arcNoun: string;
  readonly themes: string[];
  private readonly used = new Set<string>();
  /** Chooses among phrasings of the same beat, seeded by the input (its own seed: the story's choices stay). */
  private readonly phrasing: Rng;

  constructor(private readonly input: FilmWriterInput) {
    const { concept, characters } = input;
    this.rng = new Rng(hashString(JSON.stringify(input)));
    this.phrasing = new Rng(hashString(`phrasing:${JSON.stringify(input)}`));
    this.genre = clean(concept.genre).toLowerCase() || 'drama';
    this.tone = clean(concept.tone).toLowerCase() || 'dramatic';
    const names = characters.map((c) => clean(c.name));
    this.proper = properNouns(
      [
        concept.title,
        concept.description,
        concept.theme,
        concept.setting?.location,
        concept.setting?.world,
        concept.setting?.timeperiod,
        ...characters.flatMap((c) => [c.goal, c.conflict, c.arc, c.motivation, c.description, c.backstory]),
      ],
      names,
    );
    const premiseGoal = predicateOf(concept.description, this.proper);
    this.people = characters.map((c, i) => this.person(c, i, premiseGoal));
    this.lead = this.people.find((p) => p.role === 'protagonist') ?? (this.people[0] as Person);
    this.antagonist = this.people.find((p) => p.role === 'antagonist' && p !== this.lead) ?? null;
    this.allies = this.people.filter((p) => p !== this.lead && p !== this.antagonist);
    const setting = concept.setting ?? {};
    const texts = [setting.location, setting.world, concept.description, concept.title].map((t) => t ?? '');
    // Places named in the texts, the outdoor ones (an island, a city) first: the widest is the main place.
    const found = [
      ...new Set(
        texts
          .join(' ')
          .toLowerCase()
          .match(/[a-z]+/g) ?? [],
      ),
    ]
      .filter((w) => PLACE_WORDS[w])
      .sort((x, y) => placeRank(x) - placeRank(y));
    const main =
      clean(setting.location) || clean(setting.world).split(/[,.;]/)[0] || (found[0] ? `the ${found[0]}` : '');
    this.mainPlace = headingPlace(main || concept.title);
    this.placePhrase = main ? withArticleOrThe(main, this.proper) : `the world of ${clean(concept.title)}`;
    this.placeNoun = headNoun(main) || found[0] || 'place';
    this.inPlace = `${prepositionFor(this.placeNoun)} ${this.placePhrase}`;
    const leadHome = {
      name: `${possessive(this.lead.name).toUpperCase()} ${this.lead.occupation ? 'QUARTERS' : 'HOME'}`,
      side: 'INT.' as Side,
    };
    this.subPlaces = [
      ...found
        .filter((w) => !this.mainPlace.includes(w.toUpperCase()))
        .map((w) => ({
          name: w.toUpperCase(),
          side: PLACE_WORDS[w] as Side,
        })),
      leadHome,
      ...(this.antagonist
        ? [
            {
              name: `${possessive(this.antagonist.name).toUpperCase()} ${this.antagonist.occupation ? 'OFFICE' : 'HOUSE'}`,
              side: 'INT.' as Side,
            },
          ]
        : []),
    ];
    this.premise = midSentence(concept.description, this.proper);
    const conflict = this.lead.conflict;
    this.conflictClause = conflict
      ? isClause(conflict, names)
        ? conflict
        : `${conflict} catches up with ${this.lead.pronoun.object}`
      : `the life ${this.lead.pronoun.subject} ${agree(this.lead, 'knows')} ${this.inPlace} begins to crack`;
    this.conflictNoun =
      conflict && !isClause(conflict, names) ? conflict : `${this.lead.pronoun.possessive} own doubts`;
    this.arcNoun = this.lead.arc
      ? `what ${this.lead.pronoun.subject} ${agree(this.lead, 'has')} learnt`
      : 'everything that has happened';
    const theme = clean(concept.theme);
    this.themes = theme
      ? theme
          .split(/\s*(?:,|;|\band\b)\s*/)
          .map((t) => midSentence(t, this.proper))
          .filter(Boolean)
      : (GENRE_THEMES[this.genre] ?? ['change']);
  }

  /** One of the ways to say a beat, so unrelated concepts do not share one fill-in pattern. */
  vary(...options: string[]): string {
    return this.phrasing.pick(options);
  }

  private person(c: FilmWriterCharacter, i: number, premiseGoal: string): Person {
    const pronoun = pronounsOf(c.demographics?.gender);
    const goalText = clean(c.goal) || clean(c.motivation);
    const role = c.role ?? 'supporting';
    const texts = [this.input.concept.setting?.location, this.input.concept.description].join(' ').toLowerCase();
    const named = (texts.match(/[a-z]+/g) ?? []).find((w) => PLACE_WORDS[w]);
    const location = clean(this.input.concept.setting?.location) || (named ? `the ${named}` : '');
    const genreVerb = GENRE_VERB[clean(this.input.concept.genre).toLowerCase()] ?? 'hold on to';
    const fallbackGoal =
      role === 'protagonist' || i === 0
        ? premiseGoal || `${genreVerb} ${location ? withArticleOrThe(location, this.proper) : 'what matters most'}`
        : role === 'antagonist'
          ? `take control of ${location ? withArticleOrThe(location, this.proper) : 'everything'}`
          : `keep ${pronoun.possessive} friends safe`;
    return {
      id: clean(c.id) || `character-${i + 1}`,
      name: clean(c.name),
      role,
      goal: goalText ? verbPhrase(goalText, this.proper) : fallbackGoal,
      conflict: clean(c.conflict) ? midSentence(c.conflict, this.proper) : '',
      arc: clean(c.arc) ? midSentence(c.arc, this.proper) : '',
      traits: clean(c.personality)
        .split(/\s*(?:,|;|\band\b)\s*/)
        .map((t) => t.toLowerCase())
        .filter((t) => t && t.split(' ').length <= 2),
      occupation: clean(c.demographics?.occupation),
      pronoun,
    };
  }

  /** 'Mara, a stubborn lighthouse keeper, must decide … while Silas …' */
  logline(): string {
    const given = clean(this.input.concept.logline);
    if (given) return sentence(given);
    const l = this.lead;
    const descriptor = [l.traits[0], l.occupation].filter(Boolean).join(' ');
    const appositive = descriptor ? `, ${withArticle(descriptor, this.proper)},` : '';
    const a = this.antagonist;
    let obstacle = '';
    if (a) obstacle = ` before ${a.name} can ${a.goal}`;
    else if (l.conflict) obstacle = isClause(l.conflict) ? ` even though ${l.conflict}` : ` despite ${l.conflict}`;
    else if (clean(this.input.concept.setting?.timeperiod))
      obstacle = ` in ${midSentence(this.input.concept.setting?.timeperiod, this.proper)}`;
    return sentence(`${l.name}${appositive} must ${l.goal}${obstacle}`);
  }

  /** A line nobody has said yet in this screenplay: the intents' builders in a seeded order, then variants. */
  line(intent: Intent, speaker: Person, listener: Person | null, scene: SceneFacts): string {
    const builders = this.builders(intent, speaker, listener, scene).filter((b): b is string => Boolean(b));
    const start = builders.length > 0 ? this.rng.int(0, builders.length - 1) : 0;
    // The intent's own sentences first (from a seeded start), then those of intents any speaker can voice.
    const spare = SPARE_INTENTS.filter((i) => i !== intent).flatMap((i) =>
      this.builders(i, speaker, listener, scene).filter((b): b is string => Boolean(b)),
    );
    const ordered = [...builders.slice(start), ...builders.slice(0, start), ...spare];
    const soon = scene.timeWord === 'night' ? 'tonight' : 'today';
    const tails = [
      '',
      listener ? `Listen to me, ${listener.name}.` : 'Listen.',
      `Not ${prepositionFor(scene.placeWord)} this ${scene.placeWord}.`,
      `Not ${soon}.`,
      'I mean it.',
      'Think about it.',
      listener ? `You know I'm right, ${listener.name}.` : 'You know it.',
    ];
    for (const tail of tails) {
      for (const raw of ordered) {
        const candidate = tail ? `${raw} ${tail}` : raw;
        if (!this.used.has(candidate.toLowerCase())) {
          this.used.add(candidate.toLowerCase());
          return candidate;
        }
      }
    }
    // Every variant is taken: the beat itself makes the line unique (beats differ across the screenplay).
    const last = `${sentence(`I keep coming back to this, ${scene.beat.toLowerCase()} or not`)} ${sentence(`${speaker.name} is still here`)}`;
    this.used.add(last.toLowerCase());
    return last;
  }

  private builders(intent: Intent, s: Person, l: Person | null, scene: SceneFacts): Array<string | null> {
    const mine = firstPerson(s.goal);
    const yours = l ? secondPerson(l.goal) : '';
    const a = this.antagonist;
    const place = scene.placeWord;
    const at = prepositionFor(place);
    /** The antagonist as a third person: neither the speaker nor the one spoken to. */
    const them = a && a !== s && a !== l ? a : null;
    const when = scene.timeWord === 'night' ? 'tonight' : scene.timeWord === 'dawn' ? 'this morning' : 'today';
    const name = l?.name ?? '';
    const rel = l ? this.relationship(s, l) : '';
    const theme = this.themes[0] ?? '';
    switch (intent) {
      case 'want':
        return [
          sentence(`I have to ${mine}`),
          sentence(`all I want is to ${mine}`),
          sentence(`if I don't ${mine}, nobody will`),
          sentence(`every day ${at} this ${place} I tell myself I will ${mine}`),
          s.traits[0] ? sentence(`people call me ${s.traits[0]}, but I only want to ${mine}`) : null,
        ];
      case 'ask':
        return l
          ? [
              sentence(`why do you need to ${yours}`, '?'),
              sentence(`what happens to you if you never ${yours}`, '?'),
              sentence(`${name}, is ${inflect(yours, gerund)} really worth all this`, '?'),
              sentence(`who told you that you had to ${yours}`, '?'),
            ]
          : [sentence(`what am I doing ${at} this ${place}`, '?'), sentence(`why can't I just ${mine}`, '?')];
      case 'news':
        return [
          them ? sentence(`${them.name} is going to ${them.goal}`) : null,
          them ? sentence(`${them.name} was here ${when}, asking questions about you`) : null,
          l && l === a ? sentence(`I know you want to ${yours}, ${name}`) : null,
          a === s && l ? sentence(`I'm here to ${mine}, ${name}, and you are in my way`) : null,
          sentence(`something has changed ${at} the ${place}`),
          l ? sentence(`${name}, you need to hear this before anyone else does`) : null,
        ];
      case 'doubt':
        return [
          sentence(`maybe I was never meant to ${mine}`),
          sentence(`what if ${inflect(mine, gerund)} costs me everything`, '?'),
          s.conflict && !isClause(s.conflict) ? sentence(`I can't get past ${firstPerson(s.conflict)}`) : null,
          s.conflict && isClause(s.conflict) ? sentence(`the truth is, ${firstPersonClause(s.conflict)}`) : null,
          sentence(`I used to be sure I could ${mine}`),
        ];
      case 'urge':
        return l
          ? [
              sentence(`you've wanted to ${yours} for as long as I've known you`),
              sentence(`stop waiting, ${name}, and ${yours}`),
              rel ? sentence(`I'm your ${rel}, ${name}, and I'm telling you to go`) : null,
              sentence(`nobody else ${at} this ${place} can ${yours}`),
            ]
          : [sentence(`get up and ${mine}`)];
      case 'vow':
        return [
          sentence(`I'm going to ${mine}, whatever it takes`),
          sentence(`${when} I stop talking and ${mine}`),
          sentence(`I won't rest until I ${mine}`),
          l ? sentence(`watch me, ${name}. I will ${mine}`) : null,
        ];
      case 'threat':
        return s === a && l
          ? [
              sentence(`you will never ${yours}, ${name}`),
              sentence(`walk away from this ${place} while you still can`),
              sentence(`${inflect(mine, gerund)} is the only thing that matters to me`),
              sentence(`I am going to ${mine}, and you can't stop me`),
            ]
          : [
              them ? sentence(`${them.name} will ${them.goal} if we let this happen`) : null,
              l && l === a ? sentence(`you'll have to go through me first, ${name}`) : null,
              them ? sentence(`${them.name} will come for us ${when}`) : null,
              l ? sentence(`${name}, we have less time than you think`) : null,
            ];
      case 'plead':
        return l
          ? [
              sentence(`please, ${name}, let me ${mine}`),
              sentence(`${name}, I'm begging you to listen`),
              rel ? sentence(`you're my ${rel}. Doesn't that count for something`, '?') : null,
            ]
          : [sentence(`please let me ${mine}`)];
      case 'reveal':
        return [
          l && rel ? sentence(`I never told you why I became your ${rel}, ${name}`) : null,
          l ? sentence(`you should know why I really want to ${mine}, ${name}`) : null,
          them ? sentence(`${them.name} wants to ${them.goal}. I've known for weeks`) : null,
          l && l === a ? sentence(`I know you want to ${yours}. I've known for weeks`) : null,
          sentence(`there's more to this ${place} than anyone admits`),
        ];
      case 'grief':
        return [
          sentence(`I was so close to ${inflect(mine, gerund)}`),
          sentence(`it's over. I couldn't ${mine}`),
          l ? sentence(`I'm sorry, ${name}. I let you down`) : null,
          sentence(`this ${place} took everything from me`),
        ];
      case 'realise':
        return [
          s.arc ? sentence(`I think I'm finally ${inflect(firstPerson(arcVerb(s.arc)), gerund)}`) : null,
          theme ? sentence(`maybe ${theme} was the point all along`) : null,
          sentence(`I don't need to ${mine} alone`),
          l ? sentence(`you were right about me, ${name}`) : null,
        ];
      case 'rally':
        return [
          l ? sentence(`come with me, ${name}. We finish this together`) : null,
          sentence(`one more try. We ${firstPersonPlural(s.goal)} ${when}`),
          sentence(`get everyone to the ${place}`),
        ];
      case 'defy':
        return [
          l && l === a ? sentence(`you don't get to decide that, ${name}`) : null,
          sentence(`not while I'm still standing ${at} this ${place}`),
          l && l === a ? sentence(`you will not ${yours}. Not while I'm here`) : null,
          s === a && l ? sentence(`you should have stayed away, ${name}`) : null,
          s !== a ? sentence(`I'm done being afraid`) : null,
        ];
      case 'reflect':
        return [
          sentence(`the ${place} looks different ${when}`),
          sentence(`I used to think ${inflect(mine, gerund)} would fix everything`),
          theme ? sentence(`${theme}. I understand it now`) : null,
          l ? sentence(`thank you for staying, ${name}`) : null,
        ];
    }
  }

  private relationship(s: Person, l: Person): string {
    const source = this.input.characters.find((c) => clean(c.name) === s.name);
    const found = source?.relationships?.find(
      (r) => r.characterId === l.id || r.characterId.toLowerCase() === l.name.toLowerCase(),
    );
    return found ? restoreCase(midSentence(found.relationship, this.proper).toLowerCase(), this.proper) : '';
  }

  write(): FilmScreenplayDraft {
    const duration = this.input.concept.targetDuration ?? 90;
    const extra = (duration >= 120 ? 1 : 0) + (duration >= 150 ? 1 : 0);
    const beats = [BEATS[0] ?? [], (BEATS[1] ?? []).slice(0, 4 + extra), BEATS[2] ?? []];
    const acts = beats.map((actBeats, a) => {
      const scenes = actBeats.map((beat, k) => {
        return this.scene(beat, this.sceneFacts(beat, a, k));
      });
      return {
        title: ['Setup', 'Confrontation', 'Resolution'][a] ?? `Act ${a + 1}`,
        description: this.actDescription(a),
        plotPoints: actBeats.map((beat) => sentence(`${beat.name}: ${this.lead.name} ${beat.action(this)}`)),
        scenes,
      };
    });
    return { logline: this.logline(), themes: this.themes, acts };
  }

  private actDescription(act: number): string {
    const l = this.lead;
    const a = this.antagonist;
    if (act === 0)
      return sentence(
        `${l.name} is introduced ${this.inPlace} and chooses to ${l.goal}${a ? `, setting ${l.pronoun.object} against ${a.name}` : ''}`,
      );
    if (act === 1)
      return sentence(
        `${l.name} struggles to ${l.goal} ${a ? `as ${a.name} pushes back` : `against ${this.conflictNoun}`}, until everything is lost`,
      );
    return sentence(
      `${l.name} rises again and faces ${a ? a.name : this.conflictNoun} in a final confrontation${l.arc ? `, having ${inflect(arcVerb(l.arc), pastParticiple)}` : ''}`,
    );
  }

  private sceneFacts(beat: Beat, act: number, index: number): SceneFacts {
    const place = this.rng.chance(0.45) || this.subPlaces.length === 0 ? null : this.rng.pick(this.subPlaces);
    const side: Side =
      beat.side !== 'any' && !place ? beat.side : (place?.side ?? (beat.side === 'any' ? 'EXT.' : beat.side));
    const darkTone = this.tone === 'dark' || this.genre === 'horror' || this.genre === 'thriller';
    const time = darkTone && beat.time.includes('NIGHT') ? 'NIGHT' : this.rng.pick(beat.time);
    const location = place ? `${side} ${this.mainPlace} - ${place.name}` : `${side} ${this.mainPlace}`;
    const cast =
      beat.cast === 'lead'
        ? [this.lead]
        : beat.cast === 'antagonist' && this.antagonist
          ? [this.lead, this.antagonist]
          : beat.cast === 'all'
            ? [this.lead, ...(this.antagonist ? [this.antagonist] : []), ...this.allies.slice(0, 1)]
            : [
                this.lead,
                ...(this.allies.length > 0 ? [this.allies[(act + index) % this.allies.length] as Person] : []),
              ];
    const placeWord = place ? (place.name.toLowerCase().split(' ').at(-1) ?? 'place') : this.placeNoun;
    return {
      beat: beat.name,
      side,
      location,
      time,
      timeWord: lightOfTime(time)?.word ?? 'day',
      placeWord,
      cast,
      tension: beat.tension,
    };
  }

  private scene(beat: Beat, facts: SceneFacts) {
    const l = this.lead;
    const mood = (MOODS[this.tone] ?? MOODS.dramatic ?? [])[facts.tension] ?? 'tense';
    const light = lightOfTime(facts.time);
    const lowerSub = facts.location.split(' - ')[1]?.toLowerCase();
    const sub = lowerSub ? restoreCase(lowerSub, this.proper) : undefined;
    const headingDescription = sentence(
      `${sub ? `${facts.side === 'INT.' ? 'inside' : 'out at'} ${/'/.test(sub) ? sub.replace(/^(\S+)/, (n) => titleCase(n)) : `the ${sub}`}, ${this.inPlace}` : `${facts.side === 'INT.' ? 'indoors' : 'outdoors'} ${this.inPlace}`}${light ? `, ${light.light}` : ''}`,
    );
    const action = sentence(`${l.name} ${beat.action(this)}`);
    const others = facts.cast.filter((p) => p !== l);
    const elements: FilmScreenplayDraft['acts'][number]['scenes'][number]['elements'] = [
      { type: 'action', content: action, character: '' },
    ];
    const speakers = facts.cast.length > 1 ? facts.cast : [l];
    const lines = Math.min(4, 2 + Math.floor(facts.tension / 2));
    for (let i = 0; i < lines; i++) {
      const speaker = speakers[i % speakers.length] as Person;
      const listener = speakers.length > 1 ? (speakers[(i + 1) % speakers.length] as Person) : null;
      const intent = beat.intents[i % beat.intents.length] as Intent;
      if (i === 1 && facts.tension >= 3) {
        elements.push({
          type: 'parenthetical',
          content: `(${this.rng.pick(['quietly', 'through gritted teeth', 'not looking up', 'stepping closer'])})`,
          character: speaker.name,
        });
      }
      if (!listener && i === 0)
        elements.push({ type: 'parenthetical', content: '(to no one)', character: speaker.name });
      elements.push({
        type: 'dialogue',
        content: this.line(intent, speaker, listener, facts),
        character: speaker.name,
      });
    }
    if (others.length > 0 && facts.tension >= 2) {
      elements.push({
        type: 'action',
        content: sentence(
          `${listJoin(others.map((o) => o.name))} ${others.length > 1 ? 'hold' : 'holds'} ${l.name}'s gaze`,
        ),
        character: '',
      });
    }
    elements.push({ type: 'transition', content: facts.tension >= 3 ? 'SMASH CUT TO:' : 'CUT TO:', character: '' });
    const shots = this.shots(facts, mood, action);
    return {
      heading: { location: facts.location, timeOfDay: facts.time, description: headingDescription },
      description: action,
      mood,
      purpose: sentence(beat.purpose(this)),
      elements,
      shots,
    };
  }

  private shots(facts: SceneFacts, mood: string, action: string) {
    const light = lightOfTime(facts.time)?.light ?? 'natural light';
    const where = restoreCase(
      facts.location
        .replace(/^(INT\.|EXT\.)\s+/, '')
        .toLowerCase()
        .replace(' - ', ', '),
      this.proper,
    );
    const inside = facts.side === 'INT.' ? 'interior' : 'exterior';
    const film = `${this.tone} ${this.genre} film`;
    const look = this.vary(
      `${where}, ${inside}, ${light}, ${mood} mood, ${film}`,
      `${light} over ${where} (${inside}); the mood ${mood}; ${film}`,
      `${film}: ${mood} mood, ${light}, ${inside} of ${where}`,
    );
    const doing = action.replace(/\.$/, '');
    const l = this.lead;
    const others = facts.cast.filter((p) => p !== l);
    const wideType = facts.side === 'EXT.' ? 'wide establishing shot' : 'wide shot';
    const list = [
      {
        type: wideType,
        description: sentence(
          this.vary(
            `${wideType} of ${where} as ${doing}`,
            `${doing}, seen in a ${wideType} of ${where}`,
            `we open wide on ${where}: ${doing}`,
            `${where} fills the frame while ${doing}`,
            `from far off, ${where}; ${doing}`,
          ),
        ),
        prompt: this.vary(`${wideType} of ${where}: ${action} ${look}`, `${action} ${wideType}. ${look}`),
        duration: 6,
        cameraMovement: MOVE_FOR_TENSION[Math.max(0, facts.tension - 1)] ?? 'slow pan',
        characters: facts.cast.map((p) => p.name),
      },
    ];
    const closeType = SHOT_FOR_TENSION[Math.max(1, facts.tension)] ?? 'medium shot';
    const subject = others[0] ? `${l.name} facing ${others[0].name}` : l.name;
    list.push({
      type: closeType,
      description: sentence(
        this.vary(
          `${closeType} of ${subject}, ${mood}`,
          `${subject}, held in a ${mood} ${closeType}`,
          `the camera finds ${subject} (${closeType})`,
          `${closeType}: ${subject}, and ${l.pronoun.possessive} wish to ${l.goal} plain to see`,
          `on ${subject}, ${closeType}, ${light}`,
        ),
      ),
      prompt: this.vary(
        `${closeType} of ${subject} in ${where}, ${light}, ${mood} mood, ${film}`,
        `${subject}, ${closeType}, ${where}; ${mood} mood under ${light}; ${film}`,
      ),
      duration: 4 + (facts.tension % 3),
      cameraMovement: MOVE_FOR_TENSION[facts.tension] ?? 'static',
      characters: [l.name, ...(others[0] ? [others[0].name] : [])],
    });
    if (facts.tension >= 3) {
      const detail = this.vary('eyes', 'hands', 'face', 'breath on the glass', 'clenched jaw');
      list.push({
        type: 'extreme close-up',
        description: sentence(
          this.vary(
            `extreme close-up of ${possessive(l.name)} ${detail}, ${mood}`,
            `${possessive(l.name)} ${detail} fill the screen`,
            `nothing but ${possessive(l.name)} ${detail} now`,
          ),
        ),
        prompt: `extreme close-up of ${possessive(l.name)} ${detail}, ${light}, ${mood} mood, ${film}`,
        duration: 3,
        cameraMovement: 'static',
        characters: [l.name],
      });
    }
    return list;
  }
}

interface SceneFacts {
  beat: string;
  side: Side;
  location: string;
  time: string;
  timeWord: string;
  placeWord: string;
  cast: Person[];
  tension: number;
}

/** A place the audience knows by name: 'the …' unless it is a proper noun or already has a determiner. */
function withArticleOrThe(place: string, proper: ReadonlySet<string>): string {
  const text = midSentence(place, proper);
  const first = text.split(' ')[0] ?? '';
  if (/^(a|an|the|his|her|their|my|our|its)$/i.test(first) || proper.has(first) || /^\p{Lu}/u.test(first)) return text;
  return `the ${text}`;
}

/** 'wants' for he and she, 'want' for they. */
function agree(person: Person, verb: string): string {
  return person.pronoun.subject === 'they' ? baseVerb(verb) : verb;
}

/** 'Silas'' → "Silas'" (a name in a heading written back in title case). */
function titleCase(word: string): string {
  return word.replace(/^\p{L}/u, (c) => c.toUpperCase());
}

const ON_PLACES =
  /^(island|coast|beach|shore|farm|ship|spaceship|street|pier|bridge|rooftop|mountain|field|frontier|planet|moon|boat|train|plain|road|highway|estate|ranch|border)$/;

/** 'on' for places one stands on (an island, a ship), 'in' for the rest. */
function prepositionFor(noun: string): string {
  return ON_PLACES.test(noun.toLowerCase()) ? 'on' : 'in';
}

/** The head noun of a place phrase: 'a storm-beaten island off Maine' → 'island'. */
function headNoun(phrase: string): string {
  // The noun before a preposition, a participle or a relative clause: 'the Kepler Station orbiting Saturn' → station.
  const before =
    clean(phrase).split(
      /\s+(?:off|of|in|near|on|at|by|outside|beyond|under|above|where|that|which|with|[a-z]+ing)\s+/,
    )[0] ?? '';
  return (before.split(' ').at(-1) ?? '').toLowerCase().replace(/[^a-z-]/g, '');
}

/** 'she fears the sea' → 'I fear the sea'. */
function firstPersonClause(clause: string): string {
  const [subject = '', verb = '', ...rest] = clean(clause).split(' ');
  if (!['he', 'she', 'they'].includes(subject.toLowerCase())) return firstPerson(midSentence(clause));
  const v = baseVerb(verb);
  return [`I`, v === 'be' ? 'am' : v, ...rest].map((w, i) => (i > 1 ? firstPerson(w) : w)).join(' ');
}

/** 'find her brother' → 'find our brother' (said by one of 'us'). */
function firstPersonPlural(phrase: string): string {
  return phrase
    .replace(/\b(?:his|her|their)\b(?=\s+\p{L})/giu, 'our')
    .replace(/\b(?:himself|herself|themselves)\b/gi, 'ourselves')
    .replace(/\b(?:him|her|them)\b/gi, 'us');
}

/** An arc as a bare verb phrase: 'learns to trust others' → 'learn to trust others'. */
function arcVerb(arc: string): string {
  const text = clean(arc).replace(/^(?:he|she|they)\s+/i, '');
  return inflect(text, baseVerb);
}

/** 'learn' → 'learnt', 'trust' → 'trusted', 'give' → 'given' (for 'having …'). */
function pastParticiple(word: string): string {
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

/** The local film writer's screenplay for a concept and its characters. */
export function writeFilmScreenplay(input: FilmWriterInput): FilmScreenplayDraft {
  if (input.characters.length === 0) throw new Error('the film writer needs at least one character');
  return new Writer(input).write();
}
