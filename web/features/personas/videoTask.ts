// A persona video (or UGC video) from its start to its end: the start call answers with a task, then the
// status is polled (spec 4 and 9: every 15 s, quicker in the first minute, 40 attempts) until completed,
// failed or timed out. Progress is the reported value, else 5 + 2 per attempt, capped at 95.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { VIDEO_POLL } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  decideVideoPoll,
  type VideoPollOutcome,
  videoPollAttempt,
  videoPollDelay,
  videoPollSecondsLeft,
} from '../../../common/rules/generation-state.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { ApiError, apiRequest } from '../../api/client.ts';
import type { GenerationStatusReply } from '../../api/generation.ts';
import { isAbort, sleep } from '../../api/polling.ts';
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
      const started = Date.now();
      for (;;) {
        await sleep(videoPollDelay(Date.now() - started), signal);
        const attempt = videoPollAttempt(Date.now() - started);
        let outcome: VideoPollOutcome;
        let data: GenerationStatusReply['data'] | null = null;
        try {
          const status = await apiRequest<GenerationStatusReply>(task.statusUrl, {
            method: 'POST',
            body: { taskId: task.taskId },
            signal,
          });
          data = status.data;
          outcome = { ok: true, reply: status.data };
        } catch (error) {
          if (isAbort(error)) throw error;
          outcome = {
            ok: false,
            status: error instanceof ApiError ? error.status : 0,
            message: error instanceof Error ? error.message : null,
          };
        }
        const decision = decideVideoPoll(attempt, outcome);
        if (decision.kind === 'wait') {
          setState({ phase: 'running', progress: decision.progress, secondsLeft: decision.secondsLeft });
          continue;
        }
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
        return;
      }
    } catch (error) {
      if (isAbort(error)) return;
      setState({
        phase: 'failed',
        message: error instanceof Error && error.message ? error.message : MESSAGES.generation.videoFailed,
      });
    }
  }

  function reset() {
    controller.current?.abort();
    setState({ phase: 'idle' });
  }

  return { state, start, reset };
}
