import { useQueryClient } from '@tanstack/react-query';
import { CreditCard, LifeBuoy, LockKeyhole, LogIn, LogOut, RefreshCw, WifiOff } from 'lucide-react';
import { type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { DASHBOARD_RETURN_FLAGS } from '../../common/api/app.constants.ts';
import { MESSAGES } from '../../common/messages.ts';
import { useAccountEvents } from '../api/account-events.ts';
import { type DashboardContext, meQueryKey, useMe } from '../api/auth.ts';
import { useSession } from '../api/session.ts';
import { SubscribeButton } from '../features/billing/SubscribeButton.tsx';
import { translateMessage } from '../i18n/index.ts';
import { Button, buttonClass } from '../ui/Button.tsx';
import { LogoMark } from '../ui/Logo.tsx';
import { needsSubscription } from '../ui/navigation.ts';
import { SettingsControl } from '../ui/SettingsControl.tsx';
import { useSignOut } from '../ui/useSignOut.ts';
import { BrowserAlerts } from './BrowserAlerts.tsx';
import { DashboardSkeleton } from './DashboardSkeleton.tsx';

/** Flags of a return from a checkout; such a return opens the Account dialog's Billing tab, where the result shows. */
const PAYMENT_RETURN_FLAGS: readonly string[] = ['subscription', 'topup', 'wallet_topup'];

/**
 * Returns from payment and onboarding (`?subscription=success` etc.) refresh /api/auth/me and then drop the
 * flags from the URL, keeping `view`; a payment return opens Billing (`account=billing`) with a success toast.
 * Runs before the subscription gate so a fresh subscription lets the user in.
 */
function useReturnFlags(enabled: boolean) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const succeeded = DASHBOARD_RETURN_FLAGS.filter((flag) => params.get(flag) === 'success');
  const key = succeeded.join(',');
  const handled = useRef('');

  useEffect(() => {
    if (!enabled || !key || handled.current === key) return;
    handled.current = key;
    void queryClient.invalidateQueries({ queryKey: meQueryKey }).finally(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const flag of DASHBOARD_RETURN_FLAGS) next.delete(flag);
          if (key.split(',').some((flag) => PAYMENT_RETURN_FLAGS.includes(flag))) next.set('account', 'billing');
          return next;
        },
        { replace: true },
      );
      for (const flag of key.split(',')) toast.success(t(`dashboard.returnFlags.${flag}`));
      handled.current = '';
    });
  }, [enabled, key, queryClient, setParams, t]);

  return succeeded.length > 0;
}

function GatePanel({
  testId,
  icon,
  title,
  body,
  children,
}: {
  testId: string;
  icon: ReactNode;
  title: string;
  body: string;
  children: ReactNode;
}) {
  return (
    <main className="relative grid min-h-dvh place-items-center px-4 py-16" data-testid={testId}>
      <div className="absolute end-4 top-4">
        <SettingsControl />
      </div>
      <div className="w-full max-w-md rounded-2xl border border-line bg-surface p-6 text-center shadow-xl shadow-black/10 sm:p-8">
        <div className="relative mx-auto mb-5 w-fit">
          <LogoMark className="size-12" />
          <span className="absolute -bottom-1.5 -end-1.5 grid size-7 place-items-center rounded-full border-2 border-surface bg-surface-3 text-fg">
            {icon}
          </span>
        </div>
        <h1 className="text-lg font-semibold">{title}</h1>
        <p className="mt-2 text-sm leading-relaxed text-muted" data-testid={`${testId}-message`}>
          {body}
        </p>
        <div className="mt-6 flex flex-col justify-center gap-2.5 sm:flex-row">{children}</div>
      </div>
    </main>
  );
}

function LoginRequired() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <GatePanel
      testId="login-required"
      icon={<LockKeyhole className="size-3.5" aria-hidden />}
      title={t('guard.loginTitle')}
      body={translateMessage(MESSAGES.auth.pleaseLogIn)}
    >
      <Link to="/auth/login" state={{ from: location.pathname + location.search }} className={buttonClass('primary')}>
        <LogIn className="size-4 rtl:-scale-x-100" aria-hidden />
        {t('auth.login.submit')}
      </Link>
      <Link to="/auth/register" className={buttonClass('secondary')}>
        {t('auth.register.cta')}
      </Link>
    </GatePanel>
  );
}

function LogoutButton({ variant }: { variant: 'secondary' | 'ghost' }) {
  const { t } = useTranslation();
  const { signOut, pending } = useSignOut();
  return (
    <Button variant={variant} onClick={signOut} loading={pending} data-testid="logout-button">
      <LogOut className="size-4 rtl:-scale-x-100" aria-hidden />
      {t('nav.logout')}
    </Button>
  );
}

function LoadFailed({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation();
  return (
    <GatePanel
      testId="dashboard-error"
      icon={<WifiOff className="size-3.5" aria-hidden />}
      title={t('guard.loadFailedTitle')}
      body={translateMessage(message)}
    >
      <Button onClick={onRetry} loading={retrying}>
        <RefreshCw className="size-4" aria-hidden />
        {t('common.retry')}
      </Button>
      <LogoutButton variant="secondary" />
    </GatePanel>
  );
}

function SubscriptionRequired({ onRefresh, refreshing }: { onRefresh: () => void; refreshing: boolean }) {
  const { t } = useTranslation();
  return (
    <GatePanel
      testId="subscription-required"
      icon={<CreditCard className="size-3.5" aria-hidden />}
      title={t('guard.subscriptionTitle')}
      body={translateMessage(MESSAGES.subscription.required)}
    >
      <div className="flex w-full flex-col gap-2.5">
        <SubscribeButton announceReturns />
        <div className="flex flex-col justify-center gap-2.5 sm:flex-row">
          <Button variant="secondary" onClick={onRefresh} loading={refreshing}>
            <RefreshCw className="size-4" aria-hidden />
            {t('guard.checkAgain')}
          </Button>
          <Link to="/contact" className={buttonClass('secondary')}>
            <LifeBuoy className="size-4" aria-hidden />
            {t('nav.contactSupport')}
          </Link>
          <LogoutButton variant="ghost" />
        </div>
      </div>
    </GatePanel>
  );
}

/**
 * Gate for /dashboard*: no token → "Please log in" message; unverified → /auth/verify;
 * no active subscription (non-admins) → subscription panel; else the page.
 */
export function DashboardGuard({ prefetchIndexPage }: { prefetchIndexPage?: () => void }) {
  const token = useSession((s) => s.token);
  const me = useMe();
  const returning = useReturnFlags(Boolean(token));
  // An admin's approval, a role or credits change, a payout…: the open page shows it without a reload.
  useAccountEvents(Boolean(token && me.data?.user.is_verified));
  // The dashboard page's chunk is fetched while /me is read, not after its answer (nothing renders before it, and
  // on a slow network each wait in turn costs a round trip). An effect after useMe's, so /me is asked first.
  useEffect(() => {
    if (token && window.location.pathname === '/dashboard') prefetchIndexPage?.();
  }, [token, prefetchIndexPage]);

  if (!token) return <LoginRequired />;
  if (returning && me.isFetching) return <DashboardSkeleton />;
  if (!me.data) {
    if (me.isError) {
      return <LoadFailed message={me.error.message} onRetry={() => me.refetch()} retrying={me.isFetching} />;
    }
    return <DashboardSkeleton />;
  }

  const { user } = me.data;
  if (!user.is_verified) return <Navigate to="/auth/verify" replace state={{ email: user.email }} />;
  if (needsSubscription(user))
    return <SubscriptionRequired onRefresh={() => me.refetch()} refreshing={me.isFetching} />;

  return (
    <Suspense fallback={<DashboardSkeleton />}>
      <BrowserAlerts />
      <Outlet context={me.data satisfies DashboardContext} />
    </Suspense>
  );
}
