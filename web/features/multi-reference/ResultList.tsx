// The Multi-Reference tool's results: each variation with Open in canvas (images) and Download.
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { PreviewNote } from '../../ui/PreviewNote.tsx';
import type { MultiReferenceResult } from './session.ts';
import type { createMultiReferenceStore } from './store.ts';

type Store = ReturnType<typeof createMultiReferenceStore>;

export function ResultList({
  store,
  onOpenInCanvas,
}: {
  store: Store;
  onOpenInCanvas: (result: MultiReferenceResult) => void;
}) {
  const { t } = useTranslation();
  const { results } = useStore(store);
  return (
    <>
      {results.map((result) => (
        <figure key={result.url} data-testid="mr-result" className="space-y-1.5 rounded-xl border border-line p-2">
          {result.mediaType === 'video' ? (
            // biome-ignore lint/a11y/useMediaCaption: generated video has no captions
            <video
              src={result.url}
              controls
              playsInline
              preload="metadata"
              data-testid="mr-result-video"
              aria-label={t('multiReference.variation', { n: result.variation })}
              className="w-full rounded-md"
            />
          ) : (
            <img
              src={result.url}
              alt={t('multiReference.variation', { n: result.variation })}
              className="w-full rounded-md"
            />
          )}
          <figcaption className="space-y-2 text-xs">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-medium">{t('multiReference.variation', { n: result.variation })}</span>
              <EngineBadge engine={result.engine} className="text-muted" />
            </div>
            <div className="flex flex-wrap gap-2">
              {result.mediaType === 'image' && (
                <button
                  type="button"
                  className="min-h-8 rounded-md border border-line px-2 py-1 hover:bg-surface-2"
                  onClick={() => onOpenInCanvas(result)}
                >
                  {t('multiReference.openInCanvas')}
                </button>
              )}
              <a
                href={result.url}
                download={`multi-reference-${result.variation}.${result.mediaType === 'video' ? 'mp4' : 'png'}`}
                className="inline-flex min-h-8 items-center gap-1 rounded-md border border-line px-2 py-1 hover:bg-surface-2"
              >
                <Download className="size-3" aria-hidden />
                {t('multiReference.download')}
              </a>
            </div>
          </figcaption>
          <PreviewNote preview={result.preview} />
        </figure>
      ))}
    </>
  );
}
