// Leaving the editor overlay (Exit, Back, any link out of ?canvas=1) while the autosave has a change in hand:
// the save is sent at once and a question asks to stay or leave; once the save is through the navigation goes
// on by itself. (Reloading or closing the page is guarded by the browser's beforeunload prompt instead.)
import { AlertDialog } from 'radix-ui';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';
import { type CanvasAutosave, useAutosaveState } from './canvasAutosave.ts';

const inEditor = (search: string) => new URLSearchParams(search).get('canvas') === '1';

export function LeaveGuard({ autosave }: { autosave: CanvasAutosave }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      autosave.hasUnsaved() &&
      inEditor(currentLocation.search) &&
      (nextLocation.pathname !== currentLocation.pathname || !inEditor(nextLocation.search)),
  );
  const blocked = blocker.state === 'blocked';
  const { status } = useAutosaveState(autosave);
  const { flush } = autosave;
  const unsaved = autosave.hasUnsaved();

  // Once the user has answered, a save finishing a moment later must not take them away after all.
  const answered = useRef(false);
  useEffect(() => {
    if (!blocked) return;
    answered.current = false;
    void flush();
  }, [blocked, flush]);
  useEffect(() => {
    if (blocked && !answered.current && !unsaved && status === 'saved') blocker.proceed?.();
  }, [blocked, unsaved, status, blocker]);
  const stay = () => {
    answered.current = true;
    blocker.reset?.();
  };

  return (
    <AlertDialog.Root open={blocked} onOpenChange={(open) => !open && stay()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[60] bg-black/60" />
        <AlertDialog.Content
          data-testid="canvas-leave-confirm"
          className="fixed left-1/2 top-1/2 z-[60] w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-5 shadow-2xl"
        >
          <AlertDialog.Title className="text-base font-semibold">
            {t('editorSessions.autosave.leaveTitle')}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-muted">
            {status === 'failed'
              ? t('editorSessions.autosave.leaveBodyFailed')
              : t('editorSessions.autosave.leaveBody')}
          </AlertDialog.Description>
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass('secondary', 'sm')} data-testid="canvas-leave-stay">
              {t('editorSessions.autosave.stay')}
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClass('danger', 'sm')}
              data-testid="canvas-leave-anyway"
              onClick={() => {
                answered.current = true;
                blocker.proceed?.();
              }}
            >
              {t('editorSessions.autosave.leave')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
