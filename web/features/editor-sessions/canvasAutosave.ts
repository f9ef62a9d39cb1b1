// The canvas's autosave: the canvas (images and their positions, view, selection, tool, format) and its Cinema
// Sequences are kept as the user's one multi-image-canvas autosave on the server, in the saved-session format
// (canvasSessionData, normalised and checked by prepareSessionData), and restored when the canvas opens on a
// fresh page. Autosave is not in the spec, which only saves by hand; without it a reload loses all the work.
import i18next from 'i18next';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import {
  EDITOR_SESSION_LIMITS,
  EDITOR_SESSION_MESSAGES,
  type EditorSessionType,
} from '../../../common/rules/editor-sessions.ts';
import { type CanvasState, useCanvas } from '../canvas/store.ts';
import { useSequences } from '../sequences/store.ts';
import { deleteAutosave, getAutosave, putAutosave, sessionErrorText } from './api.ts';
import { type AutosaveCapture, type Autosaver, type AutosaveSnapshot, createAutosaver } from './autosave.ts';
import { captureCanvasSession, restoreCanvasSession } from './canvasParticipant.ts';
import { sessionMessage } from './overlay.ts';
import { prepareSessionData } from './save.ts';

const TYPE: EditorSessionType = 'multi-image-canvas';

function captureForAutosave(): AutosaveCapture {
  // Image URLs are most of the data; a canvas of inline (data:) images can be far over the limit, and is
  // refused here before it is serialised at all.
  const urlBytes = useCanvas
    .getState()
    .images.reduce((sum, image) => sum + image.url.length + (image.thumbnailUrl?.length ?? 0), 0);
  if (urlBytes > EDITOR_SESSION_LIMITS.maxBytes) {
    return { kind: 'invalid', message: EDITOR_SESSION_MESSAGES.tooLarge((urlBytes / 1024 / 1024).toFixed(2)) };
  }
  const captured = captureCanvasSession();
  if (captured === null) return { kind: 'empty' };
  const prepared = prepareSessionData(TYPE, captured);
  return prepared.ok ? { kind: 'data', data: prepared.data } : { kind: 'invalid', message: prepared.message };
}

const isPristine = () =>
  useCanvas.getState().images.length === 0 &&
  useSequences.getState().items.length === 0 &&
  !useSequences.getState().movieScript.trim();

/** What the autosave keeps of the canvas store; any other change (dialogs, counters, viewport) is not saved. */
const canvasParts = (s: CanvasState) => [
  s.images,
  s.selectedIds,
  s.zoom,
  s.panX,
  s.panY,
  s.tool,
  s.inputMode,
  s.format,
];

function onStoreChanges(changed: () => void): () => void {
  const offCanvas = useCanvas.subscribe((state, previous) => {
    const now = canvasParts(state);
    const before = canvasParts(previous);
    if (now.some((part, i) => part !== before[i])) changed();
  });
  const offSequences = useSequences.subscribe((state, previous) => {
    if (
      state.items !== previous.items ||
      state.videoMode !== previous.videoMode ||
      state.movieScript !== previous.movieScript ||
      state.master !== previous.master
    ) {
      changed();
    }
  });
  return () => {
    offCanvas();
    offSequences();
  };
}

/**
 * The running canvas autosave. Its state is read by the components that show it (useAutosaveState), so a
 * change of state re-renders the indicator, not the whole editor.
 */
export interface CanvasAutosave {
  subscribe: (listener: () => void) => () => void;
  snapshot: () => AutosaveSnapshot;
  hasUnsaved: () => boolean;
  /** Saves now (retry after a failure; before leaving). */
  flush: () => Promise<void>;
}

const IDLE: AutosaveSnapshot = { status: 'idle', error: null, savedAt: null };
const NOT_RUNNING: CanvasAutosave = {
  subscribe: () => () => undefined,
  snapshot: () => IDLE,
  hasUnsaved: () => false,
  flush: () => Promise.resolve(),
};

export function useAutosaveState(autosave: CanvasAutosave): AutosaveSnapshot {
  return useSyncExternalStore(autosave.subscribe, autosave.snapshot);
}

/**
 * Runs the canvas autosave while the editor overlay is open: restores the user's autosave into an untouched
 * canvas, then saves changes (see autosave.ts for the timing), warns before the page unloads while a save is
 * pending, and on close sends what is still unsaved.
 */
export function useCanvasAutosave(): CanvasAutosave {
  const [autosaver, setAutosaver] = useState<Autosaver | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const saver = createAutosaver({
      capture: captureForAutosave,
      save: async (data) => {
        await putAutosave(TYPE, { data });
      },
      remove: () => deleteAutosave(TYPE),
      describeError: (error) => sessionMessage(i18next.t, sessionErrorText(error, EDITOR_SESSION_MESSAGES.saveFailed)),
    });
    let stopWatching = () => {};
    (async () => {
      let restoredAt: number | undefined;
      if (isPristine()) {
        try {
          const session = await getAutosave(TYPE, controller.signal);
          // The user may have started on the canvas meanwhile: their new work is kept, not replaced.
          if (session && !controller.signal.aborted && isPristine()) {
            restoreCanvasSession(session.data);
            restoredAt = Date.parse(session.updated_at);
            toast.info(i18next.t('editorSessions.autosave.restored'), { id: 'canvas-autosave-restored' });
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          console.error('Restoring the canvas autosave failed', error);
          toast.error(i18next.t('editorSessions.autosave.restoreFailed'));
        }
      }
      if (controller.signal.aborted) return;
      saver.markSaved(restoredAt);
      stopWatching = onStoreChanges(saver.changed);
      setAutosaver(saver);
    })();

    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!saver.hasUnsaved()) return;
      void saver.flush();
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);

    return () => {
      controller.abort();
      stopWatching();
      window.removeEventListener('beforeunload', onBeforeUnload);
      // Closing the overlay: what is still unsaved is sent on its way, then the autosaver stops.
      void saver
        .flush()
        .catch(() => undefined)
        .finally(() => saver.dispose());
      setAutosaver((current) => (current === saver ? null : current));
    };
  }, []);

  return useMemo(
    () =>
      autosaver
        ? {
            subscribe: autosaver.subscribe,
            snapshot: autosaver.snapshot,
            hasUnsaved: autosaver.hasUnsaved,
            flush: autosaver.flush,
          }
        : NOT_RUNNING,
    [autosaver],
  );
}
