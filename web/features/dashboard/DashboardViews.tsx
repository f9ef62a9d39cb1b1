// The dashboard's views below the heading: each is its own chunk, loaded when the view first opens (the opening
// view's chunk as soon as this one runs), with a spinner meanwhile.
import { lazy, type ReactNode, Suspense } from 'react';
import { type DashboardView, DEFAULT_DASHBOARD_VIEW } from '../../../common/api/app.constants.ts';
import { Spinner } from '../../ui/Spinner.tsx';

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

function ViewSuspense({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="mt-6 flex justify-center py-16" data-testid={testId}>
          <Spinner className="size-7" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/**
 * The open view. A gated one (brands and the campaign views, to creators not yet approved) stays out: the page
 * shows the approval gate instead.
 */
export function DashboardViews({ view, gated }: { view: DashboardView; gated: boolean }) {
  return (
    <>
      {view === 'creators' && (
        <ViewSuspense testId="workspace-home-loading">
          <WorkspaceHomeView />
        </ViewSuspense>
      )}
      {view === 'genproStudio' && (
        <ViewSuspense testId="studio-loading">
          <StudioView />
        </ViewSuspense>
      )}
      {view === 'library' && (
        <ViewSuspense testId="library-loading">
          <LibraryView />
        </ViewSuspense>
      )}
      {!gated && (view === 'campaignsPool' || view === 'myCampaigns') && (
        <ViewSuspense testId="campaigns-view-loading">
          {view === 'campaignsPool' ? <CampaignsPoolView /> : <MyCampaignsView />}
        </ViewSuspense>
      )}
      {view === 'chatWithGenPro' && (
        <ViewSuspense testId="chat-view-loading">
          <ChatView />
        </ViewSuspense>
      )}
      {view === 'aiPersonas' && (
        <ViewSuspense testId="personas-view-loading">
          <PersonasView />
        </ViewSuspense>
      )}
      {(view === 'community' ||
        (view === 'brands' && !gated) ||
        view === 'adminCreators' ||
        view === 'adminBrands' ||
        view === 'adminEngines' ||
        view === 'adminWorkers' ||
        view === 'adminPayouts') && (
        <ViewSuspense testId="directory-view-loading">
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
        </ViewSuspense>
      )}
    </>
  );
}
