import { type FilmScreenplayDraft, lightOfTime } from '../../../common/api/film.ts';
import {
  clean,
  inflect,
  isClause,
  listJoin,
  midSentence,
  possessive,
  properNouns,
  restoreCase,
  sentence,
  verbPhrase,
  withArticle,
} from './english.ts';
import { BEATS, type Beat, type BeatWriter, type Intent, SPARE_INTENTS } from './film-writer-beats.ts';
import { type LineWriter, lineOptions, type SceneFacts } from './film-writer-lines.ts';
import {
  agree,
  arcVerb,
  GENRE_THEMES,
  GENRE_VERB,
  headingPlace,
  headNoun,
  MOODS,
  MOVE_FOR_TENSION,
  type Person,
  PLACE_WORDS,
  pastParticiple,
  placeRank,
  predicateOf,
  prepositionFor,
  pronounsOf,
  SHOT_FOR_TENSION,
  type Side,
  titleCase,
  withArticleOrThe,
} from './film-writer-words.ts';
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

class Writer implements BeatWriter, LineWriter {
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

  /** A line nobody has said yet in this screenplay: the intent's sentences (film-writer-lines.ts) in a seeded order, then variants. */
  line(intent: Intent, speaker: Person, listener: Person | null, scene: SceneFacts): string {
    const builders = lineOptions(this, intent, speaker, listener, scene).filter((b): b is string => Boolean(b));
    const start = builders.length > 0 ? this.rng.int(0, builders.length - 1) : 0;
    // The intent's own sentences first (from a seeded start), then those of intents any speaker can voice.
    const spare = SPARE_INTENTS.filter((i) => i !== intent).flatMap((i) =>
      lineOptions(this, i, speaker, listener, scene).filter((b): b is string => Boolean(b)),
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

  relationship(s: Person, l: Person): string {
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

/** The local film writer's screenplay for a concept and its characters. */
export function writeFilmScreenplay(input: FilmWriterInput): FilmScreenplayDraft {
  if (input.characters.length === 0) throw new Error('the film writer needs at least one character');
  return new Writer(input).write();
}
