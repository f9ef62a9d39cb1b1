// The editor overlay's open tab, kept in the URL.
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { type EditorTab, parseEditorTab } from '../editor-sessions/overlay.ts';

/** The overlay's tab in the URL (?editor=), so a reload keeps it; the tools view leaves it out. */
export function useEditorTab(): [EditorTab, (tab: EditorTab) => void] {
  const [params, setParams] = useSearchParams();
  const tab = parseEditorTab(params.get('editor'));
  const setTab = useCallback(
    (next: EditorTab) =>
      setParams(
        (current) => {
          const url = new URLSearchParams(current);
          if (next === 'canvas') url.delete('editor');
          else url.set('editor', next);
          return url;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [tab, setTab];
}
