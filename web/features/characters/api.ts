// Characters on the server (GET/POST /api/characters, PUT/DELETE /api/characters/:id), cached in
// localStorage so the list also shows offline; POST /api/ai/generate with the selected characters.
import { useQuery } from '@tanstack/react-query';
import type {
  Character,
  CharacterBody,
  CharacterGenerateBody,
  CharacterGenerateReply,
} from '../../../common/api/characters.ts';
import { apiRequest } from '../../api/client.ts';
import { type GeneratedOutput, generatedOutput } from '../../api/generation.ts';

export const charactersKey = ['characters'] as const;
const CACHE_KEY = 'genpro.characters';

function readCachedCharacters(): Character[] | undefined {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    return Array.isArray(parsed) ? (parsed as Character[]) : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(list: Character[]): void {
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(list));
  } catch {
    // storage full or unavailable: the list still works online
  }
}

export function useCharacters() {
  return useQuery({
    queryKey: charactersKey,
    queryFn: async () => {
      const reply = await apiRequest<{ data: Character[] }>('/api/characters');
      writeCache(reply.data);
      return reply.data;
    },
    initialData: readCachedCharacters,
    initialDataUpdatedAt: 0,
  });
}

export async function saveCharacter(id: string | null, body: CharacterBody): Promise<Character> {
  const reply = await apiRequest<{ data: Character }>(id ? `/api/characters/${id}` : '/api/characters', {
    method: id ? 'PUT' : 'POST',
    body,
  });
  return reply.data;
}

export async function deleteCharacter(id: string): Promise<void> {
  await apiRequest(`/api/characters/${id}`, { method: 'DELETE' });
}

export function cacheCharacters(list: Character[]): void {
  writeCache(list);
}

export function generateWithCharacters(body: CharacterGenerateBody): Promise<CharacterGenerateReply> {
  return apiRequest<CharacterGenerateReply>('/api/ai/generate', { method: 'POST', body });
}

const FAILED = 'Character content generation failed';

/** Follows the task until it finishes (6 minutes at most); resolves with the url and the engine that made it. */
export function waitForResult(taskId: string, signal?: AbortSignal): Promise<GeneratedOutput> {
  return generatedOutput(taskId, { signal, timeoutMs: 6 * 60_000, failedMessage: FAILED });
}
