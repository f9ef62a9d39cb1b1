import { z } from 'zod';

/** Spec 9: the chat sends the last 10 messages of the conversation. */
export const CHAT_HISTORY_LIMIT = 10;
export const CHAT_MESSAGE_MAX = 2000;
/** Spec 8 (Chat): shown whenever the assistant cannot answer. */
export const CHAT_FAILURE_MESSAGE =
  "I'm sorry, I'm experiencing some technical difficulties. Please try again in a moment.";

const chatTurn = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(8000),
});

export const chatBody = z.object({
  message: z
    .string({ error: 'Please enter a message' })
    .trim()
    .min(1, 'Please enter a message')
    .max(CHAT_MESSAGE_MAX, `Messages can be at most ${CHAT_MESSAGE_MAX} characters`),
  conversationHistory: z
    .array(chatTurn)
    .max(CHAT_HISTORY_LIMIT, `Send at most ${CHAT_HISTORY_LIMIT} messages of history`)
    .default([]),
});

const chatSource = z.object({
  title: z.string(),
  /** The help page in the repository, e.g. docs/help/sequences.md. */
  path: z.string(),
  /** Where the studio serves the page. */
  url: z.string(),
});

export const chatReply = z.object({
  success: z.literal(true),
  response: z.string(),
  sources: z.array(chatSource),
});

export const helpPageReply = z.object({
  success: z.literal(true),
  data: z.object({ slug: z.string(), title: z.string(), path: z.string(), markdown: z.string() }),
});

export type ChatTurn = z.infer<typeof chatTurn>;
export type ChatInput = z.infer<typeof chatBody>;
export type ChatSource = z.infer<typeof chatSource>;
export type ChatReply = z.infer<typeof chatReply>;
