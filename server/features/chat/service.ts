import { desc, eq } from 'drizzle-orm';
import type { ChatInput, ChatReply, ChatSource, ChatTurn } from '../../../common/api/chat.ts';
import { CHAT_HISTORY_LIMIT } from '../../../common/api/chat.ts';
import type { AppContext } from '../../context.ts';
import { tasks, users } from '../../db/schema/index.ts';
import type { CompleteTextRequest, TextEngine } from '../../engines/types.ts';
import { type HelpHit, type HelpIndex, type HelpLanguage, helpIndex, queryTerms } from './help-index.ts';
import { type LivePrices, livePrices, priceTokensOf } from './prices.ts';

/** A section answers the question when it matched at least half of its meaningful words. */
const MIN_COVERAGE = 0.5;
/** Quotes stay readable in a chat bubble. */
const QUOTE_MAX_CHARS = 900;

function helpUrl(slug: string, lang: HelpLanguage = 'en'): string {
  return lang === 'ar' ? `/api/help/${slug}?lang=ar` : `/api/help/${slug}`;
}

function sourceOf(index: HelpIndex, slug: string): ChatSource {
  const page = index.pages.get(slug);
  const lang = page?.path.startsWith('docs/help/ar/') ? 'ar' : 'en';
  return { title: page?.title ?? slug, path: page?.path ?? `docs/help/${slug}.md`, url: helpUrl(slug, lang) };
}

/** Both languages' help: an Arabic question is answered from the Arabic pages when one answers it. */
interface HelpIndexes {
  en: HelpIndex;
  ar: HelpIndex;
}

async function helpIndexes(): Promise<HelpIndexes> {
  const [en, ar] = await Promise.all([helpIndex('en'), helpIndex('ar')]);
  return { en, ar };
}

/** The index that answers: the asker's language when its pages cover the question, English (the full help) otherwise. */
function searchHelp(
  indexes: HelpIndexes,
  lang: Lang,
  text: string,
  limit: number,
): { index: HelpIndex; hits: HelpHit[]; translated: boolean } {
  const en = indexes.en.search(text, limit);
  if (lang === 'ar') {
    // The Arabic pages cover the main tasks; they answer when they cover the question as well as the English ones.
    const ar = indexes.ar.search(text, limit);
    const best = (hits: HelpHit[]) => Math.max(0, ...hits.map((hit) => hit.coverage));
    if (best(ar) >= MIN_COVERAGE && best(ar) >= best(en)) return { index: indexes.ar, hits: ar, translated: true };
  }
  return { index: indexes.en, hits: en, translated: lang === 'en' };
}

function uniqueSlugs(hits: HelpHit[], max: number): string[] {
  return [...new Set(hits.map((hit) => hit.section.slug))].slice(0, max);
}

/** Whole paragraphs / list items up to the limit, so a quote never stops mid-sentence. */
function quoteOf(text: string): string {
  const blocks = text.split(/\n{2,}/).map((block) => block.trim());
  const kept: string[] = [];
  let length = 0;
  for (const block of blocks) {
    if (!block) continue;
    if (kept.length > 0 && length + block.length > QUOTE_MAX_CHARS) break;
    kept.push(block);
    length += block.length;
  }
  return kept
    .join('\n\n')
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

const DEFAULT_SUGGESTIONS = ['getting-started', 'image-video-audio'];
/** Sections that join the best one must score at least this share of it (other pages: MERGE_OTHER_PAGE). */
const MERGE_SAME_PAGE = 0.5;
const MERGE_OTHER_PAGE = 0.8;
const MERGE_MAX = 3;

type Lang = 'en' | 'ar';

/** Arabic when the question is written in Arabic script; English otherwise (the help pages' language). */
function languageOf(message: string): Lang {
  return /\p{Script=Arabic}/u.test(message) ? 'ar' : 'en';
}

/** What the local assistant says around the help quotes, in each language it answers in. */
const PHRASES = {
  en: {
    greeting:
      "Hello! I'm the GenPro assistant. I answer from the GenPro help pages: generating images, video and music, " +
      'credits and buying more, personas, campaigns, publishing and your account. ' +
      'Try “How do I buy more credits?” or “How do I compile a master video?”.',
    dontKnow: "I don't know — the GenPro help pages do not cover that, and I only answer from them.",
    closest: (names: string) => ` The closest help pages are ${names}.`,
    balance: (credits: number) => `You have ${credits} credits.`,
    noTasks: 'You have no tasks yet.',
    recentTasks: 'Your recent tasks (newest first):',
    signIn: 'Sign in to see your own credits and recent tasks.',
    thanks: "You're welcome! Ask me anything else about GenPro Studio.",
    fromHelp: '',
  },
  ar: {
    greeting:
      'مرحباً! أنا مساعد GenPro. أجيب من صفحات مساعدة GenPro: إنشاء الصور والفيديو والموسيقى، ' +
      'الرصيد وشراء المزيد منه، الشخصيات، الحملات، النشر وحسابك. ' +
      'جرّب أن تسأل: «كيف أشتري المزيد من الرصيد؟» أو «كيف أنشر فيديو؟».',
    dontKnow: 'لا أعرف — صفحات مساعدة GenPro لا تغطي هذا السؤال، وأنا أجيب منها فقط.',
    closest: (names: string) => ` أقرب صفحات المساعدة: ${names}.`,
    balance: (credits: number) => `رصيدك الحالي: ${credits} رصيد.`,
    noTasks: 'لا توجد لديك مهام بعد.',
    recentTasks: 'آخر مهامك (الأحدث أولاً):',
    signIn: 'سجّل الدخول لأعرض لك رصيدك ومهامك الأخيرة.',
    thanks: 'عفواً! اسألني عن أي شيء آخر في GenPro Studio.',
    fromHelp: 'هذا ما تقوله صفحة المساعدة (صفحات المساعدة مكتوبة بالإنجليزية):',
  },
} satisfies Record<Lang, unknown>;

// A message made only of these words (and punctuation) is a greeting, not a question.
const GREETING_CORE = new Set(
  'hi hello hey hiya howdy greetings morning afternoon evening yo salam salaam marhaba مرحبا مرحباً اهلا أهلا هلا سلام السلام صباح مساء'.split(
    ' ',
  ),
);
const GREETING_FILLER = new Set(
  'there good day genpro assistant everyone all how are you doing عليكم الخير النور وسهلا بك'.split(' '),
);

const THANKS_CORE = new Set('thanks thank thx cheers شكرا شكراً'.split(' '));
const THANKS_FILLER = new Set('you so much a lot very many genpro جزيلا جزيلاً'.split(' '));

/** A message made only of `core` and `filler` words, with at least one `core` word. */
function onlyWords(message: string, core: Set<string>, filler: Set<string>): boolean {
  const words = message
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.some((word) => core.has(word)) && words.every((word) => core.has(word) || filler.has(word));
}

const isGreeting = (message: string) => onlyWords(message, GREETING_CORE, GREETING_FILLER);
const isThanks = (message: string) => onlyWords(message, THANKS_CORE, THANKS_FILLER);

/** Questions about the asker's own account, answered from their data when signed in. */
const ASKS_BALANCE = [
  /\bhow (many|much) credits?\b/i,
  /\bmy (credits?|balance|credit balance)\b/i,
  /\bcredits? (do|have) i\b/i,
  /\bbalance\b/i,
  /رصيدي|كم رصيد|كم الرصيد|نقاطي|كم نقطة/u,
];
const ASKS_TASKS = [
  /\bmy\b.*\b(tasks?|generations?|jobs?|renders?)\b/i,
  /\b(recent|last|latest) (tasks?|generations?|jobs?)\b/i,
  /\bwhy did my\b/i,
  /مهامي|مهمتي|آخر المهام|طلباتي/u,
];

interface Account {
  credits: number;
  recent: Array<{ kind: string; status: string; createdAt: Date; error: { message?: string } | null }>;
}

function accountLines(account: Account, lang: Lang, wants: { balance: boolean; tasks: boolean }): string[] {
  const say = PHRASES[lang];
  const lines: string[] = [];
  if (wants.balance) lines.push(say.balance(account.credits));
  if (wants.tasks) {
    if (account.recent.length === 0) lines.push(say.noTasks);
    else {
      lines.push(
        [
          say.recentTasks,
          ...account.recent.map((task) => {
            const failure = task.error?.message ? ` — ${task.error.message}` : '';
            return `- ${task.kind}: ${task.status} (${task.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)${failure}`;
          }),
        ].join('\n'),
      );
    }
  }
  return lines;
}

// A question that leans on the one before it: "and how much does it cost?", "what about Seedance?", "و كم سعره؟".
const FOLLOW_UP_START = /^\s*(and|but|also|so|then|what about|how about|و|وماذا|ماذا عن|وكم|وهل)(\s|$|[,?؟])/iu;
const FOLLOW_UP_WORDS =
  /\b(it|its|it's|that|this|those|these|they|them|one|ones|there)\b|(ذلك|هذا|هذه|تلك|سعره|سعرها|تكلفته|تكلفتها)/iu;
/** A question with at most this many topic words is read with the one before it. */
const FOLLOW_UP_MAX_TERMS = 2;
/** How many earlier questions a chain of follow-ups reaches back to. */
const FOLLOW_UP_REACH = 2;

function isFollowUp(message: string): boolean {
  return (
    FOLLOW_UP_START.test(message) ||
    (FOLLOW_UP_WORDS.test(message) && queryTerms(message).length <= FOLLOW_UP_MAX_TERMS)
  );
}

/**
 * What to search the help pages for: the question, and when it is a follow-up, the earlier questions it leans on
 * (back to the last one that stood on its own), so "and how much does it cost?" after a video question is about video.
 */
function searchTextOf(message: string, history: readonly ChatTurn[]): string {
  if (!isFollowUp(message)) return message;
  const earlier: string[] = [];
  const asked = history.filter((turn) => turn.role === 'user').map((turn) => turn.content);
  for (let i = asked.length - 1; i >= 0 && earlier.length < FOLLOW_UP_REACH; i -= 1) {
    const question = asked[i] ?? '';
    earlier.unshift(question);
    if (!isFollowUp(question)) break;
  }
  return [...earlier, message].join('\n');
}

/**
 * The embedded assistant: greets and guides; quotes the help sections that answer the question (the best
 * one and the nearly-as-good ones, merged); adds the asker's own credits and recent tasks when signed in;
 * frames the answer in Arabic when asked in Arabic; says it does not know otherwise.
 */
function localAnswer(
  indexes: HelpIndexes,
  input: ChatInput,
  account: Account | null,
  prices: LivePrices,
): { response: string; sources: ChatSource[] } {
  const { message } = input;
  const lang = languageOf(message);
  const say = PHRASES[lang];
  if (isGreeting(message)) {
    const extra = account ? ` ${say.balance(account.credits)}` : '';
    return { response: say.greeting + extra, sources: [] };
  }
  if (isThanks(message)) return { response: say.thanks, sources: [] };
  const wants = {
    balance: ASKS_BALANCE.some((re) => re.test(message)),
    tasks: ASKS_TASKS.some((re) => re.test(message)),
  };
  const personal: string[] = [];
  if (wants.balance || wants.tasks) {
    if (account) personal.push(...accountLines(account, lang, wants));
    else personal.push(say.signIn);
  }

  const { index, hits, translated } = searchHelp(indexes, lang, searchTextOf(message, input.conversationHistory), 8);
  const answering = hits.filter((hit) => hit.coverage >= MIN_COVERAGE);
  const best = answering[0];
  if (!best) {
    if (account && personal.length > 0) return { response: personal.join('\n\n'), sources: [] };
    const closest = uniqueSlugs(hits, 3);
    const suggestions = (closest.length > 0 ? closest : DEFAULT_SUGGESTIONS).filter((slug) => index.pages.has(slug));
    const names = suggestions.map((slug) => `“${sourceOf(index, slug).title}”`).join(', ');
    return {
      response: [...personal, say.dontKnow + (names ? say.closest(names) : '')].join('\n\n'),
      sources: [],
    };
  }
  // Nearly-as-good sections join the best one: from its page generously, from other pages only when close.
  const merged = [best];
  for (const hit of answering) {
    if (merged.length >= MERGE_MAX) break;
    if (hit === best) continue;
    const share = hit.section.slug === best.section.slug ? MERGE_SAME_PAGE : MERGE_OTHER_PAGE;
    if (hit.score >= best.score * share) merged.push(hit);
  }
  // The pages are named once, by `sources` (shown as their titles with links), never in the text or as file paths.
  const parts = [...personal];
  // An Arabic question answered from the English pages says so; from the Arabic pages it needs no note.
  if (say.fromHelp && !translated) parts.push(say.fromHelp);
  for (const hit of merged) parts.push(`${hit.section.heading}:`, quoteOf(prices.render(hit.section.text)));
  const note = prices.engineNote(
    merged.flatMap((hit) => priceTokensOf(hit.section.text)),
    lang,
  );
  if (note) parts.push(note);
  return { response: parts.join('\n\n'), sources: uniqueSlugs(merged, MERGE_MAX).map((slug) => sourceOf(index, slug)) };
}

export function isLocalText(engine: TextEngine): boolean {
  return engine.name === 'local';
}

/** The asker's credits and five newest tasks. */
async function accountOf(ctx: AppContext, userId: string): Promise<Account> {
  const [user] = await ctx.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)).limit(1);
  const recent = await ctx.db
    .select({ kind: tasks.kind, status: tasks.status, createdAt: tasks.createdAt, error: tasks.error })
    .from(tasks)
    .where(eq(tasks.userId, userId))
    .orderBy(desc(tasks.createdAt))
    .limit(5);
  return { credits: user?.credits ?? 0, recent };
}

function userContext(account: Account | null): string {
  if (!account) return 'Not signed in: no account data. Ask the user to sign in for questions about their own account.';
  const lines = [`Credits: ${account.credits}`];
  if (account.recent.length === 0) lines.push('Recent tasks: none');
  else {
    lines.push('Recent tasks (newest first):');
    for (const task of account.recent) {
      const failure = task.error?.message ? ` — ${task.error.message}` : '';
      lines.push(`- ${task.kind}: ${task.status} (${task.createdAt.toISOString()})${failure}`);
    }
  }
  return lines.join('\n');
}

const SYSTEM_PROMPT = [
  'You are the GenPro Studio assistant. Answer questions about using GenPro Studio.',
  'Ground every answer in the help excerpts and the user context given below. The help pages used are shown under',
  'your answer as links, so do not cite page names or file paths yourself.',
  'If the excerpts do not answer the question, say plainly that you do not know and suggest the closest help page.',
  'Never invent features, prices, limits or facts. Be concise.',
  'A follow-up question refers to the conversation so far: answer it about the subject being discussed.',
  'Answer in the language of the question (an Arabic question gets an Arabic answer).',
  'When the user only greets you, greet back and say briefly what you can help with.',
].join(' ');

/** The request for an LLM text engine: the top help sections and the user's own credits and tasks. */
export async function llmRequest(
  ctx: AppContext,
  userId: string | null,
  input: ChatInput,
): Promise<{ request: CompleteTextRequest; sources: ChatSource[] }> {
  const prices = livePrices(ctx);
  const { index, hits } = searchHelp(
    await helpIndexes(),
    languageOf(input.message),
    searchTextOf(input.message, input.conversationHistory),
    4,
  );
  const sources = uniqueSlugs(hits, 3).map((slug) => sourceOf(index, slug));
  const excerpts =
    hits.length === 0
      ? 'No help section matched the question.'
      : hits
          .map((hit) => `[${hit.section.pageTitle} — ${hit.section.heading}]\n${prices.render(hit.section.text)}`)
          .join('\n\n---\n\n');
  const priceNote = prices.engineNote(
    hits.flatMap((hit) => priceTokensOf(hit.section.text)),
    'en',
  );
  const history = input.conversationHistory
    .slice(-CHAT_HISTORY_LIMIT)
    .map((turn: ChatTurn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.content}`)
    .join('\n');
  const prompt = [
    `Help excerpts:\n${excerpts}`,
    priceNote ? `${priceNote} Quote these prices exactly and name the engine.` : '',
    `User context:\n${userContext(userId ? await accountOf(ctx, userId) : null)}`,
    history ? `Conversation so far:\n${history}` : '',
    `Question: ${input.message}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { request: { purpose: 'chat', system: SYSTEM_PROMPT, prompt }, sources };
}

/** JSON answer: the local assistant, or the configured LLM in one piece. Signed out (userId null): help only. */
export async function answerChat(ctx: AppContext, userId: string | null, input: ChatInput): Promise<ChatReply> {
  const { engine } = ctx.engines.text();
  if (isLocalText(engine)) {
    const account = userId ? await accountOf(ctx, userId) : null;
    const local = localAnswer(await helpIndexes(), input, account, livePrices(ctx));
    return { success: true, ...local };
  }
  const { request, sources } = await llmRequest(ctx, userId, input);
  const result = await engine.complete(request);
  return { success: true, response: result.text.trim(), sources };
}
