import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { Toaster } from 'sonner';
import { loadLanguage } from '../i18n/index.ts';
import { applyLanguage, applyTheme, resolveTheme, usePreferences, watchSystemTheme } from './preferences.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** Applies theme and language to <html> and i18next whenever they change. */
function usePreferenceEffects() {
  const theme = usePreferences((s) => s.theme);
  const language = usePreferences((s) => s.language);
  const [resolved, setResolved] = useState(() => resolveTheme(theme));

  useEffect(() => {
    const update = () => {
      applyTheme(theme);
      setResolved(resolveTheme(theme));
    };
    update();
    return theme === 'auto' ? watchSystemTheme(update) : undefined;
  }, [theme]);

  useEffect(() => {
    applyLanguage(language);
    if (i18next.language !== language) void loadLanguage(language).then(() => i18next.changeLanguage(language));
  }, [language]);

  return { resolved, language };
}

export function Providers({ children }: { children: ReactNode }) {
  const { resolved, language } = usePreferenceEffects();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster
        theme={resolved}
        dir={language === 'ar' ? 'rtl' : 'ltr'}
        position="top-center"
        richColors
        closeButton
        toastOptions={{ className: 'font-sans' }}
      />
    </QueryClientProvider>
  );
}
