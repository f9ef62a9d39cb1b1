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
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does did for from get got how i if in into is it its me my no not of on ' +
    'or our please should so some than that the their them then there these this to up us use using want was we ' +
    'what when where which who why will with would you your yours genpro studio app tell explain know help about'
  ).split(' '),
);

/** Lower case, stop words out, and a small suffix stemmer so compile / compiling / compiled meet. */
function processTerm(term: string): string | null {
  const word = term.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (!word || STOP_WORDS.has(word)) return null;
  for (const suffix of ['ing', 'ed', 'es', 's', 'e']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
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
      const terms = new Set(
        query
          .split(/[\s\p{P}]+/u)
          .map((word) => processTerm(word))
          .filter((t): t is string => Boolean(t)),
      );
      if (terms.size === 0) return [];
      return mini
        .search(query, {
          boost: { pageTitle: 2, heading: 2.5 },
          prefix: (term) => term.length >= 5,
          fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
        })
        .slice(0, limit)
        .flatMap((result) => {
          const section = byId.get(String(result.id));
          if (!section) return [];
          const matched = new Set(result.queryTerms.filter((t) => terms.has(t)));
          return [{ section, score: result.score, coverage: matched.size / terms.size }];
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
