import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { Toaster } from 'sonner';
import { loadLanguage } from '../i18n/index.ts';
import { applyLanguage, applyTheme, resolveTheme, usePreferences, watchSystemTheme } from '../ui/preferences.ts';
import { useMediaQuery } from '../ui/useMediaQuery.ts';

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

// Toasts keep clear of the headers and editor tabs at the top: at the bottom's end corner on wide screens, and
// on phones (below md, where the dashboard has its bottom tab bar, h-16) just above that bar.
const TAB_BAR_CLEARANCE = 'calc(4rem + env(safe-area-inset-bottom) + 0.75rem)';

export function Providers({ children }: { children: ReactNode }) {
  const { resolved, language } = usePreferenceEffects();
  const tabBar = useMediaQuery('(max-width: 767.98px)');
  const rtl = language === 'ar';
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster
        theme={resolved}
        dir={rtl ? 'rtl' : 'ltr'}
        position={tabBar ? 'bottom-center' : rtl ? 'bottom-left' : 'bottom-right'}
        offset={tabBar ? { bottom: TAB_BAR_CLEARANCE } : undefined}
        mobileOffset={{ bottom: TAB_BAR_CLEARANCE }}
        richColors
        closeButton
        toastOptions={{ className: 'font-sans' }}
      />
    </QueryClientProvider>
  );
}
