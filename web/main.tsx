import './zod-config.ts';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/Providers.tsx';
import { router } from './app/router.tsx';
import { loadLanguage } from './i18n/index.ts';
import { usePreferences } from './ui/preferences.ts';

// A remembered Arabic is fetched before the first render, so the page does not flash English.
void loadLanguage(usePreferences.getState().language).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
