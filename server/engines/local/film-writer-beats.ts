// The film writer's three acts as beats: for each, its tension, who is in the scene, what the lines do (intents),
// and the action and purpose sentences built around the user's own phrases (several phrasings, chosen by the writer).
import { gerund, inflect, possessive, withArticle } from './english.ts';
import { agree, type Person, type Side } from './film-writer-words.ts';

export type Intent =
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
export const SPARE_INTENTS: Intent[] = ['want', 'doubt', 'reflect', 'vow', 'realise'];

/** What a beat's sentences read from the writer: the story's people, place and premise, and its choice of phrasing. */
export interface BeatWriter {
  readonly lead: Person;
  readonly antagonist: Person | null;
  readonly proper: ReadonlySet<string>;
  readonly placePhrase: string;
  readonly inPlace: string;
  readonly placeNoun: string;
  readonly premise: string;
  readonly conflictClause: string;
  readonly conflictNoun: string;
  readonly arcNoun: string;
  vary(...options: string[]): string;
}

export interface Beat {
  name: string;
  /** 0 calm … 4 highest tension. */
  tension: number;
  /** Who is in the scene besides the lead. */
  cast: 'lead' | 'ally' | 'antagonist' | 'all';
  intents: [Intent, Intent, ...Intent[]];
  /** The action sentence's verb phrase, with the lead as subject (third person). */
  action: (w: BeatWriter) => string;
  purpose: (w: BeatWriter) => string;
  time: string[];
  side: Side | 'any';
}

const lead = (w: BeatWriter) => w.lead.name;
export const BEATS: Beat[][] = [
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
