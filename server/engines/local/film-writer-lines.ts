// The film writer's lines of dialogue: for each intent (what a line does in its beat), the sentences a speaker
// may say to a listener, built around the characters' own goals, conflicts, arcs and relationships.
import { firstPerson, gerund, inflect, isClause, secondPerson, sentence } from './english.ts';
import type { Intent } from './film-writer-beats.ts';
import {
  arcVerb,
  firstPersonClause,
  firstPersonPlural,
  type Person,
  prepositionFor,
  type Side,
} from './film-writer-words.ts';

/** What the writer knows of the story that the lines draw on. */
export interface LineWriter {
  readonly antagonist: Person | null;
  readonly themes: readonly string[];
  /** How the speaker names their tie to the listener ('old friend'); '' when none is given. */
  relationship(speaker: Person, listener: Person): string;
}

export interface SceneFacts {
  beat: string;
  side: Side;
  location: string;
  time: string;
  timeWord: string;
  placeWord: string;
  cast: Person[];
  tension: number;
}

/** The sentences `s` may say to `l` (null: that phrasing does not fit these characters) for one intent. */
export function lineOptions(
  story: LineWriter,
  intent: Intent,
  s: Person,
  l: Person | null,
  scene: SceneFacts,
): Array<string | null> {
  const mine = firstPerson(s.goal);
  const yours = l ? secondPerson(l.goal) : '';
  const a = story.antagonist;
  const place = scene.placeWord;
  const at = prepositionFor(place);
  /** The antagonist as a third person: neither the speaker nor the one spoken to. */
  const them = a && a !== s && a !== l ? a : null;
  const when = scene.timeWord === 'night' ? 'tonight' : scene.timeWord === 'dawn' ? 'this morning' : 'today';
  const name = l?.name ?? '';
  const rel = l ? story.relationship(s, l) : '';
  const theme = story.themes[0] ?? '';
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
