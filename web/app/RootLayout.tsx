import { RotateCcw } from 'lucide-react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, ScrollRestoration, useRouteError } from 'react-router';
import { Button, buttonClass } from '../ui/Button.tsx';
import { LogoMark } from '../ui/Logo.tsx';
import { SkipLink } from '../ui/SkipLink.tsx';
import { PageSpinner } from '../ui/Spinner.tsx';

export function RootLayout() {
  return (
    <>
      <SkipLink />
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}

/** Shown when a route fails to render or its code chunk fails to load (e.g. after a deploy). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  return (
    <main className="grid min-h-dvh place-items-center px-6" data-testid="route-error">
      <div className="max-w-sm text-center">
        <LogoMark className="mx-auto mb-6 size-10" />
        <h1 className="text-xl font-semibold">{t('errors.routeTitle')}</h1>
        <p className="mt-2 text-sm text-muted">{t('errors.routeBody')}</p>
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={() => window.location.reload()}>
            <RotateCcw className="size-4" aria-hidden />
            {t('common.reload')}
          </Button>
          <Link to="/" className={buttonClass('secondary')}>
            {t('common.home')}
          </Link>
        </div>
      </div>
    </main>
  );
}
