import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { cn } from './cn.ts';

// What the local preview engine did with a prompt (a result's `metadata.preview`: the words it acted
// on and the parts it could not do), as one short line under the result.

export interface PreviewSummary {
  applied: string[];
  notApplied: string[];
}

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;

/** The preview summary in a result's metadata, or null when the engine reports none. */
export function previewOf(metadata: unknown): PreviewSummary | null {
  if (typeof metadata !== 'object' || metadata === null) return null;
  const preview = (metadata as { preview?: unknown }).preview;
  if (typeof preview !== 'object' || preview === null) return null;
  const { applied, notApplied } = preview as { applied?: unknown; notApplied?: unknown };
  const appliedWords = strings(applied);
  const notAppliedParts = strings(notApplied);
  return appliedWords || notAppliedParts ? { applied: appliedWords ?? [], notApplied: notAppliedParts ?? [] } : null;
}

/**
 * 'Local preview applied: winter, evening. Not applied: "add a dog" — needs an AI engine.' With `suggestRegion`
 * (a whole-image edit, where a removal could be done on a marked region), '… or a marked region.'
 */
export function previewText(t: TFunction, preview: PreviewSummary, suggestRegion = false): string {
  const applied =
    preview.applied.length > 0
      ? t('previewNote.applied', { words: preview.applied.join(', ') })
      : t('previewNote.nothing');
  if (preview.notApplied.length === 0) return applied;
  const parts = preview.notApplied.map((p) => `“${p}”`).join(', ');
  return `${applied} ${t(suggestRegion ? 'previewNote.notAppliedOrRegion' : 'previewNote.notApplied', { parts })}`;
}

export function PreviewNote({
  preview,
  className,
}: {
  preview: PreviewSummary | null | undefined;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!preview) return null;
  return (
    <p data-testid="preview-note" className={cn('text-xs text-muted', className)}>
      {previewText(t, preview)}
    </p>
  );
}
