// The Film Production Studio's calls (canvas spec 7). Types come from common/api.
import type { FilmAgentReply } from '../../../common/api/film.ts';
import { apiRequest } from '../../api/client.ts';
import type { FilmCharacter, FilmConcept } from './model.ts';
import { charactersForAgent, conceptForAgent } from './model.ts';

/** POST /api/ai/film-agent: writes the screenplay (free of charge). */
export function requestScreenplay(concept: FilmConcept, characters: readonly FilmCharacter[], signal?: AbortSignal) {
  return apiRequest<FilmAgentReply>('/api/ai/film-agent', {
    method: 'POST',
    body: {
      concept: conceptForAgent(concept),
      characters: charactersForAgent(characters),
      generationType: 'screenplay',
    },
    signal,
  });
}

/** POST /api/ai/assets with the asset's id: merges the film metadata into the saved video asset. */
export function saveShotAsset(
  body: { id: string; url: string; prompt: string; metadata: Record<string, unknown> },
  signal?: AbortSignal,
) {
  return apiRequest<{ success: true }>('/api/ai/assets', {
    method: 'POST',
    body: { ...body, type: 'video' },
    signal,
  });
}
