// Per-asset upscale (spec 4 "Upscale per asset"): start the upscale, follow its task to the end, then read the
// asset: metadata.replaced_by_enhancement true is success; a start error, a failed task or 30 minutes fail it.
// Kept in a store outside the grid so a card that scrolls away or a grid that re-mounts keeps its state.
import type { QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { toast } from 'sonner';
import { create } from 'zustand';
import { UPSCALE_TIMEOUT_MS } from '../../../common/api/generation.constants.ts';
import { isAbort } from '../../api/abort.ts';
import { type UpscaleState, upscaleErrorMessage, upscaleOutcome } from '../../api/asset-upscale.ts';
import { type Asset, assetsQueryKey, getAsset, startUpscale, updateCachedAsset } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { watchTask } from '../../api/tasks.ts';

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
const controllers = new Set<AbortController>();

useSession.subscribe((state, previous) => {
  if (state.token === previous.token) return;
  epoch += 1;
  running.clear();
  for (const controller of controllers) controller.abort();
  controllers.clear();
  useUpscales.setState({ byId: {} });
});

/** Starts the upscale of one asset and follows it to the end. Does nothing while one is already running. */
export async function upscaleAsset(asset: Asset, queryClient: QueryClient): Promise<void> {
  if (running.has(asset.id)) return;
  running.add(asset.id);
  const mine = epoch;
  const controller = new AbortController();
  controllers.add(controller);
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
    // The task tells of the end (or of a failure) as soon as it comes; 30 minutes at most.
    if (taskId) {
      const task = await watchTask(taskId, { signal: controller.signal, timeoutMs: UPSCALE_TIMEOUT_MS }).catch(
        (error: unknown) => (isAbort(error) ? undefined : null),
      );
      if (task === undefined || epoch !== mine) return;
      if (task?.status === 'failed') {
        set(asset.id, { state: 'error', error: upscaleErrorMessage(task.error?.message) });
        return;
      }
    }
    // Then the asset says whether it was replaced by its upscaled version.
    let latest: Asset | null = null;
    try {
      latest = (await getAsset(asset.id)).data;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 401)) {
        // Deleted meanwhile, or signed out: nothing left to follow.
        set(asset.id, { state: 'error', error: upscaleErrorMessage(error.message) });
        return;
      }
    }
    if (epoch !== mine) return;
    const outcome = upscaleOutcome(latest);
    if (outcome.kind === 'failed') {
      set(asset.id, { state: 'error', error: outcome.message });
      return;
    }
    const fresh = latest;
    if (fresh) updateCachedAsset(queryClient, asset.id, () => fresh);
    set(asset.id, { state: 'success', error: null });
    toast.success(i18next.t('assets.upscaled'));
    void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  } finally {
    controllers.delete(controller);
    if (epoch === mine) running.delete(asset.id);
  }
}
