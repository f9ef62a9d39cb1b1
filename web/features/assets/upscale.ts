// Per-asset upscale (spec 4 "Upscale per asset"): start the upscale, then read the asset every 5 s until
// metadata.replaced_by_enhancement is true (success), or fail on a start error or after 30 minutes.
// Kept in a store outside the grid so a card that scrolls away or a grid that re-mounts keeps its state.
import type { QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { toast } from 'sonner';
import { create } from 'zustand';
import { decideUpscalePoll, type UpscaleState, upscaleErrorMessage } from '../../../common/rules/asset-upscale.ts';
import { type Asset, assetsQueryKey, getAsset, getTask, startUpscale, updateCachedAsset } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';

interface AssetUpscale {
  state: UpscaleState;
  error: string | null;
}

interface UpscaleStore {
  byId: Record<string, AssetUpscale>;
  set: (id: string, value: AssetUpscale) => void;
}

export const useUpscales = create<UpscaleStore>((set) => ({
  byId: {},
  set: (id, value) => set((s) => ({ byId: { ...s.byId, [id]: value } })),
}));

const running = new Set<string>();
/** Bumped when the session changes: the previous session's upscales stop at their next check. */
let epoch = 0;

useSession.subscribe((state, previous) => {
  if (state.token === previous.token) return;
  epoch += 1;
  running.clear();
  useUpscales.setState({ byId: {} });
});

function wait(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts the upscale of one asset and follows it to the end. Does nothing while one is already running. */
export async function upscaleAsset(asset: Asset, queryClient: QueryClient): Promise<void> {
  if (running.has(asset.id)) return;
  running.add(asset.id);
  const mine = epoch;
  const set = (id: string, value: AssetUpscale) => {
    if (epoch === mine) useUpscales.getState().set(id, value);
  };
  set(asset.id, { state: 'loading', error: null });
  try {
    let taskId: string | null = null;
    try {
      taskId = (await startUpscale(asset)).requestId ?? null;
    } catch (error) {
      set(asset.id, { state: 'error', error: upscaleErrorMessage(error instanceof Error ? error.message : null) });
      return;
    } finally {
      // The enhancement's credits are reserved (or not): refresh the balance.
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    }
    const started = Date.now();
    let latest: Asset | null = null;
    for (;;) {
      if (epoch !== mine) return;
      const decision = decideUpscalePoll(started, Date.now(), latest);
      if (decision.kind === 'done') {
        if (latest) {
          const fresh = latest;
          updateCachedAsset(queryClient, asset.id, () => fresh);
        }
        set(asset.id, { state: 'success', error: null });
        toast.success(i18next.t('assets.upscaled'));
        void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
        return;
      }
      if (decision.kind === 'failed') {
        set(asset.id, { state: 'error', error: decision.message });
        return;
      }
      await wait(decision.delayMs);
      // The task tells of a failure at once, rather than after the 30 minute time-out.
      const task = taskId ? await getTask(taskId).catch(() => null) : null;
      if (task?.data.status === 'failed') {
        set(asset.id, { state: 'error', error: upscaleErrorMessage(task.data.error?.message) });
        return;
      }
      try {
        latest = (await getAsset(asset.id)).data;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 401)) {
          // Deleted meanwhile, or signed out: nothing left to follow.
          set(asset.id, { state: 'error', error: upscaleErrorMessage(error.message) });
          return;
        }
        // A failed check is retried on the next tick, until the time-out.
      }
    }
  } finally {
    if (epoch === mine) running.delete(asset.id);
  }
}
