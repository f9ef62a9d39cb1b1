import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../api/session.ts';
import { buttonClass } from './Button.tsx';
import { Logo } from './Logo.tsx';
import { SettingsControl } from './SettingsControl.tsx';

/** Top bar of the public pages: logo, theme and language, and log-in / dashboard links. */
export function PublicHeader() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  return (
    <header className="sticky top-0 z-30 border-b border-line/60 bg-bg/75 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Logo className="me-auto" compactOnMobile />
        <SettingsControl />
        {token ? (
          <Link to="/dashboard" className={buttonClass('primary', 'sm', 'hidden sm:inline-flex')}>
            {t('home.openDashboard')}
          </Link>
        ) : (
          <div className="hidden items-center gap-2 sm:flex">
            <Link to="/auth/login" className={buttonClass('ghost', 'sm')}>
              {t('auth.login.submit')}
            </Link>
            <Link to="/auth/register" className={buttonClass('primary', 'sm')}>
              {t('auth.register.cta')}
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}
