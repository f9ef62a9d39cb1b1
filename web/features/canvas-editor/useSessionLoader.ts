// Loading a saved editor session from the overlay's Sessions list.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { EditorSessionSummary } from '../../../common/api/editor-sessions.ts';
import type { EditorSessionType } from '../../../common/rules/editor-sessions.ts';
import { getSession } from '../editor-sessions/api.ts';
import { loadSession } from '../editor-sessions/load.ts';
import { type EditorTab, sessionMessage, tabOfType, typeOfTab, useEditorOverlay } from '../editor-sessions/overlay.ts';

/** Loads a saved session into its tool (switching tabs when needed) with a progress toast. */
export function useSessionLoader(tab: EditorTab, setTab: (tab: EditorTab) => void) {
  const { t } = useTranslation();
  const setCurrent = useEditorOverlay((s) => s.setCurrent);
  const tabRef = useRef(tab);
  tabRef.current = tab;
  const [loading, setLoading] = useState(false);

  const load = async (summary: EditorSessionSummary) => {
    if (loading) return;
    setLoading(true);
    const toastId = toast.loading(t('editorSessions.loading'));
    try {
      const outcome = await loadSession(summary.id, {
        fetchSession: getSession,
        activeType: () => typeOfTab(tabRef.current),
        switchTo: (type) => setTab(tabOfType(type)),
      });
      if (outcome.ok) {
        const { session } = outcome;
        // The autosave is the editor's own: saving by hand makes a new session rather than updating it.
        setCurrent(
          session.autosave
            ? null
            : { id: session.id, name: session.name, type: session.component_type as EditorSessionType },
        );
        toast.success(t('editorSessions.loaded', { name: session.name }), { id: toastId });
      } else {
        toast.error(sessionMessage(t, outcome.message), { id: toastId });
      }
    } finally {
      setLoading(false);
    }
  };
  return { load, loading };
}
