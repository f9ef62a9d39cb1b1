// The conversation of this browser session (sessionStorage) and what is sent as history.
import { CHAT_HISTORY_LIMIT, type ChatSource, type ChatTurn } from '../../../common/api/chat.ts';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  timestamp: number;
  sources?: ChatSource[];
  /** The spec's failure message stands in for an answer; it is never sent back as history. */
  failed?: boolean;
}

const KEY = 'genpro.chat.messages';
/** Enough for a long session without filling sessionStorage. */
const KEPT = 200;

export function loadMessages(): ChatMessage[] {
  try {
    const raw = sessionStorage.getItem(KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list)
      ? list.filter(
          (m): m is ChatMessage =>
            typeof m === 'object' &&
            m !== null &&
            (m.role === 'user' || m.role === 'assistant') &&
            typeof m.content === 'string' &&
            typeof m.id === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function saveMessages(messages: ChatMessage[]): void {
  try {
    if (messages.length === 0) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(messages.slice(-KEPT)));
  } catch {
    // Storage full or blocked: the conversation still works, it just is not kept.
  }
}

/** The last 10 answered messages (spec 9), failures left out. */
export function historyOf(messages: ChatMessage[]): ChatTurn[] {
  return messages
    .filter((m) => !m.failed && m.content.trim())
    .slice(-CHAT_HISTORY_LIMIT)
    .map((m) => ({ role: m.role, content: m.content }));
}

/** Blocks of an answer: `> ` lines are quotes from a help page, the rest paragraphs. */
export function blocksOf(text: string): Array<{ quote: boolean; text: string }> {
  return text
    .split(/\n{2,}/)
    .map((block) => block.replace(/^\n+|\n+$/g, ''))
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n');
      const quote = lines.every((line) => line.startsWith('>'));
      return { quote, text: quote ? lines.map((line) => line.replace(/^>\s?/, '')).join('\n') : block };
    });
}
