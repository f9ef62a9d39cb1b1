import { type LucideIcon, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * The head of a side-tool panel: icon, title (its id labels the panel), description and, when the panel
 * can be closed, the close button (`tool-panel-close`). Shared by every studio side tool.
 */
export function ToolPanelHeader({
  icon: Icon,
  title,
  titleId,
  description,
  onClose,
}: {
  icon: LucideIcon;
  title: string;
  titleId: string;
  description: string;
  onClose?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start gap-3">
      <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="text-sm font-semibold">
          {title}
        </h2>
        <p className="mt-0.5 text-xs leading-relaxed text-muted">{description}</p>
      </div>
      {onClose && (
        <button
          type="button"
          onClick={onClose}
          aria-label={t('common.close')}
          className="grid size-8 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
          data-testid="tool-panel-close"
        >
          <X className="size-4" aria-hidden />
        </button>
      )}
    </div>
  );
}
