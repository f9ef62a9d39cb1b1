// Editor overlay state around sessions (canvas spec 2 "Editor overlay tabs", 4): the tabs and their session
// types, the session the overlay last saved or loaded (so saving again can update it), the left-sidebar
// collapse remembered in localStorage, and the spec's session messages in the user's language.
import type { TFunction } from 'i18next';
import { create } from 'zustand';
import { EDITOR_SESSION_MESSAGES, type EditorSessionType } from '../../../common/rules/editor-sessions.ts';

/** The overlay's tabs in order; "canvas" is the spec's tools view. Kept in the URL as ?editor=. */
export const EDITOR_TABS = [
  { id: 'canvas', type: 'multi-image-canvas' },
  { id: 'multi-composition', type: 'multi-composition' },
  { id: 'magic-selector', type: 'magic-selector' },
  { id: 'multi-reference', type: 'multi-reference' },
] as const satisfies readonly { id: string; type: EditorSessionType }[];
export type EditorTab = (typeof EDITOR_TABS)[number]['id'];

export function parseEditorTab(value: string | null): EditorTab {
  return EDITOR_TABS.find((tab) => tab.id === value)?.id ?? 'canvas';
}
export const typeOfTab = (tab: EditorTab): EditorSessionType =>
  EDITOR_TABS.find((entry) => entry.id === tab)?.type ?? 'multi-image-canvas';
export const tabOfType = (type: EditorSessionType): EditorTab =>
  EDITOR_TABS.find((entry) => entry.type === type)?.id ?? 'canvas';

const COLLAPSE_KEY = 'genpro.editor.sidebarCollapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSE_KEY) === '1';
  } catch {
    return false;
  }
}

interface CurrentSession {
  id: string;
  name: string;
  type: EditorSessionType;
}

interface EditorOverlayState {
  sidebarCollapsed: boolean;
  toggleSidebar: () => void;
  /** The session last saved or loaded here: "Save session" offers to update it. */
  current: CurrentSession | null;
  setCurrent: (current: CurrentSession | null) => void;
}

export const useEditorOverlay = create<EditorOverlayState>((set, get) => ({
  sidebarCollapsed: readCollapsed(),
  toggleSidebar: () => {
    const sidebarCollapsed = !get().sidebarCollapsed;
    try {
      localStorage.setItem(COLLAPSE_KEY, sidebarCollapsed ? '1' : '0');
    } catch {
      // Storage unavailable: the choice lasts for this page only.
    }
    set({ sidebarCollapsed });
  },
  current: null,
  setCurrent: (current) => set({ current }),
}));

const STATIC_KEYS = new Map<string, string>();
for (const [key, text] of Object.entries(EDITOR_SESSION_MESSAGES)) {
  if (typeof text === 'string') STATIC_KEYS.set(text, key);
}

/** A spec session message (English, from common/rules) in the user's language; unknown text as is. */
export function sessionMessage(t: TFunction, message: string): string {
  const key = STATIC_KEYS.get(message);
  if (key) return t(`editorSessions.messages.${key}`);
  const tooLarge = /^Session data too large: ([\d.]+)MB/.exec(message);
  if (tooLarge) return t('editorSessions.messages.tooLarge', { mb: tooLarge[1] });
  const invalid = /^Invalid session data: (.*)$/.exec(message);
  if (invalid) {
    const list = invalid[1].split(', ').map((part) => sessionMessage(t, part));
    return t('editorSessions.messages.invalid', { list: list.join(t('editorSessions.listSeparator')) });
  }
  const saved = /^Session "(.*)" saved successfully!$/.exec(message);
  if (saved) return t('editorSessions.messages.saved', { name: saved[1] });
  const unsupported = /^Unsupported component type: (.*)$/.exec(message);
  if (unsupported) return t('editorSessions.messages.unsupportedType', { type: unsupported[1] });
  return message;
}
