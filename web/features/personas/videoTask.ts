// A persona video (or UGC video) from its start to its end: the start call answers with a task, then the
// task is followed over the page's progress channel (spec 4 and 9: 40 attempts of 15 s) until completed,
// failed or timed out. Progress is the reported value, else 5 + 2 per attempt, capped at 95.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { VIDEO_POLL } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { videoPollSecondsLeft } from '../../../common/rules/generation-state.ts';
import { isAbort } from '../../api/abort.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { errorMessage } from '../../api/client.ts';
import { followGeneration } from '../../api/generation.ts';
import type { PersonaVideoReply } from './api.ts';

export type VideoTaskState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: number; secondsLeft: number }
  | { phase: 'done'; url: string; thumbnailUrl: string | null; assetId: string | null; engine: string | null }
  | { phase: 'failed'; message: string };

/** Runs one video task; a new start aborts the previous one, and so does unmounting. */
export function useVideoTask() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<VideoTaskState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  async function start(begin: () => Promise<PersonaVideoReply>) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    const { signal } = abort;
    setState({ phase: 'running', progress: VIDEO_POLL.initialProgress, secondsLeft: videoPollSecondsLeft(0) });
    try {
      const reply = await begin();
      if (signal.aborted) return;
      // Credits were reserved: the balance in the shell changes now.
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
      const task = reply.data;
      setState({
        phase: 'running',
        progress: Math.max(VIDEO_POLL.initialProgress, task.progress),
        secondsLeft: task.estimatedSecondsLeft ?? videoPollSecondsLeft(0),
      });
      const { decision, data } = await followGeneration(task.taskId, {
        signal,
        onProgress: (progress, secondsLeft) => setState({ phase: 'running', progress, secondsLeft }),
      });
      if (decision.kind === 'failed') {
        // A failed task refunds its credits.
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
        setState({ phase: 'failed', message: decision.message });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
      setState({
        phase: 'done',
        url: decision.url,
        thumbnailUrl: data?.thumbnail_url ?? null,
        assetId: data?.assetId ?? null,
        engine: data?.engine ?? null,
      });
    } catch (error) {
      if (isAbort(error)) return;
      setState({
        phase: 'failed',
        message: errorMessage(error, MESSAGES.generation.videoFailed),
      });
    }
  }

  function reset() {
    controller.current?.abort();
    setState({ phase: 'idle' });
  }

  return { state, start, reset };
}
