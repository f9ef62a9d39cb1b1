// Generate Screenplay (canvas spec 5, 7, 8): the blockers' alerts, the film agent call and its outcome. Kept
// outside React so closing the overlay while the agent writes does not lose the screenplay.
import i18next from 'i18next';
import { toast } from 'sonner';
import { create } from 'zustand';
import { MESSAGES } from '../../../common/messages.ts';
import { FILM_MESSAGES, screenplayBlocker, stepAfter } from '../../../common/rules/film.ts';
import { ApiError } from '../../api/client.ts';
import { requestScreenplay } from './api.ts';
import { useFilm } from './store.ts';
import { filmError } from './text.ts';

interface ScreenplayJob {
  busy: boolean;
  startedAt: number | null;
  /** The last blocker or failure (spec message, shown localised). */
  error: string | null;
}

export const useScreenplayJob = create<ScreenplayJob>(() => ({ busy: false, startedAt: null, error: null }));

export function clearScreenplayError() {
  useScreenplayJob.setState({ error: null });
}

export async function generateScreenplay() {
  if (useScreenplayJob.getState().busy) return;
  const { concept, characters } = useFilm.getState();
  const blocker = screenplayBlocker(concept, characters);
  if (blocker) {
    useScreenplayJob.setState({ error: blocker });
    toast.error(filmError(blocker));
    return;
  }
  useScreenplayJob.setState({ busy: true, startedAt: Date.now(), error: null });
  const owner = useFilm.getState().ownerId;
  try {
    const reply = await requestScreenplay(concept, characters);
    // The user may have switched accounts or started a new film meanwhile: only the same owner takes it.
    if (useFilm.getState().ownerId !== owner) return;
    useFilm.getState().setScreenplay(reply.data.screenplay);
    useFilm.getState().setStep(stepAfter('screenplay-generated'));
    toast.success(i18next.t('film.toast.screenplayReady', { title: reply.data.screenplay.title }));
  } catch (error) {
    const message =
      error instanceof ApiError && error.message !== MESSAGES.generic.internal && !error.isNetwork
        ? error.message
        : FILM_MESSAGES.screenplayFallback;
    useScreenplayJob.setState({ error: message });
    toast.error(filmError(message));
  } finally {
    useScreenplayJob.setState({ busy: false, startedAt: null });
  }
}
