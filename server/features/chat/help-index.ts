import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';

/** docs/help at the repository root, wherever the server is started from. */
const HELP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'help');

export interface HelpPage {
  slug: string;
  title: string;
  /** Repository path, e.g. docs/help/sequences.md. */
  path: string;
  markdown: string;
}

export interface HelpSection {
  id: string;
  slug: string;
  pageTitle: string;
  heading: string;
  text: string;
}

export interface HelpHit {
  section: HelpSection;
  score: number;
  /** Share of the question's meaningful words the section matched (0–1). */
  coverage: number;
}

export interface HelpIndex {
  pages: Map<string, HelpPage>;
  /** Sections best first; only sections that share at least one meaningful word with the query. */
  search(query: string, limit?: number): HelpHit[];
}

// Words that carry no topic: without dropping them "what is the capital of Peru" would match every page.
// Arabic questions use the same index: their function words are dropped here, and their topic words are
// mapped onto the English words of the help pages by SYNONYMS below.
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does did for from get got how i if in into is it its me my no not of on ' +
    'or our please should so some than that the their them then there these this to up us use using want was we ' +
    'what when where which who why will with would you your yours genpro studio app tell explain know help about ' +
    'more much many any need have has am ' +
    'كيف ماذا ما هل من في على عن إلى الى أن ان لي لك أنا انا أريد اريد كم مزيد المزيد هذا هذه يمكن يمكنني ممكن أستطيع استطيع'
  ).split(' '),
);

/**
 * Words that mean the same thing to a user asking for help. Each group's first word is the one the help
 * pages use; a query word from a group also searches the group's other page words (buy → top-up, purchase).
 * Arabic words are listed without the article ال, which processTerm strips.
 */
const SYNONYM_GROUPS: string[][] = [
  [
    'buy',
    'purchase',
    'top',
    'topup',
    'add',
    'package',
    'checkout',
    'pay',
    'شراء',
    'اشتري',
    'أشتري',
    'اشترى',
    'اشحن',
    'شحن',
    'ادفع',
    'دفع',
  ],
  ['credit', 'balance', 'رصيد', 'رصيدي', 'نقاط', 'نقاطي', 'كريدت', 'ائتمان'],
  ['cost', 'price', 'pricing', 'expensive', 'cheap', 'fee', 'سعر', 'أسعار', 'اسعار', 'تكلفة', 'كلفة', 'تكلف'],
  ['image', 'picture', 'photo', 'صورة', 'صور', 'الصور'],
  ['video', 'clip', 'فيديو', 'فيديوهات', 'مقطع'],
  ['music', 'song', 'audio', 'موسيقى', 'أغنية', 'صوت'],
  ['persona', 'avatar', 'شخصية', 'شخصيات'],
  ['campaign', 'حملة', 'حملات'],
  ['publish', 'post', 'schedule', 'نشر', 'انشر', 'أنشر', 'جدولة'],
  ['password', 'كلمة', 'مرور', 'السر'],
  ['subscription', 'plan', 'cancel', 'اشتراك', 'الاشتراك'],
  ['refund', 'refunded', 'استرداد', 'استرجاع'],
  ['upscale', 'enhance', 'sharpen', 'تحسين', 'تكبير'],
  ['generate', 'create', 'make', 'إنشاء', 'انشاء', 'أنشئ', 'انشئ', 'توليد', 'اصنع', 'أصنع'],
];

/** Lower case, Arabic article and conjunction off, stop words out, and a small suffix stemmer (compile / compiling / compiled meet). */
function processTerm(term: string): string | null {
  let word = term.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (/\p{Script=Arabic}/u.test(word)) {
    if (!word || STOP_WORDS.has(word)) return null;
    for (const prefix of ['وال', 'بال', 'لل', 'ال', 'و']) {
      if (word.startsWith(prefix) && word.length - prefix.length >= 3) {
        word = word.slice(prefix.length);
        break;
      }
    }
    return STOP_WORDS.has(word) ? null : word;
  }
  if (!word || STOP_WORDS.has(word)) return null;
  if (word.endsWith('ies') && word.length >= 5) return `${word.slice(0, -3)}y`;
  for (const [suffix, minStem] of [
    ['ing', 3],
    ['ed', 4],
    ['es', 4],
    ['s', 4],
    ['e', 4],
  ] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= minStem) return word.slice(0, -suffix.length);
  }
  return word;
}

/** Every processed term → the processed terms of its synonym group (itself included). */
const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  const terms = [...new Set(group.map((word) => processTerm(word)).filter((t): t is string => Boolean(t)))];
  for (const term of terms) SYNONYMS.set(term, [...new Set([...(SYNONYMS.get(term) ?? []), ...terms])]);
}

/** The question's meaningful terms, each with the words that count as a match for it. */
export function queryTerms(query: string): Array<{ term: string; matches: string[] }> {
  const terms = new Set(
    query
      .split(/[\s\p{P}]+/u)
      .map((word) => processTerm(word))
      .filter((t): t is string => Boolean(t)),
  );
  return [...terms].map((term) => ({ term, matches: SYNONYMS.get(term) ?? [term] }));
}

/** Splits a page into its intro and `##` sections; list items and paragraphs keep their line breaks. */
export function parseHelpPage(slug: string, markdown: string): { page: HelpPage; sections: HelpSection[] } {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const titleLine = lines.find((line) => line.startsWith('# '));
  const title = titleLine ? titleLine.slice(2).trim() : slug;
  const sections: HelpSection[] = [];
  let heading = title;
  let body: string[] = [];
  const flush = () => {
    const text = body.join('\n').trim();
    if (text) sections.push({ id: `${slug}#${sections.length}`, slug, pageTitle: title, heading, text });
    body = [];
  };
  for (const line of lines) {
    if (line === titleLine) continue;
    const match = /^#{2,4}\s+(.*)$/.exec(line);
    if (match) {
      flush();
      heading = match[1]?.trim() ?? heading;
    } else {
      body.push(line);
    }
  }
  flush();
  return { page: { slug, title, path: `docs/help/${slug}.md`, markdown }, sections };
}

export function buildHelpIndex(files: Array<{ slug: string; markdown: string }>): HelpIndex {
  const pages = new Map<string, HelpPage>();
  const all: HelpSection[] = [];
  for (const file of files) {
    const { page, sections } = parseHelpPage(file.slug, file.markdown);
    pages.set(page.slug, page);
    all.push(...sections);
  }
  const mini = new MiniSearch<HelpSection>({
    fields: ['pageTitle', 'heading', 'text'],
    storeFields: ['id'],
    processTerm,
  });
  mini.addAll(all);
  const byId = new Map(all.map((section) => [section.id, section]));

  return {
    pages,
    search(query, limit = 5) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      // Each question word and its synonyms; MiniSearch ORs them and ranks by BM25 with headings weighted.
      const words = [...new Set(terms.flatMap((t) => t.matches))];
      return mini
        .search(words.join(' '), {
          boost: { pageTitle: 2, heading: 3 },
          // The words are processed already (stemming twice would turn purchas into purcha).
          processTerm: (term) => term,
          prefix: (term) => term.length >= 5,
          fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
        })
        .slice(0, limit)
        .flatMap((result) => {
          const section = byId.get(String(result.id));
          if (!section) return [];
          const found = new Set(result.queryTerms);
          const matched = terms.filter((t) => t.matches.some((m) => found.has(m))).length;
          return [{ section, score: result.score, coverage: matched / terms.length }];
        });
    },
  };
}

let loaded: Promise<HelpIndex> | null = null;

/** The index of docs/help, read once per process. */
export function helpIndex(): Promise<HelpIndex> {
  loaded ??= (async () => {
    const names = (await readdir(HELP_DIR)).filter((name) => name.endsWith('.md')).sort();
    const files = await Promise.all(
      names.map(async (name) => ({
        slug: name.slice(0, -3),
        markdown: await readFile(path.join(HELP_DIR, name), 'utf8'),
      })),
    );
    return buildHelpIndex(files);
  })().catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}
