// Public profiles: GET /api/creators/{id} and GET /api/brands/{id} (common/api/directory.ts).
import { useQuery } from '@tanstack/react-query';
import type { BrandPublicProfileReply, CreatorPublicProfileReply } from '../../../common/api/directory.ts';
import { ApiError, getData } from '../../api/client.ts';
import { directoryKey } from '../directory/api.ts';

// A missing profile (404) or a malformed id (400) is final: asking again changes nothing.
const retry = (count: number, error: Error) =>
  !(error instanceof ApiError && (error.status === 400 || error.status === 404 || error.status === 401)) && count < 2;

export function useCreatorProfile(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...directoryKey, 'creator', id],
    enabled,
    retry,
    queryFn: getData<CreatorPublicProfileReply>(`/api/creators/${encodeURIComponent(id)}`),
  });
}

export function useBrandProfile(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...directoryKey, 'brand', id],
    enabled,
    retry,
    queryFn: getData<BrandPublicProfileReply>(`/api/brands/${encodeURIComponent(id)}`),
  });
}
