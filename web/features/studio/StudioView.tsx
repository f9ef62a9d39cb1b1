import { CircleAlert, Clapperboard, LayoutGrid, Megaphone, ScanFace, Send, WandSparkles } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  parseStudioMode,
  parseStudioTab,
  STUDIO_TABS,
  type StudioMode,
  type StudioSideTool,
  type StudioTab,
} from '../../../common/rules/studio.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { SKIP_TARGET } from '../../ui/SkipLink.tsx';
import { CreatorTab } from './CreatorTab.tsx';
import { PanelLoading, ToolPanel, ToolRail } from './SideTools.tsx';
import { useStudio } from './store.ts';

// The multi-image canvas is its own chunk (konva is large): downloaded only when the canvas opens.
const CanvasOverlay = lazy(() => import('../canvas-editor/CanvasOverlay.tsx'));
const FilmStudioOverlay = lazy(() => import('../film/FilmStudioOverlay.tsx'));
// The tabs other than Creator are their own chunks too (the calendar's drag and drop alone is ~20 KB gzipped):
// the studio opens on Creator, so a creator who never leaves it never downloads them.
const PersonasTab = lazy(() => import('../personas/PersonasView.tsx').then((m) => ({ default: m.PersonasTab })));
const CampaignsTab = lazy(() => import('../campaigns/CampaignsTab.tsx').then((m) => ({ default: m.CampaignsTab })));
const WorkspacePanel = lazy(() =>
  import('../workspace/WorkspacePanel.tsx').then((m) => ({ default: m.WorkspacePanel })),
);
const PublishTab = lazy(() => import('../publishing/PublishTab.tsx').then((m) => ({ default: m.PublishTab })));

const TAB_ICONS = { creator: WandSparkles, personas: ScanFace, campaigns: Megaphone, publish: Send } as const;

// Each panel holds focusable controls, so the panel itself is no Tab stop (it took the focus unseen); the
// skip link lands on the open one, three Tabs from the prompt instead of ten.
const PANEL = { tabIndex: -1, [SKIP_TARGET]: '' } as const;

/** The Creation Studio (dashboard view genproStudio): tabs and mode kept in the URL, side-tool rail. */
export default function StudioView() {
  const { t } = useTranslation();
  const dir = useDir();
  const [params, setParams] = useSearchParams();
  const parsedTab = parseStudioTab(params.get('tab'));
  const mode = parseStudioMode(params.get('mode'));
  const [tool, setTool] = useState<StudioSideTool | null>(null);
  const videoLoading = useStudio((s) => s.generations.video.phase === 'loading');

  const canvasOpen = params.get('canvas') === '1';
  const openCanvas = () =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('canvas', '1');
      return next;
    });

  const filmOpen = params.get('film') === '1';
  const setFilm = (open: boolean) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (open) next.set('film', '1');
      else next.delete('film');
      return next;
    });

  const update = (patch: { tab?: StudioTab; mode?: StudioMode }) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (patch.tab) next.set('tab', patch.tab);
        if (patch.mode) next.set('mode', patch.mode);
        return next;
      },
      { replace: true },
    );

  // Write the defaults into the URL so it always says where the user is (…&tab=creator&mode=image).
  const tabParam = params.get('tab');
  const modeParam = params.get('mode');
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the URL lacks them
  useEffect(() => {
    if (tabParam === null || modeParam !== mode) {
      update({ tab: tabParam === null ? 'creator' : undefined, mode });
    }
  }, [tabParam, modeParam, mode]);

  return (
    <div data-testid="studio" data-tab={parsedTab.ok ? parsedTab.tab : 'invalid'} data-mode={mode} className="mt-6">
      <Tabs.Root
        dir={dir}
        value={parsedTab.ok ? parsedTab.tab : ''}
        onValueChange={(value) => update({ tab: value as StudioTab })}
        activationMode="manual"
      >
        {/* Phones: the four tabs share the width (icon over label), so none is pushed off screen. */}
        <Tabs.List
          aria-label={t('studio.tabs.label')}
          className="grid grid-cols-4 border-b border-line sm:flex sm:gap-1 sm:overflow-x-auto"
          data-testid="studio-tabs"
        >
          {STUDIO_TABS.map((tab) => {
            const Icon = TAB_ICONS[tab];
            return (
              <Tabs.Trigger
                key={tab}
                value={tab}
                data-testid={`studio-tab-${tab}`}
                className={cn(
                  'relative -mb-px flex min-w-0 flex-col items-center justify-center gap-1 border-b-2 border-transparent px-1 py-2 text-xs font-medium text-muted transition-colors',
                  'sm:inline-flex sm:h-11 sm:shrink-0 sm:flex-row sm:gap-2 sm:px-3.5 sm:py-0 sm:text-sm',
                  'hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg',
                  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
                )}
              >
                <span className="relative">
                  <Icon className="size-4" aria-hidden />
                  {tab === 'creator' && videoLoading && (
                    <span
                      className="absolute -end-1 -top-1 size-1.5 animate-pulse rounded-full bg-accent"
                      title={t('studio.videoRunning')}
                    >
                      <span className="sr-only">{t('studio.videoRunning')}</span>
                    </span>
                  )}
                </span>
                <span className="max-w-full truncate">{t(`studio.tabs.${tab}`)}</span>
              </Tabs.Trigger>
            );
          })}
        </Tabs.List>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" data-testid="open-canvas" onClick={openCanvas}>
            <LayoutGrid className="size-4" aria-hidden />
            {t('canvasEditor.open')}
          </Button>
          <Button variant="secondary" size="sm" data-testid="open-film-studio" onClick={() => setFilm(true)}>
            <Clapperboard className="size-4" aria-hidden />
            {t('film.open')}
          </Button>
        </div>

        <div className="mt-5 flex flex-col gap-4 lg:flex-row lg:items-start">
          <ToolRail active={tool} onToggle={(next) => setTool((current) => (current === next ? null : next))} />
          {tool && <ToolPanel tool={tool} onClose={() => setTool(null)} />}
          <div className="min-w-0 flex-1">
            {!parsedTab.ok && (
              <div
                role="alert"
                data-testid="studio-tab-error"
                className="flex flex-col items-center rounded-2xl border border-danger/30 bg-danger-soft px-6 py-12 text-center"
              >
                <CircleAlert className="mb-3 size-8 text-danger" aria-hidden />
                <p className="text-base font-semibold text-fg">{localizeMessage(parsedTab.error)}</p>
                <p className="mt-1 text-sm text-muted">{t('studio.invalidTabBody')}</p>
                <Button className="mt-5" variant="secondary" onClick={() => update({ tab: 'creator' })}>
                  {t('studio.openCreator')}
                </Button>
              </div>
            )}
            <Tabs.Content value="creator" {...PANEL}>
              <CreatorTab mode={mode} onModeChange={(next) => update({ mode: next })} />
            </Tabs.Content>
            <Tabs.Content value="personas" {...PANEL}>
              <Suspense fallback={<PanelLoading testId="studio-tab-loading" />}>
                <PersonasTab />
              </Suspense>
            </Tabs.Content>
            <Tabs.Content value="campaigns" {...PANEL} className="space-y-4">
              <Suspense fallback={<PanelLoading testId="studio-tab-loading" />}>
                <CampaignsTab
                  workspace={
                    <Suspense fallback={<PanelLoading testId="workspace-loading" />}>
                      <WorkspacePanel />
                    </Suspense>
                  }
                />
              </Suspense>
            </Tabs.Content>
            <Tabs.Content value="publish" {...PANEL}>
              <Suspense fallback={<PanelLoading testId="studio-tab-loading" />}>
                <PublishTab />
              </Suspense>
            </Tabs.Content>
          </div>
        </div>
      </Tabs.Root>
      {canvasOpen && (
        <Suspense
          fallback={<div className="fixed inset-0 z-40 bg-bg" role="status" aria-label={t('canvasEditor.loading')} />}
        >
          <CanvasOverlay />
        </Suspense>
      )}
      {filmOpen && (
        <Suspense fallback={<div className="fixed inset-0 z-40 bg-bg" role="status" aria-label={t('film.loading')} />}>
          <FilmStudioOverlay onClose={() => setFilm(false)} />
        </Suspense>
      )}
    </div>
  );
}
