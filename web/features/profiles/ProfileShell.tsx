import { ArrowLeft, CircleAlert, LogIn, SearchX } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { marketMessage } from '../../i18n/market-messages.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { PublicHeader } from '../../ui/PublicHeader.tsx';
import { Spinner } from '../../ui/Spinner.tsx';

function Panel({ icon, message, children }: { icon: ReactNode; message: string; children?: ReactNode }) {
  return (
    <div
      role="alert"
      data-testid="profile-problem"
      className="mt-8 flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-14 text-center"
    >
      <span className="mb-4 grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">{icon}</span>
      <p className="max-w-md text-sm font-medium text-fg">{message}</p>
      {children && <div className="mt-5 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}

interface ProfileQuery {
  isPending: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => Promise<unknown>;
}

/**
 * The frame of a public profile page: header, a way back, and the states before the profile shows
 * (signed out, loading, not found, failed with a retry).
 */
export function ProfileShell({
  title,
  signedIn,
  query,
  children,
}: {
  title: string | null;
  signedIn: boolean;
  query: ProfileQuery;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const heading = title ?? t('profiles.title');

  useEffect(() => {
    document.title = `${heading} · GenPro Studio`;
  }, [heading]);

  let body: ReactNode;
  if (!signedIn) {
    body = (
      <Panel icon={<LogIn className="size-6 rtl:-scale-x-100" aria-hidden />} message={t('profiles.loginRequired')}>
        <Link to="/auth/login" state={{ from: location.pathname }} className={buttonClass('primary')}>
          {t('auth.login.submit')}
        </Link>
      </Panel>
    );
  } else if (query.isPending) {
    body = (
      <div className="flex justify-center py-24" data-testid="profile-loading">
        <Spinner className="size-7" />
      </div>
    );
  } else if (query.error) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    body = notFound ? (
      <Panel
        icon={<SearchX className="size-6" aria-hidden />}
        message={marketMessage(MESSAGES.directory.profileNotFound)}
      />
    ) : (
      <Panel icon={<CircleAlert className="size-6" aria-hidden />} message={translateMessage(query.error.message)}>
        <Button variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('common.retry')}
        </Button>
      </Panel>
    );
  } else {
    body = children;
  }

  return (
    <div className="min-h-dvh">
      <PublicHeader />
      <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
        <button
          type="button"
          // Back to where the visitor came from inside the app; a direct visit goes to the dashboard.
          onClick={() => (location.key === 'default' ? navigate('/dashboard') : navigate(-1))}
          className={cn(
            'inline-flex items-center gap-1.5 rounded-md text-sm text-muted hover:text-fg',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
          )}
          data-testid="profile-back"
        >
          <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden />
          {t('profiles.back')}
        </button>
        {body}
      </main>
    </div>
  );
}

/** A titled block of the profile body. */
export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-2xl border border-line bg-surface p-5" data-testid={testId}>
      <h2 className="mb-3 text-sm font-semibold text-fg">{title}</h2>
      {children}
    </section>
  );
}

/** A label and value row of the profile's facts; hidden when the value is unknown. */
export function FactRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <div className="flex items-start gap-3 py-2">
      <span className="mt-0.5 text-subtle">{icon}</span>
      <div className="min-w-0">
        <dt className="text-xs text-subtle">{label}</dt>
        <dd className="break-words text-sm text-fg">
          <bdi>{children}</bdi>
        </dd>
      </div>
    </div>
  );
}
