// The studio's history strip: what this session generated, read from the server (the media library filtered to
// generation outputs made since the current sign-in began), so it survives a reload and matches other tabs.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Asset, ListAssetsReply } from '../../../../common/api/assets.ts';
import { assetsQueryKey } from '../../../api/assets.ts';
import { apiRequest } from '../../../api/client.ts';
import { engineOf } from '../../../ui/EngineBadge.tsx';
import { useSessions } from '../../account/api.ts';
import type { GeneratedItem } from '../store.ts';

/** At most this many of the session's latest generations are listed. */
const HISTORY_LIMIT = 50;

/** One thing the viewer can show: a generation's output, with its stored asset once the library lists it. */
export interface ViewerMedia {
  /** The asset id (a result without one is keyed by its url). */
  key: string;
  id: string | null;
  url: string;
  thumbnailUrl: string | null;
  type: 'image' | 'video' | 'audio';
  width: number | null;
  height: number | null;
  engine: string | null;
  prompt: string | null;
  asset: Asset | null;
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;

function mediaOfAsset(asset: Asset): ViewerMedia {
  return {
    key: asset.id,
    id: asset.id,
    url: asset.url,
    thumbnailUrl: asset.thumbnail_url,
    type: asset.type === 'video' || asset.type === 'audio' ? asset.type : 'image',
    width: num(asset.metadata.width),
    height: num(asset.metadata.height),
    engine: engineOf(asset.metadata),
    prompt: asset.prompt,
    asset,
  };
}

export function mediaOfItem(item: GeneratedItem): ViewerMedia {
  return {
    key: item.id ?? item.url,
    id: item.id,
    url: item.url,
    thumbnailUrl: item.thumbnailUrl,
    type: item.type,
    width: num(item.width),
    height: num(item.height),
    engine: item.engine ?? null,
    prompt: null,
    asset: null,
  };
}

const isGeneration = (asset: Asset) => asset.metadata.source === 'generation' && asset.status === 'completed';

/** The session's generations, newest first (the assets query key: a finished generation refreshes it). */
export function useSessionHistory(): { items: ViewerMedia[]; pending: boolean } {
  const sessions = useSessions(true);
  const started = sessions.data?.find((session) => session.current)?.createdAt ?? null;
  const list = useQuery({
    queryKey: [...assetsQueryKey, 'studio-history'],
    queryFn: ({ signal }) =>
      apiRequest<ListAssetsReply>(`/api/ai/assets?type=image|video|audio&limit=${HISTORY_LIMIT}`, { signal }),
    staleTime: 10_000,
  });
  const items = useMemo(() => {
    const since = started ? Date.parse(started) : Number.NEGATIVE_INFINITY;
    return (list.data?.data ?? [])
      .filter((asset) => isGeneration(asset) && Date.parse(asset.created_at) >= since)
      .map(mediaOfAsset);
  }, [list.data, started]);
  // Without the session's start (its list could not be read) the recent generations stand in for it.
  return { items, pending: list.isPending || (sessions.isPending && !sessions.isError) };
}
