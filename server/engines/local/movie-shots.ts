import { sentencesOf } from './prose-scenes.ts';
import { type ScriptScene, settingOf } from './script-scenes.ts';

// The local movie-agent writer: one shot per sentence of a scene's action. Every word of a shot's prompt
// comes from the script: the sentence itself, who it is about when it says only 'she' or 'they', the
// scene's place and time (and how that time looks), and the shot type and camera move, which are read
// from the sentence (an explicit 'dolly out' or 'crane up', or its verbs) and written into the prompt
// exactly as the shot's fields say them. No fixed style text is added.

export interface PlannedShot {
  shotIndex: number;
  shotType: string;
  cameraMovement: string;
  durationSeconds: number;
  prompt: string;
}

/** Camera moves a script may name outright, as the shot field writes them. */
const NAMED_MOVES: Array<[RegExp, string]> = [
  [/\bdoll(?:y|ies|ying)\s+out\b|\bpulls?\s+back\b/i, 'dolly out'],
  [/\bdoll(?:y|ies|ying)\s+in\b/i, 'dolly in'],
  [/\bcran(?:e|es|ing)\s+up\b/i, 'crane up'],
  [/\bcran(?:e|es|ing)\s+down\b/i, 'crane down'],
  [/\bpush(?:es|ing)?[\s-]in\b/i, 'slow push-in'],
  [/\bpan(?:s|ning)?\s+left\b/i, 'pan left'],
  [/\bpan(?:s|ning)?\s+right\b/i, 'pan right'],
  [/\btilt(?:s|ing)?\s+up\b/i, 'tilt up'],
  [/\btilt(?:s|ing)?\s+down\b/i, 'tilt down'],
  [/\borbit(?:s|ing)?\b/i, 'orbit'],
  [/\bzoom(?:s|ing)?\s+in\b/i, 'zoom in'],
  [/\bhandheld\b/i, 'handheld follow'],
  [/\btracking\b|\btracks\b/i, 'tracking'],
  [/\bstatic\b|\blocked[- ]off\b/i, 'static'],
];

/** A move the sentence's action suggests when it names none. */
const ACTION_MOVES: Array<[RegExp, string]> = [
  [
    /\b(races?|racing|runs|running|speeds|speeding|chases|chasing|rides|riding|drives|driving|weav(?:es|ing)|sprints?|sprinting|rushes|rushing|flies|flying|dashes|dashing)\b/i,
    'tracking',
  ],
  [/\b(climbs?|climbing|rises|rising|soars?|soaring|ascends?|ascending|looks? up)\b/i, 'crane up'],
  [/\b(leaves|leaving|walks away|disappears|vanishes|alone|fades)\b/i, 'dolly out'],
  [/\b(arrives|arriving|enters|entering|approaches|approaching|opens|opening|reveals)\b/i, 'slow push-in'],
  [/\b(stands|standing|waits|waiting|sits|sitting|watches|watching|stares|listens|looks)\b/i, 'static'],
];

const CLOSE_WORDS =
  /\b(hands?|eyes?|face|fingers?|letter|package|phone|screen|ring|key|tears?|lips|note|button|label|logo)\b/i;
const SHOT_TYPES: Array<[RegExp, string]> = [
  [/\bextreme close[- ]up\b/i, 'extreme close-up'],
  [/\bclose[- ]up\b|\bclose on\b/i, 'close-up'],
  [/\bwide shot\b|\bwide\b/i, 'wide shot'],
  [/\baerial\b|\bfrom above\b/i, 'aerial shot'],
  [/\bover[- ]the[- ]shoulder\b/i, 'over-the-shoulder'],
  [/\bmedium shot\b/i, 'medium shot'],
];

function cameraOf(sentence: string): string {
  return (
    NAMED_MOVES.find(([re]) => re.test(sentence))?.[1] ??
    ACTION_MOVES.find(([re]) => re.test(sentence))?.[1] ??
    'static'
  );
}

/** The scene's first shot establishes the place; a sentence about hands, a letter or a face is close. */
function shotTypeOf(sentence: string, first: boolean): string {
  const named = SHOT_TYPES.find(([re]) => re.test(sentence))?.[1];
  if (named) return named;
  if (CLOSE_WORDS.test(sentence)) return 'close-up';
  return first ? 'wide shot' : 'medium shot';
}

const PRONOUN = /^(she|he|they|it|her|his|their)\b/i;
const SUBJECT = /^(?:(?:a|an|the)\s+)(.+?)\s+(?:\w{2,}(?:s|ed)|is|are|was|were)\b/i;
const NAME = /^((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+)?)\s+[a-z]/u;

/** A sentence without a short opening phrase ('In the evening, she stands' → 'she stands'). */
const withoutOpening = (sentence: string) => sentence.replace(/^[^,]{0,30},\s*/, (m) => (PRONOUN.test(m) ? m : ''));

/** Who a sentence is about when it names them: 'the courier on a red bicycle', 'Commander Hollis'. */
function subjectOf(sentence: string): string | null {
  const start = withoutOpening(sentence);
  if (PRONOUN.test(start)) return null;
  const named = NAME.exec(start)?.[1];
  if (named && !/^(A|An|The|In|At|On|As|When|Then|Later|Now)$/.test(named.split(' ')[0] ?? '')) return named;
  const np = SUBJECT.exec(start)?.[1];
  return np && np.split(/\s+/).length <= 6 ? `the ${np}` : null;
}

const capitalise = (s: string) => (s ? s[0]?.toUpperCase() + s.slice(1) : s);

/** The shots of one scene: one per sentence (neighbours share past `maxShots`), the subject carried on. */
export function planShots(
  scene: ScriptScene,
  subjectBefore: string | null,
  maxShots = 6,
): {
  shots: PlannedShot[];
  subject: string | null;
} {
  const sentences = sentencesOf(scene.text);
  // More sentences than shots: neighbours share a shot, so no sentence is left out.
  const per = Math.ceil(sentences.length / maxShots);
  const picked = Array.from({ length: Math.ceil(sentences.length / per) }, (_, i) =>
    sentences.slice(i * per, (i + 1) * per).join(' '),
  );
  let subject = subjectBefore;
  const where = settingOf(scene);
  const shots = (picked.length > 0 ? picked : [scene.heading]).map((sentence, k) => {
    const action = sentence.replace(/[.!?…]+$/, '');
    subject = subjectOf(action) ?? subject;
    const who = PRONOUN.test(withoutOpening(action)) && subject ? `${capitalise(subject)}.` : '';
    const shotType = shotTypeOf(action, k === 0);
    const cameraMovement = cameraOf(action);
    const lower = action.toLowerCase();
    const setting = [
      where && !lower.includes(scene.place.toLowerCase() || '\u0000') ? where : '',
      scene.light ?? '',
    ].filter(Boolean);
    const prompt = [
      `${action}.`,
      who,
      `${capitalise(shotType)}, ${cameraMovement}.`,
      setting.length > 0 ? `${capitalise(setting.join(', '))}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return {
      shotIndex: k + 1,
      shotType,
      cameraMovement,
      durationSeconds: Math.min(8, Math.max(4, Math.round(sentence.split(/\s+/).length / 3))),
      prompt,
    };
  });
  return { shots, subject };
}
