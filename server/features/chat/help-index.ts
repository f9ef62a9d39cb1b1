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
  ['persona', 'avatar', 'شخصية', 'شخصيات', 'بيرسونا'],
  ['approval', 'approve', 'approved', 'review', 'موافقة', 'اعتماد', 'قبول', 'مراجعة', 'يوافق', 'معتمد'],
  ['creator', 'صانع', 'صناع', 'منشئ'],
  ['factor', 'authentication', '2fa', 'authenticator', 'totp', 'المصادقة', 'الثنائية', 'بخطوتين', 'التحقق'],
  ['payout', 'withdraw', 'earnings', 'سحب', 'أرباح', 'أرباحي', 'تحويل'],
  ['canvas', 'لوحة', 'كانفس'],
  ['compile', 'export', 'merge', 'تجميع', 'أجمع', 'اجمع', 'دمج', 'تصدير'],
  ['tool', 'toolbar', 'أدوات', 'أداة'],
  ['campaign', 'حملة', 'حملات'],
  ['publish', 'post', 'schedule', 'نشر', 'انشر', 'أنشر', 'منشور'],
  ['schedule', 'later', 'calendar', 'جدولة', 'أجدول', 'اجدول', 'موعد', 'لاحقا'],
  ['password', 'كلمة', 'مرور', 'السر'],
  ['subscription', 'plan', 'cancel', 'اشتراك', 'الاشتراك'],
  ['refund', 'refunded', 'استرداد', 'استرجاع'],
  ['upscale', 'enhance', 'sharpen', 'تحسين', 'تكبير'],
  ['generate', 'create', 'make', 'إنشاء', 'انشاء', 'أنشئ', 'انشئ', 'توليد', 'اصنع', 'أصنع'],
];

/**
 * An Arabic word in one spelling: no diacritics or tatweel, every alef form as ا, taa marbuta as ه,
 * alef maqsura as ي (users type these either way).
 */
export function normaliseArabic(word: string): string {
  return word
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي');
}

// Clitics written onto Arabic words: the article with its prepositions and conjunctions, then single
// letters (و ب ل ف ك) and pronoun / plural endings. A single letter comes off only from a long word, so
// بريد (mail) keeps its ب.
const AR_PREFIXES = ['وبال', 'وال', 'بال', 'فال', 'كال', 'لل', 'ال'];
const AR_LETTER_PREFIXES = ['و', 'ب', 'ل', 'ف', 'ك'];
const AR_VERB_PREFIXES = ['ا', 'ت', 'ي', 'ن'];
const AR_SUFFIXES = ['هما', 'كما', 'ات', 'ون', 'ين', 'ان', 'ها', 'هم', 'كم', 'نا', 'ني', 'يه', 'ه', 'ي', 'ك'];

/** An Arabic word's stem: normalised, clitics off (one prefix group, one ending), at least 3 letters left. */
export function arabicStem(word: string): string {
  let stem = normaliseArabic(word);
  const article = AR_PREFIXES.find((p) => stem.startsWith(p) && stem.length - p.length >= 2);
  if (article) stem = stem.slice(article.length);
  else {
    const letter = AR_LETTER_PREFIXES.find((p) => stem.startsWith(p) && stem.length - p.length >= 4);
    if (letter) stem = stem.slice(1);
    const again = AR_PREFIXES.find((p) => stem.startsWith(p) && stem.length - p.length >= 2);
    if (again) stem = stem.slice(again.length);
    // A present-tense verb of a three-letter root (أمزج, تمزج, يمزج: blend) meets its root (مزج).
    else if (stem.length === 4 && AR_VERB_PREFIXES.includes(stem[0] ?? '')) stem = stem.slice(1);
  }
  const suffix = AR_SUFFIXES.find((x) => stem.endsWith(x) && stem.length - x.length >= 3);
  if (suffix) stem = stem.slice(0, -suffix.length);
  return stem;
}

const AR_STOP = new Set([...STOP_WORDS].filter((w) => /\p{Script=Arabic}/u.test(w)).map(normaliseArabic));

/** Lower case, Arabic words stemmed (arabicStem), stop words out, and a small English suffix stemmer (compile / compiling / compiled meet). */
function processTerm(term: string): string | null {
  const word = term.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (/\p{Script=Arabic}/u.test(word)) {
    if (!word || AR_STOP.has(normaliseArabic(word))) return null;
    const stem = arabicStem(word);
    return AR_STOP.has(stem) ? null : stem;
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
export function parseHelpPage(
  slug: string,
  markdown: string,
  lang: HelpLanguage = 'en',
): { page: HelpPage; sections: HelpSection[] } {
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
  const file = lang === 'ar' ? `docs/help/ar/${slug}.md` : `docs/help/${slug}.md`;
  return { page: { slug, title, path: file, markdown }, sections };
}

export function buildHelpIndex(files: Array<{ slug: string; markdown: string }>, lang: HelpLanguage = 'en'): HelpIndex {
  const pages = new Map<string, HelpPage>();
  const all: HelpSection[] = [];
  for (const file of files) {
    const { page, sections } = parseHelpPage(file.slug, file.markdown, lang);
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

export type HelpLanguage = 'en' | 'ar';

const loaded = new Map<HelpLanguage, Promise<HelpIndex>>();

/**
 * The index of docs/help (English) or docs/help/ar (Arabic: the main tasks' pages, same slugs as their
 * English pages), read once per process.
 */
export function helpIndex(lang: HelpLanguage = 'en'): Promise<HelpIndex> {
  const dir = lang === 'ar' ? path.join(HELP_DIR, 'ar') : HELP_DIR;
  let index = loaded.get(lang);
  if (!index) {
    index = (async () => {
      const names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
      const files = await Promise.all(
        names.map(async (name) => ({
          slug: name.slice(0, -3),
          markdown: await readFile(path.join(dir, name), 'utf8'),
        })),
      );
      return buildHelpIndex(files, lang);
    })().catch((error: unknown) => {
      loaded.delete(lang);
      throw error;
    });
    loaded.set(lang, index);
  }
  return index;
}
