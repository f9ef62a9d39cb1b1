import { desc, eq } from 'drizzle-orm';
import type { ChatInput, ChatReply, ChatSource, ChatTurn } from '../../../common/api/chat.ts';
import { CHAT_HISTORY_LIMIT } from '../../../common/api/chat.ts';
import type { AppContext } from '../../context.ts';
import { tasks, users } from '../../db/schema/index.ts';
import type { CompleteTextRequest, TextEngine } from '../../engines/types.ts';
import { type HelpHit, type HelpIndex, helpIndex } from './help-index.ts';

/** A section answers the question when it matched at least half of its meaningful words. */
const MIN_COVERAGE = 0.5;
/** Quotes stay readable in a chat bubble. */
const QUOTE_MAX_CHARS = 900;

function helpUrl(slug: string): string {
  return `/api/help/${slug}`;
}

function sourceOf(index: HelpIndex, slug: string): ChatSource {
  const page = index.pages.get(slug);
  return { title: page?.title ?? slug, path: page?.path ?? `docs/help/${slug}.md`, url: helpUrl(slug) };
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

/** The embedded assistant: quotes the help section(s) that answer the question, or says it does not know. */
function localAnswer(index: HelpIndex, message: string): { response: string; sources: ChatSource[] } {
  const hits = index.search(message, 8);
  const answering = hits.filter((hit) => hit.coverage >= MIN_COVERAGE);
  const best = answering[0];
  if (!best) {
    const closest = uniqueSlugs(hits, 3);
    const suggestions = (closest.length > 0 ? closest : DEFAULT_SUGGESTIONS).filter((slug) => index.pages.has(slug));
    const names = suggestions.map((slug) => `“${sourceOf(index, slug).title}”`).join(', ');
    return {
      response:
        "I don't know — the GenPro help pages do not cover that, and I only answer from them." +
        (names ? ` The closest help pages are ${names}.` : ''),
      sources: [],
    };
  }
  // A second section joins the answer when it is from the same page and nearly as good.
  const second = answering.find(
    (hit) => hit !== best && hit.section.slug === best.section.slug && hit.score >= best.score * 0.75,
  );
  // The page is named once, by `sources` (shown as its title with a link), never in the text or as a file path.
  const page = sourceOf(index, best.section.slug);
  const parts = [`${best.section.heading}:`, quoteOf(best.section.text)];
  if (second) parts.push(`${second.section.heading}:`, quoteOf(second.section.text));
  return { response: parts.join('\n\n'), sources: [page] };
}

export function isLocalText(engine: TextEngine): boolean {
  return engine.name === 'local';
}

async function userContext(ctx: AppContext, userId: string): Promise<string> {
  const [user] = await ctx.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)).limit(1);
  const recent = await ctx.db
    .select({ kind: tasks.kind, status: tasks.status, createdAt: tasks.createdAt, error: tasks.error })
    .from(tasks)
    .where(eq(tasks.userId, userId))
    .orderBy(desc(tasks.createdAt))
    .limit(5);
  const lines = [`Credits: ${user?.credits ?? 0}`];
  if (recent.length === 0) lines.push('Recent tasks: none');
  else {
    lines.push('Recent tasks (newest first):');
    for (const task of recent) {
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
].join(' ');

/** The request for an LLM text engine: the top help sections and the user's own credits and tasks. */
export async function llmRequest(
  ctx: AppContext,
  userId: string,
  input: ChatInput,
): Promise<{ request: CompleteTextRequest; sources: ChatSource[] }> {
  const index = await helpIndex();
  const hits = index.search(input.message, 4);
  const sources = uniqueSlugs(hits, 3).map((slug) => sourceOf(index, slug));
  const excerpts =
    hits.length === 0
      ? 'No help section matched the question.'
      : hits
          .map((hit) => `[${hit.section.pageTitle} — ${hit.section.heading}]\n${hit.section.text}`)
          .join('\n\n---\n\n');
  const history = input.conversationHistory
    .slice(-CHAT_HISTORY_LIMIT)
    .map((turn: ChatTurn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.content}`)
    .join('\n');
  const prompt = [
    `Help excerpts:\n${excerpts}`,
    `User context:\n${await userContext(ctx, userId)}`,
    history ? `Conversation so far:\n${history}` : '',
    `Question: ${input.message}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { request: { purpose: 'chat', system: SYSTEM_PROMPT, prompt }, sources };
}

/** JSON answer: the local assistant, or the configured LLM in one piece. */
export async function answerChat(ctx: AppContext, userId: string, input: ChatInput): Promise<ChatReply> {
  const { engine } = ctx.engines.text();
  if (isLocalText(engine)) {
    const local = localAnswer(await helpIndex(), input.message);
    return { success: true, ...local };
  }
  const { request, sources } = await llmRequest(ctx, userId, input);
  const result = await engine.complete(request);
  return { success: true, response: result.text.trim(), sources };
}
