import { ContentFilteredError } from './types.ts';

// The content policy every engine call passes through (the registry wraps each engine so no caller
// can skip it). Local engines refuse what real vendors refuse, so the product's content-filtered path
// is exercised end to end. The list is short on purpose and documented in docs/engines.md.

export interface PolicyRule {
  /** Stable identifier reported in ContentFilteredError.reasons. */
  id: string;
  /** Category shown to people in docs: what kind of content the rule refuses. */
  category: 'sexual-minors' | 'sexual-explicit' | 'gore' | 'deepfake' | 'mass-harm';
  /** Why it is refused, in plain words. */
  description: string;
  /** Terms matched as whole words (case-insensitive, after obfuscation is normalised). */
  terms: readonly string[];
  /**
   * When set, the rule fires only if a term of this list also appears (e.g. 'nude' alone is art,
   * 'nude' with 'child' is not).
   */
  requiresAlso?: readonly string[];
}

/** The refused terms, by rule. Exported so tests and docs use the same list. */
export const CONTENT_POLICY: readonly PolicyRule[] = [
  {
    id: 'csam',
    category: 'sexual-minors',
    description: 'Sexual content involving minors.',
    terms: ['child porn', 'childporn', 'cp porn', 'loli', 'lolicon', 'shotacon', 'jailbait', 'underage sex', 'pedo'],
  },
  {
    id: 'sexual-minor-combination',
    category: 'sexual-minors',
    description: 'Nudity or sex terms together with a word for a child.',
    terms: ['nude', 'naked', 'sex', 'sexual', 'porn', 'erotic', 'nsfw', 'topless'],
    requiresAlso: [
      'child',
      'children',
      'kid',
      'kids',
      'minor',
      'minors',
      'underage',
      'toddler',
      'preteen',
      'schoolgirl',
    ],
  },
  {
    id: 'explicit-sex',
    category: 'sexual-explicit',
    description: 'Explicit pornographic content.',
    terms: ['porn', 'pornographic', 'hardcore sex', 'xxx', 'hentai'],
  },
  {
    id: 'gore',
    category: 'gore',
    description: 'Graphic gore and mutilation.',
    terms: ['gore', 'gory', 'dismembered', 'dismemberment', 'decapitated', 'decapitation', 'disembowel', 'mutilated'],
  },
  {
    id: 'deepfake',
    category: 'deepfake',
    description: 'Deceptive depictions of real people (deepfakes, fake nudes of someone).',
    terms: ['deepfake', 'deep fake', 'face swap onto', 'fake nude', 'fake nudes', 'undress her', 'undress him'],
  },
  {
    id: 'mass-harm',
    category: 'mass-harm',
    description: 'Instructions or imagery for weapons of mass harm.',
    terms: [
      'bioweapon',
      'nerve agent',
      'sarin',
      'anthrax spores',
      'dirty bomb',
      'pipe bomb',
      'make a bomb',
      'nuclear bomb recipe',
    ],
  },
];

/** Leet/symbol substitutions undone before matching: p0rn, s3x, g0re, l0li, n@ked, $ex. */
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '!': 'i',
};

/** Lower-cases, undoes leet inside words, turns every other non-letter into a space. */
function normalise(text: string): string {
  const lower = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  let out = '';
  for (let i = 0; i < lower.length; i++) {
    const ch = lower[i];
    const sub = LEET[ch];
    // a digit/symbol counts as a letter only when it touches a letter (so "3 cats" stays "3 cats")
    if (sub && (/[a-z]/.test(lower[i - 1] ?? '') || /[a-z]/.test(lower[i + 1] ?? ''))) out += sub;
    else if (/[a-z0-9]/.test(ch)) out += ch;
    else out += ' ';
  }
  return ` ${out.replace(/\s+/g, ' ').trim()} `;
}

/**
 * Runs of single letters separated by one space ("p o r n", "p.o.r.n", "d-e-e-p-f-a-k-e" once
 * normalised), joined: "porn", "deepfake". Terms are looked for inside these runs, so a neighbouring
 * one-letter word ("a d e e p…") does not hide them. Normal words never form such runs.
 */
function spacedLetterRuns(normalised: string): string[] {
  return (normalised.match(/(?:\b[a-z0-9] ){2,}[a-z0-9]\b/g) ?? []).map((run) => run.replace(/ /g, ''));
}

function termPattern(term: string): RegExp {
  const words = term.split(/\s+/).map((w) => w.replace(/[^a-z0-9]/g, ''));
  return new RegExp(`(?:^| )${words.join(' ')}(?= |$)`);
}

const COMPILED = CONTENT_POLICY.map((rule) => ({
  rule,
  terms: rule.terms.map((t) => ({ term: t, re: termPattern(t), joined: t.replace(/[^a-z0-9]/g, '') })),
  also: rule.requiresAlso?.map((t) => ({ re: termPattern(t), joined: t.replace(/[^a-z0-9]/g, '') })),
}));

export interface PolicyFinding {
  rule: string;
  category: PolicyRule['category'];
  term: string;
}

/** Every rule the text breaks (empty when it is fine). */
export function findPolicyViolations(text: string): PolicyFinding[] {
  if (!text) return [];
  const base = normalise(text);
  const runs = spacedLetterRuns(base.trim());
  const present = (t: { re: RegExp; joined: string }) => t.re.test(base) || runs.some((r) => r.includes(t.joined));
  const findings: PolicyFinding[] = [];
  for (const { rule, terms, also } of COMPILED) {
    const hit = terms.find(present);
    if (!hit) continue;
    if (also && !also.some(present)) continue;
    findings.push({ rule: rule.id, category: rule.category, term: hit.term });
  }
  return findings;
}

/** Throws ContentFilteredError (422 content_filtered) naming the broken rules. */
export function checkContentPolicy(...texts: Array<string | undefined | null>): void {
  const findings = texts.flatMap((t) => (t ? findPolicyViolations(t) : []));
  if (findings.length === 0) return;
  const reasons = [...new Set(findings.map((f) => `${f.category}: ${f.rule}`))];
  throw new ContentFilteredError('The request was blocked by the content policy.', reasons);
}
