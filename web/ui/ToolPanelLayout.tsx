import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { ToolPanelHeader } from './ToolPanelHeader.tsx';

/**
 * The two layouts of a canvas tool: in the editor tab (`tab`) the header over `main` beside the `side`
 * card; otherwise a sticky side panel with the header and `panel` stacked. `data-busy` tells tests a call runs.
 */
export function ToolPanelLayout({
  testId,
  icon,
  title,
  description,
  onClose,
  busy,
  tab,
  main,
  side,
  panel,
}: {
  testId: string;
  icon: LucideIcon;
  title: string;
  description: string;
  onClose?: () => void;
  busy: boolean;
  tab: boolean;
  main: ReactNode;
  side: ReactNode;
  panel: ReactNode;
}) {
  const titleId = `${testId}-title`;
  const header = (
    <ToolPanelHeader icon={icon} title={title} titleId={titleId} description={description} onClose={onClose} />
  );
  if (tab) {
    return (
      <section
        data-testid={testId}
        data-layout="tab"
        aria-labelledby={titleId}
        data-busy={busy ? 'true' : 'false'}
        className="min-w-0 space-y-4"
      >
        {header}
        <div className="flex min-w-0 flex-col gap-4 lg:flex-row lg:items-start">
          {main}
          <div className="w-full min-w-0 shrink-0 space-y-3 rounded-2xl border border-line bg-surface p-4 lg:w-80">
            {side}
          </div>
        </div>
      </section>
    );
  }
  return (
    <aside
      data-testid={testId}
      aria-labelledby={titleId}
      data-busy={busy ? 'true' : 'false'}
      className="min-w-0 shrink-0 space-y-3 rounded-2xl border border-line bg-surface p-4 lg:sticky lg:top-20 lg:w-80 lg:self-start"
    >
      {header}
      {panel}
    </aside>
  );
}
