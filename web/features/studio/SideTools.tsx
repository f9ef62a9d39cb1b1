import { Clock, Layers, type LucideIcon, MousePointerClick, Smartphone, UsersRound, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { STUDIO_SIDE_TOOLS, type StudioSideTool } from '../../../common/rules/studio.ts';
import { cn } from '../../ui/cn.ts';
import { CharactersPanel } from '../characters/CharactersPanel.tsx';
import { MagicSelectorPanel } from '../magic-selector/MagicSelectorPanel.tsx';
import { MultiReferencePanel } from '../multi-reference/MultiReferencePanel.tsx';

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
      className="flex shrink-0 gap-1.5 overflow-x-auto rounded-2xl border border-line bg-surface p-1.5 lg:sticky lg:top-20 lg:flex-col lg:self-start"
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
              'flex shrink-0 items-center gap-2 rounded-xl px-3 py-2 text-xs font-medium transition-colors lg:size-12 lg:flex-col lg:justify-center lg:gap-0.5 lg:p-0',
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

/** A side tool's panel: what it is for. The tools themselves are built by later issues; nothing here pretends to work. */
export function ToolPanel({ tool, onClose }: { tool: StudioSideTool; onClose: () => void }) {
  if (tool === 'magicSelector') return <MagicSelectorPanel onClose={onClose} />;
  return <PlaceholderPanel tool={tool} onClose={onClose} />;
}

function PlaceholderPanel({ tool, onClose }: { tool: StudioSideTool; onClose: () => void }) {
  const { t } = useTranslation();
  if (tool === 'multiReference') return <MultiReferencePanel onClose={onClose} />;
  const Icon = TOOL_ICONS[tool];
  const points = t(`studio.tools.${tool}.points`, { returnObjects: true }) as string[];
  if (tool === 'characters') return <CharactersPanel onClose={onClose} />;
  return (
    <aside
      data-testid="tool-panel"
      data-tool={tool}
      aria-labelledby={`tool-panel-${tool}`}
      className="min-w-0 shrink-0 rounded-2xl border border-line bg-surface p-4 lg:sticky lg:top-20 lg:w-72 lg:self-start"
    >
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={`tool-panel-${tool}`} className="text-sm font-semibold">
            {t(`studio.tools.${tool}.title`)}
          </h2>
          <p className="mt-0.5 text-xs leading-relaxed text-muted">{t(`studio.tools.${tool}.description`)}</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('common.close')}
          className="grid size-8 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
          data-testid="tool-panel-close"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {Array.isArray(points) && points.length > 0 && (
        <ul className="mt-4 space-y-1.5 text-xs leading-relaxed text-fg/85">
          {points.map((point) => (
            <li key={point} className="flex gap-2">
              <span className="mt-1.5 size-1 shrink-0 rounded-full bg-accent" aria-hidden />
              {point}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-4 inline-flex items-center gap-1.5 rounded-full bg-surface-3 px-2.5 py-1 text-[11px] font-medium text-muted">
        <Clock className="size-3" aria-hidden />
        {t('studio.later.badge')}
      </p>
    </aside>
  );
}
