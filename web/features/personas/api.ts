// Persona calls (spec 7 "Personas and workspace"): list and search, create (a task: the persona is read again each
// time its generation task moves on, over the one progress channel), regenerate, the prompt image and the persona video. Types come from common/api/personas.ts.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CreatePersonaBody,
  PersonaImageBody,
  PersonaImageReply,
  PersonaTaskReply,
  PersonaUgcVideoBody,
  PersonaVideoBody,
  personaListReply,
  personaReply,
  personaVideoReply,
} from '../../../common/api/personas.ts';
import type { PersonaImageType, PersonaStatus } from '../../../common/rules/personas.ts';
import { apiRequest } from '../../api/client.ts';
import { useTaskChanges } from '../../api/tasks.ts';

type PersonaReply = z.infer<typeof personaReply>;
type Persona = PersonaReply['data'];
type PersonaListReply = z.infer<typeof personaListReply>;
export type PersonaVideoReply = z.infer<typeof personaVideoReply>;

export const personasKey = ['personas'] as const;
export const personaKey = (id: string) => [...personasKey, 'one', id] as const;

const path = (id: string, rest = '') => `/api/personas/${encodeURIComponent(id)}${rest}`;

/** The generation tasks of the personas still being generated (their images and progress change with them). */
const generationTasks = (personas: readonly Persona[]) =>
  personas.filter((p) => p.status === 'generating').map((p) => p.generation_task_id);

/** GET /api/personas, searched on the server; `status` narrows the list (the directory shows only ready ones). */
export function usePersonas(search: string, status?: PersonaStatus) {
  const queryClient = useQueryClient();
  const queryKey = [...personasKey, 'list', search, status ?? 'all'] as const;
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (search) params.set('search', search);
      if (status) params.set('status', status);
      const query = params.size > 0 ? `?${params}` : '';
      return apiRequest<PersonaListReply>(`/api/personas${query}`, { signal }).then((reply) => ({
        personas: reply.data,
        canCreatePublic: reply.permissions.canCreatePublic,
      }));
    },
    placeholderData: (previous) => previous,
    staleTime: 5_000,
  });
  // Personas still being generated show their progress in the list.
  useTaskChanges(generationTasks(query.data?.personas ?? []), () => void queryClient.invalidateQueries({ queryKey }));
  return query;
}

/** One persona; read again each time its generation task moves on while its images are being generated. */
export function usePersona(id: string | null) {
  const query = useQuery({
    queryKey: personaKey(id ?? ''),
    enabled: id !== null,
    queryFn: ({ signal }) => apiRequest<PersonaReply>(path(id ?? ''), { signal }).then((reply) => reply.data),
  });
  const refetch = query.refetch;
  useTaskChanges(query.data ? generationTasks([query.data]) : [], () => void refetch());
  return query;
}

export function createPersona(body: CreatePersonaBody) {
  return apiRequest<PersonaTaskReply>('/api/personas', { method: 'POST', body });
}

/** POST /api/personas/{id}/regenerate: one image type, or all five. */
export function regeneratePersona(id: string, imageType?: PersonaImageType) {
  return apiRequest<PersonaTaskReply>(path(id, '/regenerate'), {
    method: 'POST',
    body: imageType ? { imageType } : {},
  });
}

export function deletePersona(id: string) {
  return apiRequest<{ success: true }>(path(id), { method: 'DELETE' });
}

export function generatePersonaImage(id: string, body: PersonaImageBody) {
  return apiRequest<PersonaImageReply>(path(id, '/image'), { method: 'POST', body });
}

export function generatePersonaVideo(id: string, body: PersonaVideoBody) {
  return apiRequest<PersonaVideoReply>(path(id, '/video'), { method: 'POST', body });
}

export function generateUgcVideo(id: string, body: PersonaUgcVideoBody) {
  return apiRequest<PersonaVideoReply>(path(id, '/ugc-video'), { method: 'POST', body });
}
