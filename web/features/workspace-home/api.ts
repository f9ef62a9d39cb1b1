// Queries of the workspace home: the user's running tasks (kept current by the progress channel) and the newest assets.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ListAssetsReply } from '../../../common/api/assets.ts';
import type { ListTasksReply, RunningTask } from '../../../common/api/tasks.ts';
import { VIDEO_QUICK_POLL } from '../../../common/rules/generation-state.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { apiRequest } from '../../api/client.ts';
import { followTasks, type TaskView } from '../../api/tasks.ts';

const runningTasksKey = ['tasks', 'running'] as const;
/** While the progress channel is down, the list is still checked now and then (work started in another tab). */
const IDLE_POLL_MS = 10_000;
/** Bursts of starts and finishes read the list once. */
const REFRESH_COALESCE_MS = 300;

/**
 * GET /api/tasks?status=running, kept current by the progress channel: pushed progress is written into the list,
 * a task that starts or finishes reads it again (while the channel is down: every 2 s while a task runs, else
 * every 10 s). When a task leaves the list it
 * has finished: the assets and the balance (spent or refunded) are refreshed.
 */
export function useRunningTasks() {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    // A running task's progress is written into the list as it is pushed; a task that starts or finishes
    // reads the list again (as does the stream's (re)opening, which may follow missed changes).
    let pending: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        void queryClient.invalidateQueries({ queryKey: runningTasksKey });
      }, REFRESH_COALESCE_MS);
    };
    const onTask = (task: TaskView) => {
      const list = queryClient.getQueryData<ListTasksReply>(runningTasksKey);
      const known = list?.data.some((running) => running.id === task.id);
      if (!list || !known || task.status === 'completed' || task.status === 'failed') {
        refresh();
        return;
      }
      queryClient.setQueryData<ListTasksReply>(runningTasksKey, {
        ...list,
        data: list.data.map((running) =>
          running.id === task.id
            ? {
                ...running,
                status: task.status === 'queued' ? 'queued' : 'processing',
                progress: Math.max(0, Math.min(99, task.progress)),
                estimatedSecondsLeft: task.estimatedSecondsLeft,
                updatedAt: task.updatedAt,
              }
            : running,
        ),
      });
    };
    const stop = followTasks(onTask, (open) => {
      setLive(open);
      if (open) refresh();
    });
    return () => {
      stop();
      clearTimeout(pending);
    };
  }, [queryClient]);
  const query = useQuery({
    queryKey: runningTasksKey,
    queryFn: ({ signal }) => apiRequest<ListTasksReply>('/api/tasks?status=running&limit=10', { signal }),
    select: (reply): RunningTask[] => reply.data,
    // Only while the progress channel is down is the list read on a timer.
    refetchInterval: (q) =>
      live ? false : (q.state.data?.data.length ?? 0) > 0 ? VIDEO_QUICK_POLL.intervalMs : IDLE_POLL_MS,
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
