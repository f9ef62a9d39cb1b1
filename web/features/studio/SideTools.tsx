import { Layers, type LucideIcon, MousePointerClick, Smartphone, UsersRound } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { STUDIO_SIDE_TOOLS, type StudioSideTool } from '../../../common/rules/studio.ts';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';

// Each side tool is its own chunk, downloaded the first time it is opened: most sessions open one or none.
const MagicSelectorPanel = lazy(() =>
  import('../magic-selector/MagicSelectorPanel.tsx').then((m) => ({ default: m.MagicSelectorPanel })),
);
const MultiReferencePanel = lazy(() =>
  import('../multi-reference/MultiReferencePanel.tsx').then((m) => ({ default: m.MultiReferencePanel })),
);
const CharactersPanel = lazy(() =>
  import('../characters/CharactersPanel.tsx').then((m) => ({ default: m.CharactersPanel })),
);
const UgcVideoPanel = lazy(() => import('../ugc-video/UgcVideoPanel.tsx').then((m) => ({ default: m.UgcVideoPanel })));

const TOOL_ICONS: Record<StudioSideTool, LucideIcon> = {
  magicSelector: MousePointerClick,
  ugcVideo: Smartphone,
  characters: UsersRound,
  multiReference: Layers,
};

/** The rail of side tools (spec 2.2): one can be open at a time; pressing it again closes it. */
export function ToolRail({
  active,
  onToggle,
}: {
  active: StudioSideTool | null;
  onToggle: (tool: StudioSideTool) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav
      aria-label={t('studio.tools.rail')}
      className="grid shrink-0 grid-cols-4 gap-1 rounded-2xl border border-line bg-surface p-1.5 sm:flex sm:gap-1.5 sm:overflow-x-auto lg:sticky lg:top-20 lg:flex-col lg:self-start"
      data-testid="tool-rail"
    >
      {STUDIO_SIDE_TOOLS.map((tool) => {
        const Icon = TOOL_ICONS[tool];
        const pressed = active === tool;
        const label = t(`studio.tools.${tool}.title`);
        return (
          <button
            key={tool}
            type="button"
            aria-pressed={pressed}
            onClick={() => onToggle(tool)}
            title={label}
            data-testid={`tool-${tool}`}
            className={cn(
              'flex min-w-0 flex-col items-center gap-1 rounded-xl px-1 py-2 text-center text-xs leading-tight font-medium transition-colors',
              'sm:shrink-0 sm:flex-row sm:gap-2 sm:px-3 sm:text-xs lg:size-12 lg:flex-col lg:justify-center lg:gap-0.5 lg:p-0',
              pressed ? 'bg-accent text-accent-fg' : 'text-muted hover:bg-surface-2 hover:text-fg',
            )}
          >
            <Icon className="size-[18px] shrink-0" aria-hidden />
            <span className="lg:sr-only">{label}</span>
          </button>
        );
      })}
    </nav>
  );
}

/** Stands in for a panel whose chunk is still downloading: a spinner announced as "Loading…". */
export function PanelLoading({ testId, label, className }: { testId: string; label?: string; className?: string }) {
  return (
    <div
      className={cn(
        'flex min-h-40 items-center justify-center rounded-2xl border border-line bg-surface py-12',
        className,
      )}
      data-testid={testId}
    >
      <Spinner className="size-7" label={label} />
    </div>
  );
}

/** The open side tool's panel (its chunk is fetched the first time it opens). */
export function ToolPanel({ tool, onClose }: { tool: StudioSideTool; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <PanelLoading
          testId="tool-panel-loading"
          // The side panels' own width (ToolPanelLayout), so the prompt beside does not jump when one arrives.
          className="w-full shrink-0 lg:w-80"
          label={t('studio.tools.loadingTool', { tool: t(`studio.tools.${tool}.title`) })}
        />
      }
    >
      <ToolPanelOf tool={tool} onClose={onClose} />
    </Suspense>
  );
}

function ToolPanelOf({ tool, onClose }: { tool: StudioSideTool; onClose: () => void }) {
  switch (tool) {
    case 'magicSelector':
      return <MagicSelectorPanel onClose={onClose} />;
    case 'multiReference':
      return <MultiReferencePanel onClose={onClose} />;
    case 'characters':
      return <CharactersPanel onClose={onClose} />;
    case 'ugcVideo':
      return <UgcVideoPanel onClose={onClose} />;
  }
}
