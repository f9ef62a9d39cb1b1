import { CircleAlert, Clock, LayoutGrid, Megaphone, ScanFace, Send, Sparkles, WandSparkles } from 'lucide-react';
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
  studioAction,
} from '../../../common/rules/studio.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { CreatorTab, useActionLabel } from './CreatorTab.tsx';
import { useDir } from './controls.tsx';
import { localizeMessage } from './localize.ts';
import { ToolPanel, ToolRail } from './SideTools.tsx';
import { useStudio } from './store.ts';

// The multi-image canvas is its own chunk (konva is large): downloaded only when the canvas opens.
const CanvasOverlay = lazy(() => import('../canvas/CanvasOverlay.tsx'));

const TAB_ICONS = { creator: WandSparkles, personas: ScanFace, campaigns: Megaphone, publish: Send } as const;

/** Personas, Campaigns and Publish are built by their own issues: say what they are for, and nothing more. */
function LaterTab({ tab }: { tab: Exclude<StudioTab, 'creator'> }) {
  const { t } = useTranslation();
  const actionLabel = useActionLabel();
  const Icon = TAB_ICONS[tab];
  const points = t(`studio.later.${tab}.points`, { returnObjects: true }) as string[];
  return (
    <div
      data-testid={`studio-later-${tab}`}
      className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-5 py-12 text-center sm:px-10"
    >
      <span className="mb-4 grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent">
        <Icon className="size-7" aria-hidden />
      </span>
      <h2 className="text-lg font-semibold">{t(`studio.tabs.${tab}`)}</h2>
      <p className="mt-2 max-w-lg text-sm leading-relaxed text-muted">{t(`studio.later.${tab}.purpose`)}</p>
      {Array.isArray(points) && (
        <ul className="mt-5 grid max-w-lg gap-2 text-start text-sm sm:grid-cols-2">
          {points.map((point) => (
            <li key={point} className="flex gap-2 rounded-lg bg-surface-2 px-3 py-2 text-fg/85">
              <Sparkles className="mt-0.5 size-3.5 shrink-0 text-accent" aria-hidden />
              {point}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-6 inline-flex items-center gap-1.5 rounded-full bg-surface-3 px-3 py-1 text-xs font-medium text-muted">
        <Clock className="size-3.5" aria-hidden />
        {t('studio.later.badge')}
      </p>
      <Button className="mt-5" disabled data-testid="generate-button" title={t('studio.later.badge')}>
        {actionLabel(studioAction(tab, 'image'), false)}
      </Button>
    </div>
  );
}

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
        <Tabs.List
          aria-label={t('studio.tabs.label')}
          className="flex gap-1 overflow-x-auto border-b border-line"
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
                  'relative -mb-px inline-flex h-11 shrink-0 items-center gap-2 border-b-2 border-transparent px-3.5 text-sm font-medium text-muted transition-colors',
                  'hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg',
                  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
                )}
              >
                <Icon className="size-4" aria-hidden />
                {t(`studio.tabs.${tab}`)}
                {tab === 'creator' && videoLoading && (
                  <span className="size-1.5 animate-pulse rounded-full bg-accent" title={t('studio.videoRunning')}>
                    <span className="sr-only">{t('studio.videoRunning')}</span>
                  </span>
                )}
              </Tabs.Trigger>
            );
          })}
        </Tabs.List>
        <Button variant="secondary" size="sm" className="mt-3" data-testid="open-canvas" onClick={openCanvas}>
          <LayoutGrid className="size-4" aria-hidden />
          {t('canvasEditor.open')}
        </Button>

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
            <Tabs.Content value="creator" className="focus-visible:outline-none">
              <CreatorTab mode={mode} onModeChange={(next) => update({ mode: next })} />
            </Tabs.Content>
            {(['personas', 'campaigns', 'publish'] as const).map((tab) => (
              <Tabs.Content key={tab} value={tab} className="focus-visible:outline-none">
                <LaterTab tab={tab} />
              </Tabs.Content>
            ))}
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
    </div>
  );
}
