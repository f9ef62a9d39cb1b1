// POST /api/chat/genpro (JSON, or SSE when the server streams an LLM's answer) and GET /api/help/{slug}.

import type { z } from 'zod';
import type { ChatReply, ChatSource, ChatTurn, helpPageReply } from '../../../common/api/chat.ts';
import { ApiError, apiRequest } from '../../api/client.ts';
import { getToken } from '../../api/session.ts';

export type { ChatSource, ChatTurn };

type HelpPage = z.infer<typeof helpPageReply>['data'];

interface StreamEvent {
  delta?: string;
  done?: boolean;
  sources?: ChatSource[];
  error?: string;
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  onDelta: (text: string) => void,
): Promise<{ response: string; sources: ChatSource[] }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let response = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      const event = JSON.parse(data) as StreamEvent;
      if (event.error) throw new ApiError(502, event.error);
      if (typeof event.delta === 'string') {
        response += event.delta;
        onDelta(response);
      }
      if (event.done) return { response, sources: event.sources ?? [] };
    }
    if (done) throw new ApiError(502, 'The answer stopped before it was complete');
  }
}

/** Asks the assistant; `onDelta` gets the text so far while a streamed answer arrives. */
export async function askGenPro(
  message: string,
  conversationHistory: ChatTurn[],
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<{ response: string; sources: ChatSource[] }> {
  const headers: Record<string, string> = {
    Accept: 'text/event-stream, application/json',
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch('/api/chat/genpro', {
      method: 'POST',
      headers,
      body: JSON.stringify({ message, conversationHistory }),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Network error', 'NETWORK');
  }
  if (res.ok && res.body && (res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return readStream(res.body, onDelta);
  }
  const json = (await res.json().catch(() => undefined)) as (ChatReply & { error?: string }) | undefined;
  if (!res.ok || !json?.success) throw new ApiError(res.status, json?.error ?? `HTTP ${res.status}`);
  return { response: json.response, sources: json.sources };
}

export function getHelpPage(url: string, signal?: AbortSignal): Promise<HelpPage> {
  return apiRequest<{ data: HelpPage }>(url, { signal }).then((reply) => reply.data);
}
