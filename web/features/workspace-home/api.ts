// Queries of the workspace home: the user's running tasks (polled while any run) and the newest assets.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ListAssetsReply } from '../../../common/api/assets.ts';
import type { ListTasksReply, RunningTask } from '../../../common/api/tasks.ts';
import { VIDEO_QUICK_POLL } from '../../../common/rules/generation-state.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { apiRequest } from '../../api/client.ts';

const runningTasksKey = ['tasks', 'running'] as const;
/** Without running work the list is still checked now and then, for work started in another tab. */
const IDLE_POLL_MS = 10_000;

/**
 * GET /api/tasks?status=running, checked at the studio's quick poll cadence (every 2 s, as the Creator
 * tab's runner checks a task) while any task runs. When a task leaves the list it has finished: the
 * assets and the balance (spent or refunded) are refreshed.
 */
export function useRunningTasks() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: runningTasksKey,
    queryFn: ({ signal }) => apiRequest<ListTasksReply>('/api/tasks?status=running&limit=10', { signal }),
    select: (reply): RunningTask[] => reply.data,
    refetchInterval: (q) => ((q.state.data?.data.length ?? 0) > 0 ? VIDEO_QUICK_POLL.intervalMs : IDLE_POLL_MS),
  });
  const seen = useRef<Set<string>>(new Set());
  const ids = query.data?.map((task) => task.id).join(',') ?? '';
  useEffect(() => {
    const now = new Set(ids ? ids.split(',') : []);
    const finished = [...seen.current].some((id) => !now.has(id));
    seen.current = now;
    if (finished) {
      void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    }
  }, [ids, queryClient]);
  return query;
}

const RECENT_ASSETS = 8;

/** The newest assets (under the assets key, so a finished generation refreshes them). */
export function useRecentAssets() {
  return useQuery({
    queryKey: [...assetsQueryKey, 'recent', RECENT_ASSETS],
    queryFn: ({ signal }) => apiRequest<ListAssetsReply>(`/api/ai/assets?limit=${RECENT_ASSETS}&offset=0`, { signal }),
    staleTime: 10_000,
  });
}
