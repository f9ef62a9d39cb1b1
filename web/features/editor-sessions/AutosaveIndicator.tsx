// The canvas autosave's state in the overlay header: saving (a change waits or is being sent), saved, or not
// saved (with the reason and a retry). Icon only on narrow screens; the words from `sm` up.
import { CloudAlert, CloudCheck, LoaderCircle, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';
import { type CanvasAutosave, useAutosaveState } from './canvasAutosave.ts';

export function AutosaveIndicator({ autosave }: { autosave: CanvasAutosave }) {
  const { t } = useTranslation();
  const state = useAutosaveState(autosave);
  const { status } = state;
  const busy = status === 'pending' || status === 'saving';
  const label =
    status === 'failed'
      ? t('editorSessions.autosave.failed')
      : busy
        ? t('editorSessions.autosave.saving')
        : status === 'saved'
          ? t('editorSessions.autosave.saved')
          : '';
  const detail = status === 'failed' && state.error ? `${label}: ${state.error}` : label;

  return (
    <span
      data-testid="canvas-autosave"
      data-state={status}
      // A steady width from sm up, so the tabs beside it do not shift as the state changes.
      className="inline-flex shrink-0 items-center gap-1 sm:min-w-24"
      title={detail || undefined}
    >
      {/* A live region that is always there, so each change of state is announced. */}
      <span role="status" className="sr-only">
        {detail}
      </span>
      {label && (
        <span
          aria-hidden
          className={cn(
            'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium',
            status === 'failed' ? 'bg-danger-soft text-danger' : 'text-muted',
          )}
        >
          {status === 'failed' ? (
            <CloudAlert className="size-3.5" />
          ) : busy ? (
            <LoaderCircle className="size-3.5 animate-spin" />
          ) : (
            <CloudCheck className="size-3.5" />
          )}
          <span className="hidden sm:inline">{label}</span>
        </span>
      )}
      {status === 'failed' && (
        <button
          type="button"
          data-testid="canvas-autosave-retry"
          onClick={() => void autosave.flush()}
          aria-label={t('editorSessions.autosave.retry')}
          title={t('editorSessions.autosave.retry')}
          className="grid size-6 place-items-center rounded-md text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
        >
          <RotateCw className="size-3.5" aria-hidden />
        </button>
      )}
    </span>
  );
}
