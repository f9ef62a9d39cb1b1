// Step 5, Review: one film sequence per shot with its own Generate Video (cost shown first), the queue (two at
// a time), progress with time left, retry on failure; a player that plays the finished shots in order; and
// Save to assets, which writes the film metadata onto each shot's video asset.
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Clock, Coins, ListVideo, Play, RotateCcw, Save, Sparkles, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FILM_DEFAULTS } from '../../../common/rules/film.ts';
import { priceOf } from '../../../common/rules/pricing.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { useMe } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useModelEngines } from '../../api/engines.ts';
import { useCreditsText, useFormatNumber } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { CreditShortfall, creditShortfall } from '../billing/CreditShortfall.tsx';
import { saveShotAsset } from './api.ts';
import { type FilmSequence, filmAssetMetadata } from './model.ts';
import { AlertMessage, ProgressBar, Section } from './parts.tsx';
import { queueShots, unqueueShot } from './runner.ts';
import { useFilm } from './store.ts';
import { filmError } from './text.ts';

/** The shots' video model labelled with the engine that serves it, and what one shot reserves there (with its soundtrack). */
function useShotVideo(): { price: number; label: string } {
  const engine = useModelEngines().model('video', FILM_DEFAULTS.videoModel);
  return { price: priceOf('video', { model: FILM_DEFAULTS.videoModel }, engine.prices), label: engine.label };
}

const STATUS_STYLES: Record<FilmSequence['status'], string> = {
  ready: 'bg-surface-3 text-muted',
  generating: 'bg-accent-soft text-fg',
  processing: 'bg-accent-soft text-fg',
  completed: 'bg-success-soft text-success',
  failed: 'bg-danger-soft text-danger',
};

function useShotName() {
  const { t } = useTranslation();
  return (s: Pick<FilmSequence, 'sceneNumber' | 'shotIndex'>) =>
    t('film.shotName', { scene: s.sceneNumber, shot: s.shotIndex });
}

function SequenceRow({
  sequence,
  onPlay,
  affordable,
}: {
  sequence: FilmSequence;
  onPlay: () => void;
  /** The balance covers one more shot. */
  affordable: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatNumber();
  const credits = useCreditsText();
  const shotName = useShotName();
  const shot = useShotVideo();
  const running = sequence.status === 'generating' || sequence.status === 'processing';
  const status = sequence.queued ? 'queued' : sequence.status;
  return (
    <li
      data-testid="film-sequence"
      data-status={sequence.status}
      data-queued={sequence.queued || undefined}
      className="rounded-xl border border-line bg-surface-2/40 p-3"
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1 basis-56">
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-sm font-semibold">{shotName(sequence)}</p>
            <span
              className={cn(
                'rounded-full px-2 py-0.5 text-xs font-medium',
                sequence.queued ? 'bg-warning-soft text-warning' : STATUS_STYLES[sequence.status],
              )}
              data-testid="film-sequence-status"
            >
              {t(`film.status.${status}`)}
            </span>
          </div>
          <p className="mt-0.5 truncate font-mono text-xs uppercase text-muted" dir="auto">
            {t('film.screenplay.act', { n: sequence.actNumber })} · {sequence.heading}
          </p>
          <p className="mt-1 flex flex-wrap gap-1.5 text-xs">
            <span className="rounded bg-accent-soft px-1.5 py-0.5 text-fg">{sequence.shotType}</span>
            <span className="rounded bg-surface-3 px-1.5 py-0.5 text-muted">{sequence.cameraMovement}</span>
            <span className="inline-flex items-center gap-1 rounded bg-surface-3 px-1.5 py-0.5 text-muted tabular-nums">
              <Clock className="size-3" aria-hidden />
              {t('film.seconds', { value: format(sequence.duration) })}
            </span>
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {sequence.status === 'completed' && (
            <Button variant="secondary" size="sm" onClick={onPlay} data-testid="film-sequence-play">
              <Play className="size-4" aria-hidden />
              {t('film.review.play')}
            </Button>
          )}
          {sequence.status === 'ready' && !sequence.queued && (
            <Button
              size="sm"
              onClick={() => queueShots([sequence.id])}
              disabled={!affordable}
              data-testid="film-sequence-generate"
            >
              <Sparkles className="size-4" aria-hidden />
              {t('film.review.generateVideo', { credits: credits(shot.price) })}
            </Button>
          )}
          {sequence.status === 'failed' && !sequence.queued && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => queueShots([sequence.id])}
              disabled={!affordable}
              data-testid="film-sequence-retry"
            >
              <RotateCcw className="size-4" aria-hidden />
              {t('film.review.retry', { credits: credits(shot.price) })}
            </Button>
          )}
          {sequence.queued && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => unqueueShot(sequence.id)}
              data-testid="film-sequence-unqueue"
            >
              <X className="size-4" aria-hidden />
              {t('film.review.unqueue')}
            </Button>
          )}
        </div>
      </div>
      {running && (
        <div className="mt-3 space-y-1" data-testid="film-sequence-progress">
          <ProgressBar value={sequence.progress} label={t('film.review.progressLabel', { shot: shotName(sequence) })} />
          <p className="flex justify-between gap-2 text-xs text-muted tabular-nums">
            <span>
              {sequence.status === 'generating'
                ? t('film.review.starting')
                : `${format(Math.round(sequence.progress))}%`}
            </span>
            {sequence.status === 'processing' && (
              <span>{t('film.review.timeLeft', { time: formatSeconds(sequence.estimatedTimeRemaining) })}</span>
            )}
          </p>
        </div>
      )}
      {sequence.status === 'failed' && sequence.error && (
        <div className="mt-3">
          <AlertMessage testId="film-sequence-error">{filmError(sequence.error)}</AlertMessage>
        </div>
      )}
    </li>
  );
}

function formatSeconds(total: number): string {
  const seconds = Math.max(0, Math.round(total));
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

function Player({ shots, index, onIndex }: { shots: FilmSequence[]; index: number; onIndex: (i: number) => void }) {
  const { t } = useTranslation();
  const shotName = useShotName();
  const video = useRef<HTMLVideoElement>(null);
  const autoplay = useRef(false);
  const current = shots[index];

  // Advancing after a shot ends keeps playing; choosing a shot from the list plays it too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the shown shot changes
  useEffect(() => {
    if (autoplay.current) void video.current?.play().catch(() => undefined);
  }, [current?.id]);

  if (!current?.url) {
    return (
      <div
        data-testid="film-player-empty"
        className="flex aspect-video w-full flex-col items-center justify-center rounded-xl border border-dashed border-line-strong bg-surface-2/40 px-6 text-center"
      >
        <ListVideo className="mb-2 size-8 text-subtle" aria-hidden />
        <p className="text-sm font-medium">{t('film.review.noVideosTitle')}</p>
        <p className="mt-1 max-w-sm text-xs text-muted">{t('film.review.noVideosBody')}</p>
      </div>
    );
  }
  return (
    <div className="space-y-2">
      <video
        ref={video}
        key={current.id}
        src={current.url}
        controls
        playsInline
        preload="metadata"
        data-testid="film-player"
        data-shot={current.id}
        className="aspect-video w-full rounded-xl bg-black"
        onPlay={() => {
          autoplay.current = true;
        }}
        onEnded={() => {
          if (index + 1 < shots.length) {
            autoplay.current = true;
            onIndex(index + 1);
          }
        }}
      >
        <track kind="captions" />
      </video>
      <p
        className="flex flex-wrap items-center gap-x-3 text-xs text-muted tabular-nums"
        data-testid="film-player-label"
      >
        <span>{t('film.review.nowPlaying', { n: index + 1, total: shots.length, shot: shotName(current) })}</span>
        <EngineBadge engine={current.engine} />
      </p>
    </div>
  );
}

function useSaveToAssets() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const { sequences, concept } = useFilm.getState();
    const done = sequences.filter((s) => s.status === 'completed' && s.url && s.assetId);
    if (done.length === 0 || saving) return;
    setSaving(true);
    let saved = 0;
    let lastError = '';
    for (const sequence of done) {
      try {
        await saveShotAsset({
          id: sequence.assetId as string,
          url: sequence.url as string,
          prompt: sequence.prompt,
          metadata: filmAssetMetadata(sequence, concept),
        });
        saved++;
      } catch (error) {
        lastError = error instanceof ApiError ? error.message : '';
      }
    }
    setSaving(false);
    void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
    if (saved > 0) toast.success(t('film.toast.saved', { count: saved }));
    if (saved < done.length) {
      toast.error(
        t('film.toast.saveFailed', { count: done.length - saved }) + (lastError ? ` ${filmError(lastError)}` : ''),
      );
    }
  };
  return { saving, save };
}

export function ReviewStep() {
  const { t } = useTranslation();
  const credits = useCreditsText();
  const format = useFormatNumber();
  const sequences = useFilm((s) => s.sequences);
  const setStep = useFilm((s) => s.setStep);
  const balance = useMe().data?.credits;
  const completed = useMemo(() => sequences.filter((s) => s.status === 'completed' && s.url), [sequences]);
  const [playing, setPlaying] = useState(0);
  const { saving, save } = useSaveToAssets();

  const pending = sequences.filter((s) => (s.status === 'ready' || s.status === 'failed') && !s.queued);
  const running = sequences.filter((s) => s.status === 'generating' || s.status === 'processing').length;
  const queued = sequences.filter((s) => s.queued).length;
  const shot = useShotVideo();
  const total = shot.price * pending.length;
  // Queued shots are paid when they start, so the balance must cover them before anything new.
  const available = balance === undefined ? undefined : balance - shot.price * queued;
  const shortfall = creditShortfall(total, available);
  const affordable = available === undefined || available >= shot.price;
  const saveable = completed.filter((s) => s.assetId).length;
  const index = Math.min(playing, Math.max(0, completed.length - 1));

  if (sequences.length === 0) {
    return (
      <Section title={t('film.review.heading')}>
        <div
          data-testid="film-review-empty"
          className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-10 text-center"
        >
          <ListVideo className="mb-3 size-8 text-subtle" aria-hidden />
          <p className="text-sm font-medium">{t('film.review.emptyTitle')}</p>
          <p className="mt-1 max-w-md text-sm text-muted">{t('film.review.emptyBody')}</p>
          <Button className="mt-5" variant="secondary" onClick={() => setStep('production')}>
            {t('film.review.toProduction')}
          </Button>
        </div>
      </Section>
    );
  }

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)] lg:items-start">
      <Section
        title={t('film.review.playerHeading')}
        description={t('film.review.playerIntro', { done: completed.length, total: sequences.length })}
        className="lg:sticky lg:top-0"
      >
        <Player shots={completed} index={index} onIndex={setPlaying} />
        {completed.length > 0 && (
          <ol className="mt-3 flex gap-2 overflow-x-auto pb-1" aria-label={t('film.review.playlist')}>
            {completed.map((shot, i) => (
              <li key={shot.id} className="shrink-0">
                <button
                  type="button"
                  onClick={() => setPlaying(i)}
                  aria-current={i === index ? 'true' : undefined}
                  data-testid="film-playlist-item"
                  className={cn(
                    'rounded-lg border px-2.5 py-1.5 text-xs font-medium tabular-nums transition-colors',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
                    i === index ? 'border-accent bg-accent-soft text-fg' : 'border-line text-muted hover:text-fg',
                  )}
                >
                  {t('film.shotName', { scene: shot.sceneNumber, shot: shot.shotIndex })}
                </button>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-line pt-4">
          <Button onClick={() => void save()} loading={saving} disabled={saveable === 0} data-testid="film-save-assets">
            {!saving && <Save className="size-4" aria-hidden />}
            {t('film.review.save')}
          </Button>
          <p className="text-xs text-muted">
            {saveable === 0 ? t('film.review.saveHintNone') : t('film.review.saveHint', { count: saveable })}
          </p>
        </div>
      </Section>
      <Section
        title={t('film.review.heading')}
        description={t('film.review.intro', { model: shot.label })}
        actions={
          <div className="flex flex-col items-end gap-1">
            <Button
              onClick={() => queueShots(pending.map((s) => s.id))}
              disabled={pending.length === 0 || shortfall > 0}
              aria-describedby={shortfall > 0 ? 'film-shortfall-message' : undefined}
              data-testid="film-generate-all"
            >
              <Sparkles className="size-4" aria-hidden />
              {t('film.review.generateAll', { count: pending.length, credits: credits(total) })}
            </Button>
          </div>
        }
      >
        <div
          className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted"
          data-testid="film-review-summary"
        >
          <span className="inline-flex items-center gap-1">
            <CircleCheck className="size-3.5 text-success" aria-hidden />
            {t('film.review.doneCount', { done: completed.length, total: sequences.length })}
          </span>
          {(running > 0 || queued > 0) && <span>{t('film.review.queueSummary', { running, queued, max: 2 })}</span>}
          <span className="inline-flex items-center gap-1">
            <Coins className="size-3.5" aria-hidden />
            {t('film.review.perShot', { credits: credits(shot.price) })}
            {balance !== undefined && ` · ${t('film.review.balance', { credits: format(balance) })}`}
          </span>
        </div>
        {pending.length > 0 && shortfall > 0 && (
          <CreditShortfall className="mb-3" shortfall={shortfall} balance={balance ?? null} testId="film-shortfall" />
        )}
        <ul className="space-y-2.5">
          {sequences.map((sequence) => (
            <SequenceRow
              key={sequence.id}
              sequence={sequence}
              affordable={affordable}
              onPlay={() =>
                setPlaying(
                  Math.max(
                    0,
                    completed.findIndex((s) => s.id === sequence.id),
                  ),
                )
              }
            />
          ))}
        </ul>
      </Section>
    </div>
  );
}
