// Small English grammar rules for the local writers: embedding a user's phrase mid-sentence, turning a
// goal into first or second person, verb forms, articles and lists. Rules, not lookups of whole lines.

const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'his',
  'her',
  'their',
  'its',
  'my',
  'our',
  'your',
  'this',
  'that',
  'these',
  'those',
  'some',
  'every',
  'each',
  'no',
  'one',
  'to',
  'in',
  'on',
  'at',
  'of',
  'for',
  'with',
  'without',
  'from',
  'by',
]);

/** A phrase without surrounding space, doubled spaces or trailing punctuation. */
export function clean(phrase: string | undefined | null): string {
  return (phrase ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
}

/**
 * Proper nouns of the user's texts: words written with a capital letter where a sentence does not start
 * (so 'Maine' in 'an island off Maine' is kept capitalised mid-sentence, 'An' in 'An aging keeper' is not).
 */
export function properNouns(texts: readonly (string | undefined)[], names: readonly string[] = []): Set<string> {
  const found = new Set<string>();
  for (const name of names) for (const part of name.split(/\s+/)) if (part) found.add(part);
  for (const text of texts) {
    if (!text) continue;
    const words = text.split(/\s+/);
    for (let i = 1; i < words.length; i++) {
      const prev = words[i - 1] ?? '';
      const word = (words[i] ?? '').replace(/^[^\p{L}]+|[^\p{L}'’-]+$/gu, '');
      if (!word || /[.!?:]["'”’)]*$/.test(prev)) continue;
      if (/^\p{Lu}/u.test(word) && !FUNCTION_WORDS.has(word.toLowerCase())) found.add(word);
    }
  }
  return found;
}

/**
 * A text that was lower-cased (or upper-cased, as in a slug line) with its proper nouns written as the
 * user wrote them again: 'commander hollis' office' → 'Commander Hollis' office'.
 */
export function restoreCase(text: string, proper: ReadonlySet<string>): string {
  if (proper.size === 0) return text;
  const byLower = new Map([...proper].map((word) => [word.toLowerCase(), word]));
  return text.replace(/[\p{L}-]+/gu, (word) => byLower.get(word.toLowerCase()) ?? word);
}

/** A user's phrase ready for the middle of a sentence: its first word lowercased unless it is a proper noun. */
export function midSentence(phrase: string | undefined, proper: ReadonlySet<string> = new Set()): string {
  const text = clean(phrase);
  const match = /^([\p{L}'’-]+)(.*)$/su.exec(text);
  if (!match) return text;
  const [, first = '', rest = ''] = match;
  if (first === 'I' || proper.has(first) || (first.length > 1 && first === first.toUpperCase())) return text;
  return `${first.toLowerCase()}${rest}`;
}

/** A phrase that already has its own subject and verb ('she fears the sea'), as opposed to a noun phrase. */
export function isClause(phrase: string, names: readonly string[] = []): boolean {
  const first = clean(phrase).split(' ')[0]?.toLowerCase() ?? '';
  if (['he', 'she', 'they', 'i', 'we', 'you', 'it', 'there'].includes(first)) return true;
  return names.some((n) => n && clean(phrase).toLowerCase().startsWith(`${n.toLowerCase()} `));
}

/** A goal as a bare verb phrase: 'To find her brother.' → 'find her brother'; 'wants to win' → 'win'. */
export function verbPhrase(goal: string, proper: ReadonlySet<string> = new Set()): string {
  let text = midSentence(goal, proper);
  text = text.replace(
    /^(?:(?:he|she|they|i|we)\s+)?(?:wants?|needs?|has|have|must|hopes?|tries|try|is trying)\s+to\s+/i,
    '',
  );
  text = text.replace(/^(?:must|will|should)\s+/i, '').replace(/^to\s+/i, '');
  return text;
}

const IRREGULAR_BASE: Record<string, string> = { is: 'be', has: 'have', does: 'do', goes: 'go', was: 'be' };

/** 'learns' → 'learn', 'tries' → 'try', 'watches' → 'watch', 'has' → 'have'. */
export function baseVerb(word: string): string {
  const lower = word.toLowerCase();
  if (IRREGULAR_BASE[lower]) return IRREGULAR_BASE[lower];
  if (/[^aeiou]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zzes|oes)$/.test(lower)) return lower.slice(0, -2);
  if (/[^s]s$/.test(lower) && lower.length > 3) return lower.slice(0, -1);
  return lower;
}

/** 'find' → 'finding', 'leave' → 'leaving', 'run' → 'running', 'die' → 'dying'. */
export function gerund(word: string): string {
  const lower = word.toLowerCase();
  if (lower === 'be') return 'being';
  if (lower.endsWith('ie')) return `${lower.slice(0, -2)}ying`;
  if (/[^aeiou]e$/.test(lower) && lower !== 'see') return `${lower.slice(0, -1)}ing`;
  if (/^[^aeiou]*[aeiou][^aeiouwxy]$/.test(lower)) return `${lower}${lower.at(-1)}ing`;
  return `${lower}ing`;
}

/** Applies `verb` to the first word of a verb phrase: ('find her brother', gerund) → 'finding her brother'. */
export function inflect(phrase: string, verb: (word: string) => string): string {
  const [first = '', ...rest] = phrase.split(' ');
  return [verb(first), ...rest].join(' ');
}

const SECOND: Array<[RegExp, string]> = [
  [/\b(?:himself|herself|themselves)\b/gi, 'yourself'],
  [/\b(?:his|their)\b/gi, 'your'],
  [/\bher(?=\s+\p{L})/giu, 'your'],
  [/\b(?:him|her|them)\b/gi, 'you'],
];
const FIRST: Array<[RegExp, string]> = [
  [/\b(?:himself|herself|themselves)\b/gi, 'myself'],
  [/\b(?:his|their)\b/gi, 'my'],
  [/\bher(?=\s+\p{L})/giu, 'my'],
  [/\b(?:him|her|them)\b/gi, 'me'],
];

/** A third-person phrase about the speaker ('find her brother') in first person ('find my brother'). */
export function firstPerson(phrase: string): string {
  return FIRST.reduce((text, [re, to]) => text.replace(re, to), phrase);
}

/** A third-person phrase about the listener in second person ('find her brother' → 'find your brother'). */
export function secondPerson(phrase: string): string {
  return SECOND.reduce((text, [re, to]) => text.replace(re, to), phrase);
}

/** 'a' or 'an' for a noun phrase, by its first sound. */
function article(noun: string): string {
  const word = noun.trim().toLowerCase();
  if (/^(hour|honest|honou?r|heir)/.test(word)) return 'an';
  if (/^(uni|use|usu|eu|one|once|ur)/.test(word)) return 'a';
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/** A noun phrase with 'a'/'an' unless it already has a determiner or is a proper noun. */
export function withArticle(noun: string, proper: ReadonlySet<string> = new Set()): string {
  const text = midSentence(noun, proper);
  const first = text.split(' ')[0] ?? '';
  if (FUNCTION_WORDS.has(first.toLowerCase()) || proper.has(first) || /^\p{Lu}/u.test(first)) return text;
  return `${article(text)} ${text}`;
}

/** 'Mara' → "Mara's", 'Silas' → "Silas'". */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** 'a', 'a and b', 'a, b and c'. */
export function listJoin(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A sentence: first letter capitalised, one closing mark. */
export function sentence(text: string, mark = '.'): string {
  const body = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
  if (!body) return '';
  return `${body[0]?.toUpperCase()}${body.slice(1)}${mark}`;
}
