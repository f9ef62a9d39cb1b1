import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';

// What the local preview engine did with a prompt (a result's `metadata.preview`: the words it acted
// on and the parts it could not do), as one short line under the result.

export interface PreviewSummary {
  applied: string[];
  notApplied: string[];
}

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;

/** The preview summary in a result's metadata, or null when the engine reports none. */
export function previewOf(metadata: Record<string, unknown> | null | undefined): PreviewSummary | null {
  const preview = metadata?.preview as Record<string, unknown> | undefined;
  const applied = strings(preview?.applied);
  const notApplied = strings(preview?.notApplied);
  return applied && notApplied ? { applied, notApplied } : null;
}

/** 'Local preview applied: winter, evening. Not applied: "add a dog" — needs an AI engine or a marked region.' */
export function previewText(t: TFunction, preview: PreviewSummary): string {
  const applied =
    preview.applied.length > 0
      ? t('previewNote.applied', { words: preview.applied.join(', ') })
      : t('previewNote.nothing');
  if (preview.notApplied.length === 0) return applied;
  const parts = preview.notApplied.map((p) => `“${p}”`).join(', ');
  return `${applied} ${t('previewNote.notApplied', { parts })}`;
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
