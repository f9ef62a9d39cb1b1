import '../../i18n/en-features.ts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext, useSearchParams } from 'react-router';
import type { DashboardContext } from '../../api/auth.ts';
import { ApprovalBanner, ApprovalGate } from '../../ui/ApprovalBanner.tsx';
import { useAccountRoute } from '../../ui/account-route.ts';
import {
  approvalBanner,
  isViewGated,
  mobileMenuViews,
  mobileTabViews,
  resolveDashboardView,
  visibleViews,
} from '../../ui/navigation.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { useMediaQuery } from '../../ui/useMediaQuery.ts';
import { useSignOut } from '../../ui/useSignOut.ts';
import { useCancelledReturnNotices } from '../billing/returnNotices.ts';
import { DashboardHeader, ViewHeading } from './DashboardHeader.tsx';
import { DashboardViews } from './DashboardViews.tsx';
import { MobileNav } from './MobileNav.tsx';
import { Sidebar } from './Sidebar.tsx';

// The Account and Settings dialog is its own chunk (as are the views: DashboardViews.tsx), loaded when it is first
// opened.
const AccountDialog = lazy(() => import('../account/AccountDialog.tsx'));

const COLLAPSED_KEY = 'sidebar_collapsed';

function useCollapsedSidebar() {
  const [collapsed, setCollapsed] = useState(() => {
    try {
      return localStorage.getItem(COLLAPSED_KEY) === 'true';
    } catch {
      return false;
    }
  });
  const toggle = () =>
    setCollapsed((value) => {
      try {
        localStorage.setItem(COLLAPSED_KEY, String(!value));
      } catch {
        // ignore: the state then lasts for this page only
      }
      return !value;
    });
  return [collapsed, toggle] as const;
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const me = useOutletContext<DashboardContext>();
  const { user, credits } = me;
  const account = useAccountRoute();
  useCancelledReturnNotices(true, true);
  const [params] = useSearchParams();
  const view = resolveDashboardView(user, params.get('view'));
  const isDesktop = useMediaQuery('(min-width: 768px)');
  const [collapsed, toggleCollapsed] = useCollapsedSidebar();
  const [menuOpen, setMenuOpen] = useState(false);
  const { signOut, pending: signingOut } = useSignOut();

  const banner = approvalBanner(user);
  const gated = isViewGated(user, view);
  const title = t(`views.${view}.title`);

  useEffect(() => {
    document.title = `${title} · GenPro Studio`;
  }, [title]);

  // Leaving the mobile layout closes the full-screen menu.
  useEffect(() => {
    if (isDesktop) setMenuOpen(false);
  }, [isDesktop]);

  return (
    <div className="flex min-h-dvh" data-testid="dashboard-shell" data-view={view}>
      {isDesktop && (
        <Sidebar
          user={user}
          credits={credits}
          views={visibleViews(user)}
          active={view}
          collapsed={collapsed}
          onToggle={toggleCollapsed}
          onSignOut={signOut}
          signingOut={signingOut}
          onOpenAccount={account.open}
        />
      )}

      <div className="flex min-w-0 flex-1 flex-col">
        <DashboardHeader
          title={title}
          isDesktop={isDesktop}
          credits={credits}
          onOpenBilling={() => account.open('billing')}
        />

        <main id="main" className="w-full max-w-6xl flex-1 px-4 pt-6 pb-28 md:px-8 md:pt-8 md:pb-12">
          {banner && <ApprovalBanner kind={banner} />}
          <ViewHeading view={view} title={title} />
          {gated && <ApprovalGate />}
          <DashboardViews view={view} gated={gated} />
        </main>
      </div>

      {!isDesktop && (
        <MobileNav
          user={user}
          credits={credits}
          tabs={mobileTabViews(user)}
          menuViews={mobileMenuViews(user)}
          active={view}
          menuOpen={menuOpen}
          onMenuOpenChange={setMenuOpen}
          onSignOut={signOut}
          signingOut={signingOut}
          onOpenAccount={account.open}
        />
      )}

      {account.tab && (
        <Suspense
          fallback={
            <div className="fixed inset-0 z-50 grid place-items-center bg-bg" data-testid="account-loading">
              <Spinner className="size-7" />
            </div>
          }
        >
          <AccountDialog
            me={me}
            tab={account.tab}
            onTabChange={(tab) => account.open(tab, true)}
            onClose={account.close}
          />
        </Suspense>
      )}
    </div>
  );
}
