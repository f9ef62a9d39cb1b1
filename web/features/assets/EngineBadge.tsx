import { Cpu } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';

/** The engine named in a result's metadata (`engine`), or null when it says none. */
export function engineOf(metadata: Record<string, unknown> | null | undefined): string | null {
  const engine = metadata?.engine;
  return typeof engine === 'string' && engine.trim() ? engine : null;
}

/** Which engine made a result: "local" for the embedded engines, else the vendor (gemini, runway, …). */
export function EngineBadge({ engine, className }: { engine: string | null | undefined; className?: string }) {
  const { t } = useTranslation();
  if (!engine) return null;
  return (
    <span
      data-testid="engine-badge"
      data-engine={engine}
      className={cn('inline-flex items-center gap-1 text-[11px] font-medium', className)}
    >
      <Cpu className="size-3" aria-hidden />
      {t('assets.madeWith', { engine: t(`assets.engines.${engine}`, { defaultValue: engine }) })}
    </span>
  );
}
