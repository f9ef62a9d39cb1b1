// Saved editor sessions on the server (canvas spec 7): GET /api/editor-sessions (a page without data),
// GET/PUT/DELETE /api/editor-sessions/{id}, POST /api/editor-sessions.
import type {
  CreateEditorSessionBody,
  EditorSession,
  ListEditorSessionsReply,
  PutAutosaveBody,
  UpdateEditorSessionBody,
} from '../../../common/api/editor-sessions.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { EDITOR_SESSION_LIMITS, type EditorSessionType } from '../../../common/rules/editor-sessions.ts';
import { ApiError, apiRequest } from '../../api/client.ts';

export const sessionsKey = ['editor-sessions'] as const;

export async function listSessions(
  params: { type: EditorSessionType | null; cursor: string | null },
  signal?: AbortSignal,
): Promise<ListEditorSessionsReply> {
  const query = new URLSearchParams({ limit: String(EDITOR_SESSION_LIMITS.listPageSize) });
  if (params.type) query.set('component_type', params.type);
  if (params.cursor) query.set('cursor', params.cursor);
  return apiRequest<ListEditorSessionsReply>(`/api/editor-sessions?${query}`, { signal });
}

export async function getSession(id: string): Promise<EditorSession> {
  return (await apiRequest<{ data: EditorSession }>(`/api/editor-sessions/${encodeURIComponent(id)}`)).data;
}

export async function createSession(body: CreateEditorSessionBody): Promise<EditorSession> {
  return (await apiRequest<{ data: EditorSession }>('/api/editor-sessions', { method: 'POST', body })).data;
}

export async function updateSession(id: string, body: UpdateEditorSessionBody): Promise<EditorSession> {
  const path = `/api/editor-sessions/${encodeURIComponent(id)}`;
  return (await apiRequest<{ data: EditorSession }>(path, { method: 'PUT', body })).data;
}

export async function deleteSession(id: string): Promise<void> {
  await apiRequest(`/api/editor-sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

const autosavePath = (type: EditorSessionType) => `/api/editor-sessions/autosave/${encodeURIComponent(type)}`;

/** The user's autosave of a tool, or null when there is none. */
export async function getAutosave(type: EditorSessionType, signal?: AbortSignal): Promise<EditorSession | null> {
  return (await apiRequest<{ data: EditorSession | null }>(autosavePath(type), { signal })).data;
}

export async function putAutosave(type: EditorSessionType, body: PutAutosaveBody): Promise<EditorSession> {
  return (await apiRequest<{ data: EditorSession }>(autosavePath(type), { method: 'PUT', body })).data;
}

export async function deleteAutosave(type: EditorSessionType): Promise<void> {
  await apiRequest(autosavePath(type), { method: 'DELETE' });
}

/** apiRequest's own fallbacks, used when a reply carried no message of its own. */
const CLIENT_FALLBACKS: readonly string[] = [MESSAGES.generic.internal, MESSAGES.generic.rateLimited];

/**
 * A failed session call as the spec shows it (spec 8): the reply's details, then its error, then
 * 'HTTP {status}'; `fallback` (e.g. 'Failed to save session') for anything that is not an HTTP reply.
 */
export function sessionErrorText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.isNetwork) return error.message || fallback;
  if (typeof error.details === 'string' && error.details.trim()) return error.details;
  if (error.message && !CLIENT_FALLBACKS.includes(error.message)) return error.message;
  return `HTTP ${error.status}`;
}
