import { Cpu } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { EngineModelKind } from '../../common/api/engines.ts';
import { useModelEngines } from '../api/engines.ts';
import { useCreditsText } from '../i18n/format.ts';
import { cn } from './cn.ts';

/** The engine named in a result's metadata (`engine`), or null when it says none. */
export function engineOf(metadata: Record<string, unknown> | null | undefined): string | null {
  const engine = metadata?.engine;
  return typeof engine === 'string' && engine.trim() ? engine : null;
}

/** Which engine made a result: "the local preview engine" for the embedded engines, else the vendor (Google, Runway, …). */
export function EngineBadge({ engine, className }: { engine: string | null | undefined; className?: string }) {
  const { t } = useTranslation();
  const { engineLabel } = useModelEngines();
  if (!engine) return null;
  return (
    <span
      data-testid="engine-badge"
      data-engine={engine}
      className={cn('inline-flex items-center gap-1 text-xs font-medium', className)}
    >
      <Cpu className="size-3" aria-hidden />
      {t('assets.madeWith', { engine: engineLabel(engine) })}
    </span>
  );
}

/**
 * The model a tool calls, labelled with the engine that will serve it ("Nano Banana (local preview)"),
 * and what the call costs there — for tools without a model picker (Magic Selector, Multi-Reference,
 * video enhance).
 */
export function EngineNote({
  kind,
  model,
  credits,
  className,
}: {
  kind: EngineModelKind;
  model: string;
  /** The call's price on that engine, when the note shows it. */
  credits?: number;
  className?: string;
}) {
  const engine = useModelEngines().model(kind, model);
  const creditsText = useCreditsText();
  return (
    <p
      data-testid="engine-note"
      data-engine-kind={engine.engineKind ?? undefined}
      className={cn('flex items-center gap-1 text-xs text-muted', className)}
    >
      <Cpu className="size-3 shrink-0" aria-hidden />
      <span dir="ltr">{engine.label}</span>
      {credits !== undefined && <span>· {creditsText(credits)}</span>}
    </p>
  );
}
