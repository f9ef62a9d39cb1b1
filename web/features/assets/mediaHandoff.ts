// The receiving end of "Use in ▸ Post" (useIn.ts): the publish tab opened with `?media=<asset ids>` attaches those
// assets (the user's own: each is read through GET /api/ai/assets/{id}), then drops the parameter.
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { Asset } from '../../../common/api/assets.ts';
import { getAsset } from '../../api/assets.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** More than a post can carry is never asked for. */
const MAX_HANDED = 20;

/** Calls `onAssets` once with the assets named by `?media=` (those that could be read), then removes it. */
export function useMediaHandoff(onAssets: (assets: Asset[]) => void): void {
  const [params, setParams] = useSearchParams();
  const raw = params.get('media');
  const callback = useRef(onAssets);
  callback.current = onAssets;
  useEffect(() => {
    if (!raw) return;
    const ids = [...new Set(raw.split(','))].filter((id) => UUID.test(id)).slice(0, MAX_HANDED);
    const abort = new AbortController();
    void Promise.allSettled(ids.map((id) => getAsset(id, abort.signal))).then((results) => {
      if (abort.signal.aborted) return;
      const assets = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.data] : []));
      if (assets.length > 0) callback.current(assets);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('media');
          return next;
        },
        { replace: true },
      );
    });
    return () => abort.abort();
  }, [raw, setParams]);
}
