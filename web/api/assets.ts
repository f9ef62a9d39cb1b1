// The media library (GET/DELETE /api/ai/assets) and the per-asset upscale calls (spec 7).
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Asset, AssetSort, assetReply, ListAssetsReply } from '../../common/api/assets.ts';
import { ASSETS_PAGE_SIZE } from '../../common/api/generation.constants.ts';
import type { EnhanceQueuedReply } from '../../common/api/upscale.ts';
import { upscaleStartRequest } from './asset-upscale.ts';
import { apiRequest } from './client.ts';

export type { Asset };

/** The Library's search: words of the prompt and the order (the server's default is newest first). */
export interface AssetSearch {
  q?: string;
  sort?: AssetSort;
}

type AssetReply = z.infer<typeof assetReply>;
type DeleteReply = { success: true };

export const assetsQueryKey = ['assets'] as const;

/** `type` filters the list (one type or a `|`-separated list, e.g. 'image' or 'video|video_enhancement'). */
function assetsListKey(type: string | undefined, search: AssetSearch) {
  return [...assetsQueryKey, 'list', type ?? 'all', search.q ?? '', search.sort ?? 'newest'] as const;
}

function fetchAssetsPage(offset: number, type: string | undefined, search: AssetSearch, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(ASSETS_PAGE_SIZE), offset: String(offset) });
  if (type) params.set('type', type);
  if (search.q) params.set('q', search.q);
  if (search.sort && search.sort !== 'newest') params.set('sort', search.sort);
  return apiRequest<ListAssetsReply>(`/api/ai/assets?${params}`, { signal });
}

/** 35 a page from offset 0 (the first page is always offset 0, so a refetch starts over). */
export function useAssets(type?: string, search: AssetSearch = {}) {
  return useInfiniteQuery({
    queryKey: assetsListKey(type, search),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => fetchAssetsPage(pageParam, type, search, signal),
    getNextPageParam: (last) =>
      last.pagination.hasMore ? last.pagination.offset + Math.max(last.data.length, 1) : undefined,
    staleTime: 10_000,
  });
}

export function getAsset(id: string, signal?: AbortSignal) {
  return apiRequest<AssetReply>(`/api/ai/assets/${encodeURIComponent(id)}`, { signal });
}

type AssetPages = InfiniteData<ListAssetsReply, number>;

/** Replace or drop one asset in every cached list without refetching. */
export function updateCachedAsset(
  queryClient: ReturnType<typeof useQueryClient>,
  id: string,
  update: (asset: Asset) => Asset | null,
) {
  queryClient.setQueriesData<AssetPages>({ queryKey: assetsQueryKey }, (data) => {
    if (!data?.pages) return data;
    return {
      ...data,
      pages: data.pages.map((page) => {
        const list = page.data.flatMap((asset) => {
          if (asset.id !== id) return [asset];
          const next = update(asset);
          return next ? [next] : [];
        });
        return { ...page, data: list, assets: list };
      }),
    };
  });
}

/** Reads the media lists again (after a tool made new assets outside a mutation of this file). */
export function useRefreshAssets(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
}

export function useDeleteAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<DeleteReply>(`/api/ai/assets/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_reply, id) => {
      updateCachedAsset(queryClient, id, () => null);
      void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
    },
  });
}

/** Deletes several assets one after another; says which were deleted and which failed (with the error). */
export function useDeleteAssets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      const deleted: string[] = [];
      const failed: Array<{ id: string; error: unknown }> = [];
      for (const id of ids) {
        try {
          await apiRequest<DeleteReply>(`/api/ai/assets/${encodeURIComponent(id)}`, { method: 'DELETE' });
          deleted.push(id);
          updateCachedAsset(queryClient, id, () => null);
        } catch (error) {
          failed.push({ id, error });
        }
      }
      return { deleted, failed };
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: assetsQueryKey }),
  });
}

/** Starts an upscale: images to the image upscaler queue, videos to the 4K video enhancer. */
export function startUpscale(asset: Asset) {
  const { path, body } = upscaleStartRequest(asset);
  return apiRequest<EnhanceQueuedReply>(path, { method: 'POST', body });
}
