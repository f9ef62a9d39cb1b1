// Calls of the cinema sequences (canvas spec 7): the sequence video, its status poll, the Movie Agent and the
// master compile. Bodies and replies come from common/api/sequences.ts.
import type {
  CompileMasterBody,
  CompileMasterReply,
  GenerateVideoSequenceBody,
  GenerateVideoSequenceReply,
  MovieAgentBody,
  MovieAgentReply,
} from '../../../common/api/sequences.ts';
import { apiRequest } from '../../api/client.ts';

export type { MovieAgentReply };

export function generateSequenceVideo(body: GenerateVideoSequenceBody, signal?: AbortSignal) {
  return apiRequest<GenerateVideoSequenceReply>('/api/ai/generate-video-sequence', { method: 'POST', body, signal });
}

export function runMovieAgent(body: MovieAgentBody, signal?: AbortSignal) {
  return apiRequest<MovieAgentReply>('/api/ai/movie-agent', { method: 'POST', body, signal });
}

export function compileMasterVideo(body: CompileMasterBody, signal?: AbortSignal) {
  return apiRequest<CompileMasterReply>('/api/ai/compile-master-video', { method: 'POST', body, signal });
}
