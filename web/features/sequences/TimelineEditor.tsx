// The full-screen timeline editor (canvas spec 2, 4, 5): sequence cards, a drag-to-reorder strip (@dnd-kit,
// pointer and keyboard), the professional timeline whose start / end handles and body trim each clip (1–8 s,
// zoom 10–50 px/s in steps of 5), Play Timeline in one <video>, Movie Agent Analysis and the master video.
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  horizontalListSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical, Pause, Play, X, ZoomIn, ZoomOut } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  dragHandle,
  playableItems,
  SEQUENCE_LIMITS,
  stepTimelineZoom,
  type TimelineHandle,
  truncatePrompt,
} from '../../../common/rules/sequences.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../studio/controls.tsx';
import type { MovieAgentReply } from './api.ts';
import { ItemStateBadge, MasterSection, MovieScriptField } from './sections.tsx';
import { type SequenceItem, useSequences } from './store.ts';
import { sequenceText } from './text.ts';

const sectionTitle = 'text-xs font-semibold uppercase tracking-wide text-muted';

function StripItem({ item, index }: { item: SequenceItem; index: number }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="timeline-strip-item"
      data-item-id={item.id}
      className={cn(
        'relative w-28 shrink-0 overflow-hidden rounded-lg border border-line bg-surface',
        isDragging && 'z-10 shadow-lg ring-2 ring-accent',
      )}
    >
      <button
        type="button"
        {...attributes}
        {...listeners}
        aria-label={t('sequences.dragItem', { index: index + 1 })}
        className="block w-full cursor-grab touch-none text-start focus-visible:outline-2 focus-visible:outline-accent active:cursor-grabbing"
      >
        <img src={item.imageUrl} alt="" className="aspect-video w-full object-cover" draggable={false} />
        <span className="flex items-center gap-1 px-1.5 py-1 text-[11px] text-muted">
          <GripVertical className="size-3" aria-hidden />
          {index + 1}
        </span>
      </button>
    </li>
  );
}

function ReorderStrip({ items }: { items: SequenceItem[] }) {
  const { t } = useTranslation();
  const reorder = useSequences((state) => state.reorder);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const ids = useSequences.getState().items.map((item) => item.id);
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    // A reorder only when the drop position differs (spec 5).
    if (reorder(from, to)) toast.success(sequenceText('reordered'));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={items.map((item) => item.id)} strategy={horizontalListSortingStrategy}>
        <ol className="flex gap-2 overflow-x-auto pb-2" aria-label={t('sequences.reorderStrip')}>
          {items.map((item, index) => (
            <StripItem key={item.id} item={item} index={index} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

/** One clip of the professional timeline: the window [startTime, startTime + duration] of its video. */
function TimelineClip({ item, index, pps }: { item: SequenceItem; index: number; pps: number }) {
  const { t } = useTranslation();
  const rtl = useDir() === 'rtl';
  const setTiming = useSequences((state) => state.setTiming);
  const drag = useRef<{ handle: TimelineHandle; x: number; timing: SequenceItem } | null>(null);
  const trackWidth = item.maxDuration * pps;

  const announce = () => toast.success(sequenceText('timingUpdated'), { duration: SEQUENCE_LIMITS.timingToastMs });

  const onPointerDown = (handle: TimelineHandle) => (event: PointerEvent<HTMLElement>) => {
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { handle, x: event.clientX, timing: item };
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current) return;
    const delta = (event.clientX - current.x) * (rtl ? -1 : 1);
    setTiming(item.id, dragHandle(current.timing, current.handle, delta, pps));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    announce();
  };
  const onKeyDown = (handle: TimelineHandle) => (event: KeyboardEvent<HTMLElement>) => {
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    if (event.key !== forward && event.key !== back) return;
    event.preventDefault();
    event.stopPropagation();
    const seconds = event.shiftKey ? 1 : 0.1;
    const delta = (event.key === forward ? 1 : -1) * seconds * pps;
    setTiming(item.id, dragHandle(item, handle, delta, pps));
    announce();
  };
  const handleProps = (handle: TimelineHandle) => ({
    onPointerDown: onPointerDown(handle),
    onPointerMove,
    onPointerUp,
    onPointerCancel: onPointerUp,
    onKeyDown: onKeyDown(handle),
  });
  const end = Math.round((item.startTime + item.duration) * 10) / 10;

  return (
    <li className="flex items-center gap-3">
      <span className="w-6 shrink-0 text-end text-xs tabular-nums text-subtle">{index + 1}</span>
      <div
        className="relative h-12 shrink-0 rounded-lg border border-dashed border-line bg-surface-3/60"
        style={{ width: trackWidth }}
      >
        <div
          data-testid="timeline-clip"
          data-item-id={item.id}
          data-start={item.startTime}
          data-duration={item.duration}
          role="slider"
          tabIndex={0}
          aria-valuemin={0}
          aria-valuemax={item.maxDuration}
          aria-valuenow={item.startTime}
          aria-valuetext={t('sequences.range', { start: item.startTime, end })}
          aria-label={t('sequences.clipLabel', { index: index + 1, start: item.startTime, duration: item.duration })}
          className={cn(
            'absolute inset-y-0 flex cursor-grab touch-none items-center overflow-hidden rounded-lg border-2 border-accent bg-accent-soft text-[11px] text-fg active:cursor-grabbing',
            item.videoStatus !== 'completed' && 'border-line-strong',
          )}
          style={{ insetInlineStart: item.startTime * pps, width: item.duration * pps }}
          {...handleProps('body')}
          aria-roledescription={t('sequences.clipBody')}
        >
          <span
            data-testid="timeline-handle-start"
            role="slider"
            tabIndex={0}
            aria-label={t('sequences.handleStart')}
            aria-valuemin={0}
            aria-valuemax={item.maxDuration}
            aria-valuenow={item.startTime}
            aria-orientation="horizontal"
            className="h-full w-2.5 shrink-0 cursor-ew-resize bg-accent focus-visible:outline-2 focus-visible:outline-fg"
            {...handleProps('start')}
          />
          <span
            className="min-w-0 flex-1 truncate px-1.5 tabular-nums"
            title={t('sequences.range', { start: item.startTime, end })}
          >
            {t('sequences.range', { start: item.startTime, end })}
          </span>
          <span
            data-testid="timeline-handle-end"
            role="slider"
            tabIndex={0}
            aria-label={t('sequences.handleEnd')}
            aria-valuemin={SEQUENCE_LIMITS.minDuration}
            aria-valuemax={item.maxDuration}
            aria-valuenow={end}
            aria-orientation="horizontal"
            className="h-full w-2.5 shrink-0 cursor-ew-resize bg-accent focus-visible:outline-2 focus-visible:outline-fg"
            {...handleProps('end')}
          />
        </div>
      </div>
      <span className="shrink-0 text-xs tabular-nums text-muted">
        {t('sequences.seconds', { value: item.duration })}
      </span>
    </li>
  );
}

/** Play Timeline: the completed clips in order, each from startTime for duration, in one <video>. */
function TimelinePlayer({ items }: { items: SequenceItem[] }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [index, setIndex] = useState<number | null>(null);
  const clips = playableItems(items);
  const clip = index === null ? null : clips[index];

  const stop = () => {
    video.current?.pause();
    setIndex(null);
  };
  const play = () => {
    if (clips.length === 0) {
      toast.error(sequenceText('noVideosToPlay'));
      return;
    }
    setIndex(0);
  };
  const next = () => {
    if (index === null) return;
    if (index + 1 < clips.length) setIndex(index + 1);
    else {
      setIndex(null);
      toast.success(sequenceText('playbackCompleted'));
    }
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={index === null ? play : stop} data-testid="timeline-play">
          {index === null ? <Play className="size-4" aria-hidden /> : <Pause className="size-4" aria-hidden />}
          {index === null ? t('sequences.playTimeline') : t('sequences.stop')}
        </Button>
        {clip && (
          <span className="text-xs text-muted" aria-live="polite" data-testid="timeline-now-playing">
            {t('sequences.nowPlaying', {
              index: (index ?? 0) + 1,
              total: clips.length,
              prompt: truncatePrompt(clip.moviePrompt || clip.prompt, SEQUENCE_LIMITS.playbackPromptChars),
            })}
          </span>
        )}
      </div>
      {clip && (
        // biome-ignore lint/a11y/useMediaCaption: generated clips have no captions
        <video
          ref={video}
          key={`${clip.id}-${index}`}
          src={clip.videoUrl}
          autoPlay
          playsInline
          controls
          data-testid="timeline-video"
          className="aspect-video w-full max-w-2xl rounded-lg bg-black"
          onLoadedMetadata={(event) => {
            event.currentTarget.currentTime = clip.startTime;
            void event.currentTarget.play().catch(() => undefined);
          }}
          onTimeUpdate={(event) => {
            if (event.currentTarget.currentTime >= clip.startTime + clip.duration) next();
          }}
          onEnded={next}
          onError={next}
        />
      )}
    </div>
  );
}

function AnalysisView() {
  const { t } = useTranslation();
  const analysis = useSequences((state) => state.analysis);
  if (!analysis) return <p className="text-xs text-muted">{t('sequences.noAnalysis')}</p>;
  const detail = analysis.analysis as Partial<MovieAgentReply['analysis']> | string | null;
  return (
    <div className="space-y-1.5 text-xs" data-testid="timeline-analysis">
      <p>
        <span className="text-muted">{t('sequences.contentType')}: </span>
        {analysis.contentType || '—'}
      </p>
      <p>
        <span className="text-muted">{t('sequences.sequenceCount')}: </span>
        {analysis.sequenceCount}
      </p>
      {typeof detail === 'string' ? (
        <p className="whitespace-pre-wrap">{detail}</p>
      ) : (
        detail && (
          <>
            {detail.summary && <p className="whitespace-pre-wrap">{detail.summary}</p>}
            {detail.style && (
              <p>
                <span className="text-muted">{t('sequences.style')}: </span>
                {detail.style}
              </p>
            )}
            {Array.isArray(detail.scenes) && detail.scenes.length > 0 && (
              <ol className="list-decimal space-y-1 ps-4">
                {detail.scenes.map((scene) => (
                  <li key={scene.sceneNumber}>
                    <span className="font-medium">{scene.heading}</span>
                    {scene.summary && <span className="text-muted"> — {scene.summary}</span>}
                  </li>
                ))}
              </ol>
            )}
          </>
        )
      )}
    </div>
  );
}

export default function TimelineEditor({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dir = useDir();
  const items = useSequences((state) => state.items);
  const [pps, setPps] = useState<number>(SEQUENCE_LIMITS.defaultPxPerSecond);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Content
          dir={dir}
          aria-describedby={undefined}
          data-testid="timeline-editor"
          className="fixed inset-0 z-50 flex flex-col bg-bg text-fg outline-none"
        >
          <header className="flex h-14 shrink-0 items-center gap-2 border-b border-line bg-surface px-3 sm:px-5">
            <Dialog.Title className="min-w-0 flex-1 truncate text-sm font-semibold">
              {t('sequences.timelineTitle')}
            </Dialog.Title>
            <Dialog.Close
              className="grid size-9 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
              aria-label={t('common.close')}
              data-testid="timeline-close"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto">
            <div className="mx-auto grid max-w-7xl gap-6 p-3 sm:p-5 lg:grid-cols-[1fr_20rem]">
              <div className="min-w-0 space-y-6">
                <section className="space-y-2" aria-labelledby="tl-cards">
                  <h3 id="tl-cards" className={sectionTitle}>
                    {t('sequences.cards')}
                  </h3>
                  {items.length === 0 ? (
                    <p className="text-xs text-muted">{t('sequences.empty')}</p>
                  ) : (
                    <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3">
                      {items.map((item, index) => (
                        <li key={item.id} className="flex gap-2 rounded-xl border border-line bg-surface p-2">
                          <img src={item.imageUrl} alt="" className="size-14 shrink-0 rounded-md object-cover" />
                          <div className="min-w-0 space-y-1">
                            <div className="flex items-center gap-1.5">
                              <span className="text-xs font-semibold">{index + 1}</span>
                              <ItemStateBadge item={item} />
                            </div>
                            <p className="line-clamp-2 text-[11px] text-muted">{item.moviePrompt || item.prompt}</p>
                          </div>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>

                <section className="space-y-2" aria-labelledby="tl-strip">
                  <h3 id="tl-strip" className={sectionTitle}>
                    {t('sequences.reorderStrip')}
                  </h3>
                  <p className="text-xs text-subtle">{t('sequences.reorderHint')}</p>
                  <ReorderStrip items={items} />
                </section>

                <section className="space-y-3" aria-labelledby="tl-pro">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 id="tl-pro" className={cn(sectionTitle, 'me-auto')}>
                      {t('sequences.timeline')}
                    </h3>
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={t('sequences.zoomOut')}
                      disabled={pps <= SEQUENCE_LIMITS.minPxPerSecond}
                      onClick={() => setPps((value) => stepTimelineZoom(value, -1))}
                      data-testid="timeline-zoom-out"
                    >
                      <ZoomOut className="size-4" aria-hidden />
                    </Button>
                    <span
                      className="min-w-16 whitespace-nowrap text-center text-xs tabular-nums"
                      data-testid="timeline-zoom"
                      aria-live="polite"
                    >
                      {t('sequences.pxPerSecond', { value: pps })}
                    </span>
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={t('sequences.zoomIn')}
                      disabled={pps >= SEQUENCE_LIMITS.maxPxPerSecond}
                      onClick={() => setPps((value) => stepTimelineZoom(value, 1))}
                      data-testid="timeline-zoom-in"
                    >
                      <ZoomIn className="size-4" aria-hidden />
                    </Button>
                  </div>
                  <p className="text-xs text-subtle">{t('sequences.timelineHint')}</p>
                  <div className="overflow-x-auto pb-2">
                    <ol className="w-max space-y-2">
                      {items.map((item, index) => (
                        <TimelineClip key={item.id} item={item} index={index} pps={pps} />
                      ))}
                    </ol>
                  </div>
                  <TimelinePlayer items={items} />
                </section>
              </div>

              <aside className="space-y-6">
                <section className="space-y-2" aria-labelledby="tl-agent">
                  <h3 id="tl-agent" className={sectionTitle}>
                    {t('sequences.analysisTitle')}
                  </h3>
                  <MovieScriptField requireItems />
                  <AnalysisView />
                </section>
                <section className="space-y-2" aria-labelledby="tl-master">
                  <h3 id="tl-master" className={sectionTitle}>
                    {t('sequences.masterVideo')}
                  </h3>
                  <MasterSection testIds={false} />
                </section>
              </aside>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
