import { Download, Expand, ImageOff, Loader2, Music, Sparkles, VideoOff, WandSparkles } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../../common/messages.ts';
import { downloadUrl, type StudioMode } from '../../../../common/rules/studio.ts';
import { translateMessage } from '../../../i18n/index.ts';
import { buttonClass } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { ProgressBar } from '../../../ui/ProgressBar.tsx';
import { EngineBadge } from '../../assets/EngineBadge.tsx';
import { MediaViewer } from '../../assets/MediaViewer.tsx';
import type { GeneratedItem, Generation } from '../store.ts';
import { ErrorPanel } from './ErrorPanel.tsx';

function ResultImage({ item, index, onOpen }: { item: GeneratedItem; index: number; onOpen: () => void }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  return (
    <li className="group relative overflow-hidden rounded-xl border border-line bg-surface-2">
      <button
        type="button"
        onClick={onOpen}
        className="block aspect-square w-full focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        aria-label={t('studio.results.openImage', { n: index + 1 })}
      >
        {failed ? (
          <span className="flex size-full flex-col items-center justify-center gap-1.5 text-subtle">
            <ImageOff className="size-6" aria-hidden />
            <span className="text-xs">{translateMessage(MESSAGES.assets.failedToLoad)}</span>
          </span>
        ) : (
          <img
            src={item.thumbnailUrl ?? item.url}
            alt={t('studio.results.imageAlt', { n: index + 1 })}
            onError={() => setFailed(true)}
            className="size-full object-contain"
          />
        )}
      </button>
      <div className="absolute inset-x-0 bottom-0 flex justify-end gap-1 bg-gradient-to-t from-black/60 to-transparent p-2 pt-6 opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 [@media(hover:none)]:opacity-100">
        <button
          type="button"
          onClick={onOpen}
          className="grid size-8 place-items-center rounded-lg bg-black/55 text-white hover:bg-black/75"
          aria-label={t('studio.results.view')}
          title={t('studio.results.view')}
        >
          <Expand className="size-4" aria-hidden />
        </button>
        <a
          href={downloadUrl(item.url)}
          download
          className="grid size-8 place-items-center rounded-lg bg-black/55 text-white hover:bg-black/75"
          aria-label={t('assets.download')}
          title={t('assets.download')}
          data-testid="result-download"
        >
          <Download className="size-4" aria-hidden />
        </a>
      </div>
    </li>
  );
}

function ImageResults({ items }: { items: GeneratedItem[] }) {
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <>
      <ul
        data-testid="result-images"
        className={cn('grid w-full gap-3', items.length === 1 ? 'grid-cols-1' : 'grid-cols-2')}
      >
        {items.map((item, index) => (
          <ResultImage key={item.id ?? item.url} item={item} index={index} onOpen={() => setViewing(index)} />
        ))}
      </ul>
      <EngineBadge engine={items[0]?.engine} className="self-start text-muted" />
      <MediaViewer
        items={items.map((item) => ({ id: item.id ?? item.url, url: item.url, type: 'image', engine: item.engine }))}
        index={viewing}
        onIndexChange={setViewing}
        onClose={() => setViewing(null)}
      />
    </>
  );
}

function VideoResult({ item }: { item: GeneratedItem }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  return (
    <div data-testid="result-video" className="w-full space-y-3">
      {failed ? (
        <div
          role="alert"
          className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-xl border border-line bg-surface-2 text-muted"
        >
          <VideoOff className="size-8" aria-hidden />
          <p className="text-sm font-medium">{translateMessage(MESSAGES.assets.videoUnavailable)}</p>
        </div>
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: generated video has no captions
        <video
          src={item.url}
          poster={item.thumbnailUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          onError={() => setFailed(true)}
          className="aspect-video w-full rounded-xl border border-line bg-black object-contain"
        />
      )}
      <div className="flex items-center justify-between gap-3">
        <EngineBadge engine={item.engine} className="text-muted" />
        <a
          href={downloadUrl(item.url)}
          download
          className={buttonClass('secondary', 'sm')}
          data-testid="result-download"
        >
          <Download className="size-4" aria-hidden />
          {t('assets.download')}
        </a>
      </div>
    </div>
  );
}

function AudioResult({ item }: { item: GeneratedItem }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="result-audio"
      className="flex w-full flex-col items-center gap-4 rounded-xl border border-line bg-surface-2 px-5 py-8"
    >
      <span className="grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent">
        <Music className="size-7" aria-hidden />
      </span>
      {/* biome-ignore lint/a11y/useMediaCaption: generated audio has no captions */}
      <audio src={item.url} controls preload="metadata" className="w-full" aria-label={t('studio.results.audio')} />
      <EngineBadge engine={item.engine} className="text-muted" />
      <a href={downloadUrl(item.url)} download className={buttonClass('secondary', 'sm')} data-testid="result-download">
        <Download className="size-4" aria-hidden />
        {t('assets.download')}
      </a>
    </div>
  );
}

/** Anything the studio has no dedicated view for is shown as data. */
function GenericResult({ data }: { data: unknown }) {
  const { t } = useTranslation();
  return (
    <div data-testid="result-generic" className="w-full space-y-2">
      <p className="text-sm font-medium">{t('studio.results.generic')}</p>
      <pre
        className="max-h-80 overflow-auto rounded-xl border border-line bg-surface-2 p-4 text-xs leading-relaxed text-muted"
        dir="ltr"
      >
        {JSON.stringify(data, null, 2)}
      </pre>
    </div>
  );
}

function Loading({ mode, generation }: { mode: StudioMode; generation: Generation }) {
  const { t } = useTranslation();
  const label = t(`studio.results.working.${mode}`);
  if (generation.progress) {
    return (
      <div className="w-full space-y-5" data-testid="result-loading">
        {mode === 'video' ? (
          <div className="flex aspect-video w-full items-center justify-center rounded-xl border border-line bg-surface-2">
            <Loader2 className="size-8 animate-spin text-accent" aria-hidden />
          </div>
        ) : null}
        <ProgressBar value={generation.progress.value} secondsLeft={generation.progress.secondsLeft} label={label} />
      </div>
    );
  }
  if (mode === 'image') {
    const count = Math.max(1, generation.expected);
    return (
      <div className="w-full space-y-3" data-testid="result-loading">
        <ul className={cn('grid gap-3', count === 1 ? 'grid-cols-1' : 'grid-cols-2')} aria-hidden>
          {Array.from({ length: count }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
            <li key={i} className="aspect-square animate-pulse rounded-xl bg-surface-3" />
          ))}
        </ul>
        <p className="flex items-center justify-center gap-2 text-sm text-muted" role="status">
          <Loader2 className="size-4 animate-spin text-accent" aria-hidden />
          {label}
        </p>
      </div>
    );
  }
  return (
    <div
      className="flex w-full flex-col items-center gap-3 rounded-xl border border-line bg-surface-2 py-12"
      data-testid="result-loading"
      role="status"
    >
      <Loader2 className="size-8 animate-spin text-accent" aria-hidden />
      <p className="text-sm text-muted">{label}</p>
    </div>
  );
}

function Initial({ mode }: { mode: StudioMode }) {
  const { t } = useTranslation();
  const Icon = mode === 'audio' ? Music : mode === 'video' ? WandSparkles : Sparkles;
  return (
    <div className="flex w-full flex-col items-center px-4 py-10 text-center" data-testid="result-initial">
      <span className="mb-4 grid size-14 place-items-center rounded-2xl bg-brand-gradient text-white shadow-lg shadow-accent/20">
        <Icon className="size-7" aria-hidden />
      </span>
      <p className="text-sm font-medium">{t(`studio.results.initial.${mode}.title`)}</p>
      <p className="mt-1.5 max-w-xs text-xs leading-relaxed text-muted">{t(`studio.results.initial.${mode}.body`)}</p>
    </div>
  );
}

/** The result area of a mode: initial, loading (with progress), success views and the error panels. */
export function ResultsPanel({
  mode,
  generation,
  price,
  balance,
  onTryDifferentPrompt,
  onAddCredits,
  onRetry,
}: {
  mode: StudioMode;
  generation: Generation;
  price: number;
  balance: number | null;
  onTryDifferentPrompt: () => void;
  onAddCredits: () => void;
  onRetry: () => void;
}) {
  let content: ReactNode;
  switch (generation.phase) {
    case 'loading':
      content = <Loading mode={mode} generation={generation} />;
      break;
    case 'error':
      content = generation.error && (
        <ErrorPanel
          mode={mode}
          error={generation.error}
          price={price}
          balance={balance}
          onTryDifferentPrompt={onTryDifferentPrompt}
          onAddCredits={onAddCredits}
          onRetry={onRetry}
        />
      );
      break;
    case 'success': {
      const result = generation.result;
      if (!result) content = null;
      else if (result.kind === 'images') content = <ImageResults items={result.items} />;
      else if (result.kind === 'video') content = <VideoResult item={result.item} />;
      else if (result.kind === 'audio') content = <AudioResult item={result.item} />;
      else content = <GenericResult data={result.data} />;
      break;
    }
    default:
      content = <Initial mode={mode} />;
  }
  return (
    <div
      className="flex min-h-72 w-full items-center justify-center"
      data-testid="studio-results"
      data-phase={generation.phase}
      aria-live="polite"
    >
      {content}
    </div>
  );
}
