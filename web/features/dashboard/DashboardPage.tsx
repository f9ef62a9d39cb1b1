import '../../i18n/en-features.ts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext, useSearchParams } from 'react-router';
import { DEFAULT_DASHBOARD_VIEW } from '../../../common/api/app.constants.ts';
import type { DashboardContext } from '../../api/auth.ts';
import { ApprovalBanner, ApprovalGate } from '../../ui/ApprovalBanner.tsx';
import { useAccountRoute } from '../../ui/account-route.ts';
import { LogoMark } from '../../ui/Logo.tsx';
import {
  approvalBanner,
  isViewGated,
  mobileMenuViews,
  mobileTabViews,
  resolveDashboardView,
  visibleViews,
} from '../../ui/navigation.ts';
import { SettingsControl } from '../../ui/SettingsControl.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useMediaQuery } from '../../ui/useMediaQuery.ts';
import { useSignOut } from '../../ui/useSignOut.ts';
import { useCancelledReturnNotices } from '../billing/returnNotices.ts';
import { CreditBalance } from './CreditBalance.tsx';
import { MobileNav } from './MobileNav.tsx';
import { Sidebar } from './Sidebar.tsx';
import { VIEW_ICONS } from './viewMeta.ts';

// The Creation Studio is its own chunk, loaded only when the genproStudio view opens.
const loadStudioView = () => import('../studio/StudioView.tsx');
const StudioView = lazy(loadStudioView);
// The AI personas directory (aiPersonas view) is its own chunk too.
const PersonasView = lazy(() => import('../personas/PersonasView.tsx'));
// The directories (community, brands) and the admin views are their own chunks too.
const CommunityView = lazy(() => import('../directory/CommunityView.tsx'));
const BrandsView = lazy(() => import('../directory/BrandsView.tsx'));
const AdminCreatorsView = lazy(() => import('../admin/AdminCreatorsView.tsx'));
const AdminBrandsView = lazy(() => import('../admin/AdminBrandsView.tsx'));
const AdminEnginesView = lazy(() => import('../admin/AdminEnginesView.tsx'));
const AdminWorkersView = lazy(() => import('../admin/AdminWorkersView.tsx'));
const AdminStorageView = lazy(() => import('../admin/AdminStorageView.tsx'));
const AdminPayoutsView = lazy(() => import('../payouts/AdminPayoutsView.tsx'));
// The campaigns pool and My Campaigns views are their own chunks too.
const CampaignsPoolView = lazy(() => import('../campaigns/CampaignsPoolView.tsx'));
const MyCampaignsView = lazy(() => import('../campaigns/MyCampaignsView.tsx'));
// The media library (library view) is its own chunk too.
const loadLibraryView = () => import('../library/LibraryView.tsx');
const LibraryView = lazy(loadLibraryView);
// The chat assistant (chatWithGenPro view) is its own chunk too.
const ChatView = lazy(() => import('../chat/ChatView.tsx'));
// The workspace home (creators view, where everyone lands) is its own chunk too.
const loadWorkspaceHomeView = () => import('../workspace-home/WorkspaceHomeView.tsx');
const WorkspaceHomeView = lazy(loadWorkspaceHomeView);
// The view the page opens on is fetched as soon as this chunk runs (the entry fetches this chunk while it reads who
// is signed in), rather than one round trip later when the view first renders: on a slow network that is the
// difference between one wait and three. Only the views every user may open; others load when they render.
const OPENING_VIEW_CHUNKS: Partial<Record<string, () => Promise<unknown>>> = {
  genproStudio: loadStudioView,
  library: loadLibraryView,
  [DEFAULT_DASHBOARD_VIEW]: loadWorkspaceHomeView,
};
void OPENING_VIEW_CHUNKS[new URLSearchParams(window.location.search).get('view') ?? DEFAULT_DASHBOARD_VIEW]?.();
// The Account and Settings dialog is its own chunk too, loaded when it is first opened.
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
  const Icon = VIEW_ICONS[view];
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
        <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-3 border-b border-line bg-bg/85 px-4 backdrop-blur-md md:px-8">
          {!isDesktop && <LogoMark className="size-7" />}
          <nav aria-label={t('nav.breadcrumb')} className="flex min-w-0 items-center gap-2 text-sm">
            <span className="hidden text-subtle sm:inline">{t('nav.dashboard')}</span>
            <span className="hidden text-line-strong sm:inline" aria-hidden>
              /
            </span>
            <span className="truncate font-medium">{title}</span>
          </nav>
          <div className="ms-auto flex items-center gap-2">
            {isDesktop ? (
              <SettingsControl />
            ) : (
              <CreditBalance credits={credits} variant="pill" onClick={() => account.open('billing')} />
            )}
          </div>
        </header>

        <main id="main" className="w-full max-w-6xl flex-1 px-4 pt-6 pb-28 md:px-8 md:pt-8 md:pb-12">
          {banner && <ApprovalBanner kind={banner} />}
          <div className="flex items-start gap-4">
            <span className="grid size-11 shrink-0 place-items-center rounded-xl border border-line bg-surface text-accent">
              <Icon className="size-5" aria-hidden />
            </span>
            <div className="min-w-0">
              <h1 data-testid="view-title" className="text-xl font-semibold tracking-tight md:text-2xl">
                {title}
              </h1>
              <p data-testid="view-description" className="mt-1 text-sm text-muted">
                {t(`views.${view}.description`)}
              </p>
            </div>
          </div>
          {gated && <ApprovalGate />}
          {view === 'creators' && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="workspace-home-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              <WorkspaceHomeView />
            </Suspense>
          )}
          {view === 'genproStudio' && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="studio-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              <StudioView />
            </Suspense>
          )}
          {view === 'library' && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="library-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              <LibraryView />
            </Suspense>
          )}
          {!gated && (view === 'campaignsPool' || view === 'myCampaigns') && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="campaigns-view-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              {view === 'campaignsPool' ? <CampaignsPoolView /> : <MyCampaignsView />}
            </Suspense>
          )}
          {view === 'chatWithGenPro' && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="chat-view-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              <ChatView />
            </Suspense>
          )}
          {view === 'aiPersonas' && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="personas-view-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              <PersonasView />
            </Suspense>
          )}
          {(view === 'community' ||
            (view === 'brands' && !gated) ||
            view === 'adminCreators' ||
            view === 'adminBrands' ||
            view === 'adminEngines' ||
            view === 'adminWorkers' ||
            view === 'adminPayouts') && (
            <Suspense
              fallback={
                <div className="mt-6 flex justify-center py-16" data-testid="directory-view-loading">
                  <Spinner className="size-7" />
                </div>
              }
            >
              {view === 'community' && <CommunityView />}
              {view === 'brands' && <BrandsView />}
              {view === 'adminCreators' && <AdminCreatorsView />}
              {view === 'adminBrands' && <AdminBrandsView />}
              {view === 'adminEngines' && <AdminEnginesView />}
              {view === 'adminWorkers' && (
                <>
                  <AdminWorkersView />
                  <AdminStorageView />
                </>
              )}
              {view === 'adminPayouts' && <AdminPayoutsView />}
            </Suspense>
          )}
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
