import { Loader2, Music, Sparkles, WandSparkles } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudioMode } from '../../../../common/rules/studio.ts';
import { useModelEngines } from '../../../api/engines.ts';
import { Button } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { ProgressBar } from '../../../ui/ProgressBar.tsx';
import { type Generation, useStudio } from '../store.ts';
import { ErrorPanel } from './ErrorPanel.tsx';
import { HistoryStrip } from './HistoryStrip.tsx';
import { mediaOfItem, useSessionHistory, type ViewerMedia } from './history.ts';
import { ViewerActions } from './ViewerActions.tsx';
import { StageFrame, ViewerStage, type Zoom } from './ViewerStage.tsx';

/** Where the result will appear, while it is made: the task's progress and the engine making it. */
function ViewerProgress({ mode, generation }: { mode: StudioMode; generation: Generation }) {
  const { t } = useTranslation();
  const engines = useModelEngines();
  const label = t(`studio.results.working.${mode}`);
  const engine = generation.model ? engines.model(mode, generation.model).label : null;
  return (
    <StageFrame aspect={generation.aspect} data-testid="result-loading" className="grid place-items-center">
      <div className="absolute inset-0 animate-pulse rounded-xl bg-surface-3/60" aria-hidden />
      <div className="relative w-full max-w-sm space-y-3 px-5" data-testid="viewer-progress">
        {generation.progress ? (
          <ProgressBar value={generation.progress.value} secondsLeft={generation.progress.secondsLeft} label={label} />
        ) : (
          <p className="flex items-center justify-center gap-2 text-sm font-medium text-fg" role="status">
            <Loader2 className="size-4 animate-spin text-accent" aria-hidden />
            {label}
          </p>
        )}
        {engine && (
          <p className="text-center text-xs text-muted" data-testid="viewer-engine">
            {t('studio.viewer.makingWith', { engine })}
          </p>
        )}
      </div>
    </StageFrame>
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

/** Shown while something is made and the viewer shows an earlier result: back to the progress. */
function BackToProgress({ generation, onBack }: { generation: Generation; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="secondary" size="sm" className="self-start" onClick={onBack} data-testid="viewer-back-to-progress">
      <Loader2 className="size-4 animate-spin text-accent" aria-hidden />
      {t('studio.viewer.backToProgress', { value: generation.progress?.value ?? 0 })}
    </Button>
  );
}

/** What the viewer shows: a result picked from the history, else the mode's newest result, else the latest one. */
function useCurrent(generation: Generation, history: readonly ViewerMedia[]): ViewerMedia | null {
  const viewing = useStudio((s) => s.viewing);
  const result = generation.result;
  const produced =
    generation.phase !== 'success' || !result
      ? []
      : result.kind === 'images'
        ? result.items.map(mediaOfItem)
        : result.kind === 'video' || result.kind === 'audio'
          ? [mediaOfItem(result.item)]
          : [];
  // The stored asset of a result, once the history lists it (an upscale replaces its file).
  const stored = (media: ViewerMedia) => history.find((item) => item.key === media.key) ?? media;
  if (viewing) {
    const picked = history.find((item) => item.key === viewing) ?? produced.find((item) => item.key === viewing);
    if (picked) return picked;
  }
  if (produced[0]) return stored(produced[0]);
  return generation.phase === 'initial' ? (history[0] ?? null) : null;
}

/**
 * The result area of a mode, the output as the hero: the current result large (zoom, download, canvas, upscale,
 * video from it), the progress where it will appear, the error panels, and this session's history below.
 */
export function ResultsPanel({
  mode,
  generation,
  price,
  balance,
  onTryDifferentPrompt,
  onAddCredits,
  onRetry,
  onMakeVideo,
}: {
  mode: StudioMode;
  generation: Generation;
  price: number;
  balance: number | null;
  onTryDifferentPrompt: () => void;
  onAddCredits: () => void;
  onRetry: () => void;
  onMakeVideo: () => void;
}) {
  const history = useSessionHistory();
  const setViewing = useStudio((s) => s.setViewing);
  const picked = useStudio((s) => s.viewing !== null);
  const current = useCurrent(generation, history.items);
  const [zoom, setZoom] = useState<Zoom>('fit');
  // biome-ignore lint/correctness/useExhaustiveDependencies: each result opens fitted
  useEffect(() => setZoom('fit'), [current?.key]);

  let content: ReactNode = null;
  if (picked && current) content = null;
  else if (generation.phase === 'loading') content = <ViewerProgress mode={mode} generation={generation} />;
  else if (generation.phase === 'error' && generation.error)
    content = (
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
  else if (generation.phase === 'success' && generation.result?.kind === 'generic')
    content = <GenericResult data={generation.result.data} />;
  else if (!current) content = history.pending ? null : <Initial mode={mode} />;

  return (
    <div className="flex w-full min-w-0 flex-col gap-3">
      <div
        className={cn('flex w-full items-center justify-center', content !== null && 'min-h-72')}
        data-testid="studio-results"
        data-phase={generation.phase}
        aria-live="polite"
      >
        {content ?? (current && <ViewerStage media={current} zoom={zoom} onZoom={setZoom} />)}
      </div>
      {content === null && current && (
        <ViewerActions media={current} zoom={zoom} onZoom={setZoom} onMakeVideo={onMakeVideo} />
      )}
      {picked && generation.phase === 'loading' && (
        <BackToProgress generation={generation} onBack={() => setViewing(null)} />
      )}
      <HistoryStrip items={history.items} current={current?.key ?? null} onShow={setViewing} />
    </div>
  );
}
