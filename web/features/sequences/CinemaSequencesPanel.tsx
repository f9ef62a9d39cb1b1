// The canvas's right panel 'Cinema Sequences' (canvas spec 2, 4, 5): the pro / dream switch with its credits,
// one card per pinned item (video generation, retry, remove), the Movie Script and Movie Agent, Export Master
// Video, Clear, Download, the 'Master Video Ready' box and the entry to the full-screen timeline editor.
import { useQueryClient } from '@tanstack/react-query';
import { Clapperboard, Download, Film, RotateCcw, Sparkles, Trash2, WandSparkles, X } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { priceOf } from '../../../common/rules/pricing.ts';
import { SEQUENCE_VIDEO_MODES, type SequenceVideoMode, sequenceItemState } from '../../../common/rules/sequences.ts';
import { useModelEngines } from '../../api/engines.ts';
import { Button } from '../../ui/Button.tsx';
import { Segmented } from '../../ui/controls.tsx';
import { EngineNote } from '../../ui/EngineBadge.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { VideoEnhanceDialog } from '../canvas/dialogs/VideoEnhanceDialog.tsx';
import { useCanvas } from '../canvas/store.ts';
import { generateItemVideo, stopSequenceWork } from './runner.ts';
import { ItemStateBadge, MasterSection, MovieScriptField } from './sections.tsx';
import { type SequenceItem, useSequences } from './store.ts';

const TimelineEditor = lazy(() => import('./TimelineEditor.tsx'));

function ItemCard({
  item,
  index,
  onEnhance,
  cannotPay,
}: {
  item: SequenceItem;
  index: number;
  onEnhance(): void;
  /** The balance cannot cover a video in the chosen mode (the panel shows the shortfall once). */
  cannotPay: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useSequences((state) => state.remove);
  const generating = item.videoStatus === 'generating';
  const failed = item.videoStatus === 'failed';
  const state = sequenceItemState(item);
  const videoEnhancing = useCanvas((state) => state.videoEnhancementsInProgress > 0);
  return (
    <li
      data-testid="sequence-item"
      data-item-id={item.id}
      data-status={item.videoStatus}
      data-state={state}
      className="rounded-xl border border-line bg-surface p-2.5"
    >
      <div className="flex gap-2.5">
        <div className="relative size-16 shrink-0 overflow-hidden rounded-lg bg-surface-3">
          {item.videoUrl ? (
            <video src={item.videoUrl} poster={item.imageUrl} muted className="size-full object-cover" />
          ) : (
            <img src={item.imageUrl} alt="" loading="lazy" className="size-full object-cover" />
          )}
          <span className="absolute start-1 top-1 rounded bg-black/60 px-1 text-xs font-semibold text-white">
            {index + 1}
          </span>
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex items-center gap-1.5">
            <ItemStateBadge item={item} />
            <span className="text-xs tabular-nums text-subtle">{t('sequences.seconds', { value: item.duration })}</span>
            <button
              type="button"
              onClick={() => {
                stopSequenceWork(item.id);
                remove(item.id);
              }}
              className="ms-auto grid size-7 place-items-center rounded-md text-subtle hover:bg-surface-2 hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
              aria-label={t('sequences.remove', { index: index + 1 })}
              title={t('sequences.remove', { index: index + 1 })}
              data-testid="sequence-remove"
            >
              <X className="size-4" aria-hidden />
            </button>
          </div>
          <p className="line-clamp-2 text-xs text-fg" title={item.prompt}>
            {item.prompt}
          </p>
          {item.moviePrompt && (
            <p className="line-clamp-2 text-xs text-accent" title={item.moviePrompt}>
              <Sparkles className="me-1 inline size-3" aria-hidden />
              {item.moviePrompt}
            </p>
          )}
        </div>
      </div>
      {generating && (
        <div
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-3"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={item.progress}
          aria-label={t('sequences.progress')}
        >
          <div className="h-full bg-accent transition-[width]" style={{ width: `${item.progress}%` }} />
        </div>
      )}
      {failed && item.error && <p className="mt-1.5 text-xs text-danger">{item.error}</p>}
      <Button
        size="sm"
        variant={failed ? 'danger' : state === 'needsVideo' ? 'primary' : 'secondary'}
        className="mt-2 w-full"
        disabled={generating || cannotPay}
        loading={generating}
        onClick={() => void generateItemVideo(item.id, queryClient)}
        data-testid="sequence-generate"
      >
        {failed ? <RotateCcw className="size-4" aria-hidden /> : !generating && <Film className="size-4" aria-hidden />}
        {generating ? t('sequences.generating') : failed ? t('sequences.retry') : t('sequences.generate')}
      </Button>
      {item.videoUrl && !generating && (
        <Button
          size="sm"
          variant="ghost"
          className="mt-1 w-full"
          disabled={videoEnhancing}
          onClick={onEnhance}
          data-testid="sequence-enhance"
        >
          <WandSparkles className="size-4" aria-hidden />
          {t('sequences.enhanceVideo')}
        </Button>
      )}
    </li>
  );
}

function downloadSequence() {
  const { items, movieScript, master, videoMode } = useSequences.getState();
  const blob = new Blob([JSON.stringify({ videoMode, movieScript, items, master }, null, 2)], {
    type: 'application/json',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `cinema-sequence-${new Date().toISOString().slice(0, 10)}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function CinemaSequencesPanel() {
  const { t } = useTranslation();
  const items = useSequences((state) => state.items);
  const videoMode = useSequences((state) => state.videoMode);
  const setVideoMode = useSequences((state) => state.setVideoMode);
  const clear = useSequences((state) => state.clear);
  const [timelineOpen, setTimelineOpen] = useState(false);
  const [enhanceItem, setEnhanceItem] = useState<SequenceItem | null>(null);
  const patchItem = useSequences((state) => state.patchItem);
  const engines = useModelEngines();
  // What a mode's video reserves on the engine that serves its model (pro: with its soundtrack).
  const modeCredits = (mode: SequenceVideoMode) => {
    const { model } = SEQUENCE_VIDEO_MODES[mode];
    return priceOf('video', { model, generateAudio: mode === 'pro' }, engines.model('video', model).prices);
  };
  const { balance, shortfall } = useCreditGuard(modeCredits(videoMode));

  const modeOption = (mode: SequenceVideoMode) => ({
    value: mode,
    label: `${t(`sequences.mode.${mode}`)} · ${modeCredits(mode)}`,
    title: t('sequences.credits', { count: modeCredits(mode) }),
  });

  return (
    <section
      data-testid="sequences-panel"
      aria-labelledby="sequences-title"
      className="flex w-full min-w-0 flex-col gap-3 overflow-y-auto bg-surface-2 p-3 text-fg"
    >
      <header className="flex items-center gap-2">
        <Clapperboard className="size-5 text-accent" aria-hidden />
        <h2 id="sequences-title" className="text-sm font-semibold">
          {t('sequences.title')}
        </h2>
        <span className="ms-auto rounded-full bg-surface-3 px-2 py-0.5 text-xs tabular-nums text-muted">
          {items.length}
        </span>
      </header>

      <div className="space-y-1.5">
        <Segmented
          label={t('sequences.videoMode')}
          value={videoMode}
          onChange={setVideoMode}
          options={[modeOption('pro'), modeOption('dream')]}
          testIdPrefix="sequence-mode"
          layout="fill"
          size="sm"
        />
        <p className="text-xs text-muted" data-testid="sequence-credits">
          {t(`sequences.modeHint.${videoMode}`)} ·{' '}
          <strong className="text-fg">{t('sequences.credits', { count: modeCredits(videoMode) })}</strong>
        </p>
        <EngineNote kind="video" model={SEQUENCE_VIDEO_MODES[videoMode].model} />
        {items.length > 0 && (
          <CreditShortfall compact shortfall={shortfall} balance={balance} testId="sequence-shortfall" />
        )}
      </div>

      {items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line p-4 text-center text-xs text-muted">
          {t('sequences.empty')}
        </p>
      ) : (
        <ol className="space-y-2" aria-label={t('sequences.items')}>
          {items.map((item, index) => (
            <ItemCard
              key={item.id}
              item={item}
              index={index}
              onEnhance={() => setEnhanceItem(item)}
              cannotPay={shortfall > 0}
            />
          ))}
        </ol>
      )}

      <Button variant="secondary" size="sm" onClick={() => setTimelineOpen(true)} data-testid="open-timeline">
        <Film className="size-4" aria-hidden />
        {t('sequences.openTimeline')}
      </Button>

      <MovieScriptField />
      <MasterSection />

      <div className="flex gap-2">
        <Button
          variant="ghost"
          size="sm"
          className="flex-1"
          disabled={items.length === 0}
          onClick={() => {
            stopSequenceWork();
            clear();
          }}
          data-testid="sequence-clear"
        >
          <Trash2 className="size-4" aria-hidden />
          {t('sequences.clear')}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="flex-1"
          disabled={items.length === 0}
          onClick={downloadSequence}
          data-testid="sequence-download"
        >
          <Download className="size-4" aria-hidden />
          {t('sequences.download')}
        </Button>
      </div>

      {enhanceItem?.videoUrl && (
        <VideoEnhanceDialog
          open
          onOpenChange={(open) => !open && setEnhanceItem(null)}
          videoUrl={enhanceItem.videoUrl}
          onEnhanced={(url) => patchItem(enhanceItem.id, { videoUrl: url, videoStatus: 'enhanced' })}
        />
      )}

      {timelineOpen && (
        <Suspense fallback={null}>
          <TimelineEditor onClose={() => setTimelineOpen(false)} />
        </Suspense>
      )}
    </section>
  );
}
