// Theme and language preferences: remembered in localStorage and applied to <html> (class "dark", lang, dir).
// web/index.html applies the same values before first paint.
import { create } from 'zustand';
import { LANGUAGES, type Language, THEMES, type Theme } from '../../common/api/app.constants.ts';

const THEME_KEY = 'theme';
const LANGUAGE_KEY = 'language';

function read<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return value && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

interface PreferencesState {
  theme: Theme;
  language: Language;
  setTheme: (theme: Theme) => void;
  setLanguage: (language: Language) => void;
}

export const usePreferences = create<PreferencesState>((set) => ({
  theme: read(THEME_KEY, THEMES, 'dark'),
  language: read(LANGUAGE_KEY, LANGUAGES, 'en'),
  setTheme: (theme) => {
    write(THEME_KEY, theme);
    set({ theme });
  },
  setLanguage: (language) => {
    write(LANGUAGE_KEY, language);
    set({ language });
  },
}));

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

export function resolveTheme(theme: Theme): 'dark' | 'light' {
  if (theme === 'auto') return darkQuery().matches ? 'dark' : 'light';
  return theme;
}

export function applyTheme(theme: Theme) {
  const resolved = resolveTheme(theme);
  const root = document.documentElement;
  root.classList.toggle('dark', resolved === 'dark');
  root.style.colorScheme = resolved;
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute('content', resolved === 'dark' ? '#0a0b0f' : '#f5f6f8');
}

export function applyLanguage(language: Language) {
  const root = document.documentElement;
  root.lang = language;
  root.dir = language === 'ar' ? 'rtl' : 'ltr';
}

/** Follow the system colour scheme while the theme is "auto". Returns an unsubscribe function. */
export function watchSystemTheme(onChange: () => void): () => void {
  const query = darkQuery();
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
