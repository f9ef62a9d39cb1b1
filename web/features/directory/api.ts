// TanStack Query hooks of the creator and brand directories (common/api/directory.ts).
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ListBrandsReply, ListCreatorsReply } from '../../../common/api/directory.ts';
import {
  type BrandSort,
  type CommunityCategory,
  type CreatorSort,
  DIRECTORY_PAGE,
} from '../../../common/rules/directory.ts';
import { apiRequest } from '../../api/client.ts';

/** Every directory and admin list lives under this key, so an admin action can refresh them all at once. */
export const directoryKey = ['directory'] as const;

/** A query string of the defined, non-empty values. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/** The offset of the next page, or undefined when the last reply said there is no more. */
export function nextOffset(last: { pagination: { offset: number; limit: number; hasMore: boolean } }) {
  return last.pagination.hasMore ? last.pagination.offset + last.pagination.limit : undefined;
}

export function useCreators(
  filters: { search: string; category: CommunityCategory; sort: CreatorSort },
  enabled: boolean,
) {
  return useInfiniteQuery({
    queryKey: [...directoryKey, 'creators', filters],
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<ListCreatorsReply>(
        `/api/creators?${queryString({ ...filters, limit: DIRECTORY_PAGE.defaultLimit, offset: pageParam })}`,
        { signal },
      ),
    getNextPageParam: nextOffset,
  });
}

export function useBrands(filters: { search: string; sort: BrandSort }) {
  return useInfiniteQuery({
    queryKey: [...directoryKey, 'brands', filters],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<ListBrandsReply>(
        `/api/brands?${queryString({ ...filters, limit: DIRECTORY_PAGE.defaultLimit, offset: pageParam })}`,
        { signal },
      ),
    getNextPageParam: nextOffset,
  });
}
