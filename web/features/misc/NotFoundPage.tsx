import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../api/session.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { PublicHeader } from '../../ui/PublicHeader.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);

  useEffect(() => {
    document.title = `${t('notFound.title')} · GenPro Studio`;
  }, [t]);

  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="grid flex-1 place-items-center px-4 py-16" data-testid="not-found">
        <div className="text-center">
          <p className="text-brand-gradient text-7xl font-bold tracking-tight sm:text-8xl">404</p>
          <h1 className="mt-4 text-2xl font-semibold">{t('notFound.title')}</h1>
          <p className="mx-auto mt-2 max-w-sm text-muted">{t('notFound.body')}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/" className={buttonClass('secondary')}>
              <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden />
              {t('common.home')}
            </Link>
            {token && (
              <Link to="/dashboard" className={buttonClass('primary')}>
                {t('home.openDashboard')}
              </Link>
            )}
          </div>
        </div>
      </main>
    </div>
  );
}
