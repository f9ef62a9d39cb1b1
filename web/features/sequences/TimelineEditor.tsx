// The full-screen timeline editor (canvas spec 2, 4, 5): sequence cards, a drag-to-reorder strip (@dnd-kit,
// pointer and keyboard), the professional timeline (a time ruler at the zoom's px/s, 10–50 in steps of 5; the
// clips end to end on one track with their thumbnails, whose start / end handles and body trim each clip to
// 1–8 s; a playhead), Play Timeline in one <video>, Movie Agent Analysis and the master video.
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
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { create } from 'zustand';
import {
  dragHandle,
  hasFinishedVideo,
  playableItems,
  SEQUENCE_LIMITS,
  stepTimelineZoom,
  type TimelineHandle,
  truncatePrompt,
} from '../../../common/rules/sequences.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import type { MovieAgentReply } from './api.ts';
import { ClipCutFields } from './ClipCutFields.tsx';
import { ItemStateBadge, MasterSection, MovieScriptField } from './sections.tsx';
import { type SequenceItem, useSequences } from './store.ts';
import { sequenceText } from './text.ts';
import {
  clipThumbnail,
  itemName,
  layOutClips,
  locateTime,
  rulerTicks,
  timelineLength,
  timelineTimeOf,
} from './timeline.ts';

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
        <img src={clipThumbnail(item)} alt="" className="aspect-video w-full object-cover" draggable={false} />
        <span className="flex items-center gap-1 px-1.5 py-1 text-xs text-muted">
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

/** Where the playhead stands, in timeline seconds: written many times a second while playing, so kept apart. */
const usePlayhead = create<{ seconds: number; set: (seconds: number) => void }>()((set) => ({
  seconds: 0,
  set: (seconds) => set({ seconds: Math.round(seconds * 100) / 100 }),
}));

const HANDLE_MAX_PX = 10;
const HANDLE_MIN_PX = 4;
/** A handle's hit area (WCAG 2.5.8): 24 px where the clip has room for two of them and a 24 px body. */
const HANDLE_HIT_PX = 24;
/** Below these widths a clip shows only its number (always readable), then its duration, then its name. */
const DURATION_MIN_PX = 56;
const NAME_MIN_PX = 112;

/**
 * One clip on the track: as wide as its cut at the zoom, its thumbnail behind, the start and end handles at its
 * edges and the body between them (three sibling controls, none inside another). The handles trim the cut and
 * the body slides it through the video (1–8 s).
 */
function TimelineClip({
  item,
  index,
  offset,
  pps,
}: {
  item: SequenceItem;
  index: number;
  offset: number;
  pps: number;
}) {
  const { t } = useTranslation();
  const rtl = useDir() === 'rtl';
  const setTiming = useSequences((state) => state.setTiming);
  const drag = useRef<{ handle: TimelineHandle; x: number; timing: SequenceItem } | null>(null);

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
  const width = item.duration * pps;
  const handleWidth = Math.max(HANDLE_MIN_PX, Math.min(HANDLE_MAX_PX, Math.round(width / 4)));
  // The bar is drawn handleWidth wide at the edge; the control around it takes up to 24 px of the clip.
  const hitWidth = Math.max(handleWidth, Math.min(HANDLE_HIT_PX, Math.floor(width / 3)));
  const trimRoom = hitWidth >= HANDLE_HIT_PX ? 'full' : 'narrow';
  const name = itemName(item.prompt);
  const hasVideo = hasFinishedVideo(item);
  const title = t('sequences.clipTitle', {
    index: index + 1,
    name: item.moviePrompt ? `${name} — ${item.moviePrompt}` : name,
    duration: item.duration,
    start: item.startTime,
    end,
  });
  const handleClass =
    'absolute inset-y-0 z-[1] cursor-ew-resize focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-fg';

  return (
    <li
      data-testid="timeline-clip"
      data-item-id={item.id}
      data-start={item.startTime}
      data-duration={item.duration}
      title={title}
      className="absolute inset-y-0"
      style={{ insetInlineStart: offset * pps, width }}
    >
      <div
        aria-hidden
        data-testid="timeline-clip-thumb"
        className={cn(
          'absolute inset-0 rounded-md border-2 bg-surface-3 bg-repeat-x',
          hasVideo ? 'border-accent' : 'border-dashed border-line-strong',
        )}
        style={{ backgroundImage: `url("${clipThumbnail(item)}")`, backgroundSize: 'auto 100%' }}
      />
      {width >= DURATION_MIN_PX && (
        // The cut within the whole video: where the handles and the body have put it.
        <span aria-hidden className="absolute inset-x-3 top-1.5 h-1 rounded-full bg-black/45">
          <span
            className="absolute inset-y-0 rounded-full bg-white/90"
            style={{
              insetInlineStart: `${(item.startTime / item.maxDuration) * 100}%`,
              width: `${(item.duration / item.maxDuration) * 100}%`,
            }}
          />
        </span>
      )}
      <div
        role="slider"
        tabIndex={0}
        aria-valuemin={0}
        aria-valuemax={item.maxDuration}
        aria-valuenow={item.startTime}
        aria-valuetext={t('sequences.range', { start: item.startTime, end })}
        aria-label={t('sequences.clipLabel', { index: index + 1, start: item.startTime, duration: item.duration })}
        aria-roledescription={t('sequences.clipBody')}
        className="absolute inset-y-0 flex cursor-grab touch-none items-end justify-center pb-1.5 focus-visible:outline-2 focus-visible:outline-accent active:cursor-grabbing"
        style={{ insetInlineStart: hitWidth, insetInlineEnd: hitWidth }}
        {...handleProps('body')}
      >
        <span
          className={cn(
            'relative z-10 flex items-center gap-1 rounded bg-black/70 px-1 text-xs leading-4 text-white',
            width >= NAME_MIN_PX && 'max-w-full',
          )}
        >
          <span data-testid="timeline-clip-label" className="min-w-3 shrink-0 text-center font-semibold tabular-nums">
            {index + 1}
          </span>
          {width >= NAME_MIN_PX && (
            // The name's own direction: an English name in Arabic keeps its beginning and loses its end.
            <span dir="auto" className="min-w-0 truncate">
              {name}
            </span>
          )}
          {width >= DURATION_MIN_PX && (
            <span className="shrink-0 tabular-nums text-white/80">
              {t('sequences.seconds', { value: item.duration })}
            </span>
          )}
        </span>
      </div>
      <span
        data-testid="timeline-handle-start"
        data-trim-room={trimRoom}
        role="slider"
        tabIndex={0}
        aria-label={t('sequences.handleStart')}
        aria-valuemin={0}
        aria-valuemax={item.maxDuration}
        aria-valuenow={item.startTime}
        aria-orientation="horizontal"
        className={cn(handleClass, 'start-0')}
        style={{ width: hitWidth }}
        {...handleProps('start')}
      >
        <span
          aria-hidden
          className="absolute inset-y-0 start-0 rounded-s-md bg-accent"
          style={{ width: handleWidth }}
        />
      </span>
      <span
        data-testid="timeline-handle-end"
        data-trim-room={trimRoom}
        role="slider"
        tabIndex={0}
        aria-label={t('sequences.handleEnd')}
        aria-valuemin={SEQUENCE_LIMITS.minDuration}
        aria-valuemax={item.maxDuration}
        aria-valuenow={end}
        aria-orientation="horizontal"
        className={cn(handleClass, 'end-0')}
        style={{ width: hitWidth }}
        {...handleProps('end')}
      >
        <span aria-hidden className="absolute inset-y-0 end-0 rounded-e-md bg-accent" style={{ width: handleWidth }} />
      </span>
    </li>
  );
}

/**
 * The time ruler: a tick every second at the zoom's px/s, labelled in seconds. It is the playhead's slider:
 * click or drag it to move the playhead, arrows move it by 1 s (Shift 5 s), Home and End to the ends.
 */
function TimelineRuler({
  seconds,
  total,
  pps,
  onSeek,
}: {
  seconds: number;
  total: number;
  pps: number;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  const rtl = useDir() === 'rtl';
  const playhead = usePlayhead((state) => Math.min(state.seconds, total));
  const dragging = useRef(false);
  const at = (event: PointerEvent<HTMLElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const x = rtl ? rect.right - event.clientX : event.clientX - rect.left;
    return Math.round(Math.min(total, Math.max(0, x / pps)) * 10) / 10;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const step = event.shiftKey ? 5 : 1;
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    let next: number | null = null;
    if (event.key === forward) next = playhead + step;
    else if (event.key === back) next = playhead - step;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = total;
    if (next === null) return;
    event.preventDefault();
    onSeek(Math.min(total, Math.max(0, next)));
  };
  return (
    <div
      role="slider"
      tabIndex={0}
      aria-label={t('sequences.playhead')}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={playhead}
      aria-valuetext={t('sequences.playheadValue', { time: playhead.toFixed(1), total })}
      aria-orientation="horizontal"
      data-testid="timeline-ruler"
      className="relative h-7 cursor-pointer touch-none select-none border-b border-line-strong focus-visible:outline-2 focus-visible:outline-accent"
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        dragging.current = true;
        onSeek(at(event));
      }}
      onPointerMove={(event) => dragging.current && onSeek(at(event))}
      onPointerUp={() => {
        dragging.current = false;
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
      onKeyDown={onKeyDown}
    >
      {rulerTicks(seconds, pps).map((tick) => (
        <span
          key={tick.second}
          aria-hidden
          data-testid="timeline-tick"
          className={cn('absolute bottom-0 w-px', tick.labelled ? 'h-3 bg-muted' : 'h-1.5 bg-line-strong')}
          style={{ insetInlineStart: tick.second * pps }}
        >
          {tick.labelled && (
            <span className="absolute bottom-3 start-1 whitespace-nowrap text-xs leading-3 tabular-nums text-subtle">
              {t('sequences.seconds', { value: tick.second })}
            </span>
          )}
        </span>
      ))}
    </div>
  );
}

/** The playhead: a line over the ruler and the track at the current timeline time. */
function Playhead({ pps, total }: { pps: number; total: number }) {
  const seconds = usePlayhead((state) => Math.min(state.seconds, total));
  return (
    <div
      aria-hidden
      data-testid="timeline-playhead"
      data-seconds={seconds}
      className="pointer-events-none absolute inset-y-0 z-20 -ms-px w-0.5 bg-danger"
      style={{ insetInlineStart: seconds * pps }}
    >
      <span className="absolute -top-1 -start-1 size-2.5 rotate-45 rounded-sm bg-danger" />
    </div>
  );
}

/** The track: the ruler over the clips laid end to end, in order, and the playhead across both. */
function TimelineTrack({ items, pps, onSeek }: { items: SequenceItem[]; pps: number; onSeek: (s: number) => void }) {
  const { t } = useTranslation();
  const placements = layOutClips(items);
  const total = timelineLength(items);
  // One more second of ruler after the last clip, so its end is never on the edge.
  const seconds = Math.ceil(total) + 1;
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-surface px-3 pb-3 pt-1">
      <div className="relative" style={{ width: seconds * pps + 1 }}>
        <TimelineRuler seconds={seconds} total={total} pps={pps} onSeek={onSeek} />
        <ol className="relative mt-2 h-16" aria-label={t('sequences.track')} data-testid="timeline-track">
          {items.map((item, index) => (
            <TimelineClip key={item.id} item={item} index={index} offset={placements[index]?.offset ?? 0} pps={pps} />
          ))}
        </ol>
        <Playhead pps={pps} total={total} />
      </div>
    </div>
  );
}

/**
 * Play Timeline: the clips with a video, in order, each from its start for its duration, in one <video>, from
 * the playhead on. The playhead follows the video; seeking moves the playback with it.
 */
function useTimelinePlayback(items: SequenceItem[]) {
  const video = useRef<HTMLVideoElement>(null);
  const [current, setCurrent] = useState<{ id: string; from: number; key: number } | null>(null);
  const latest = useRef(items);
  latest.current = items;
  // timeupdate and ended can both report the end of one clip: it moves on once.
  const finished = useRef<number | null>(null);
  // Each start of a clip gets a new key, so the <video> starts afresh even on the same clip.
  const starts = useRef(0);

  // The first clip with a video at or after a timeline time, and where in it to start.
  const startAt = (seconds: number) => {
    const list = latest.current;
    const spot = locateTime(list, seconds);
    if (!spot) return null;
    for (let index = spot.index; index < list.length; index++) {
      const item = list[index] as SequenceItem;
      if (!hasFinishedVideo(item)) continue;
      return { id: item.id, from: index === spot.index ? spot.clipTime : item.startTime, key: ++starts.current };
    }
    return null;
  };

  useEffect(() => {
    if (!current) return;
    let frame = 0;
    const follow = () => {
      const element = video.current;
      if (element) usePlayhead.getState().set(timelineTimeOf(latest.current, current.id, element.currentTime));
      frame = requestAnimationFrame(follow);
    };
    frame = requestAnimationFrame(follow);
    return () => cancelAnimationFrame(frame);
  }, [current]);

  const play = () => {
    if (playableItems(latest.current).length === 0) {
      toast.error(sequenceText('noVideosToPlay'));
      return;
    }
    const { seconds } = usePlayhead.getState();
    const atEnd = seconds >= timelineLength(latest.current) - 0.05;
    setCurrent(startAt(atEnd ? 0 : seconds) ?? startAt(0));
  };
  const stop = () => {
    video.current?.pause();
    setCurrent(null);
  };
  const next = () => {
    if (!current || finished.current === current.key) return;
    finished.current = current.key;
    const list = latest.current;
    const index = list.findIndex((item) => item.id === current.id);
    const following = list.slice(index + 1).find(hasFinishedVideo);
    if (following) {
      setCurrent({ id: following.id, from: following.startTime, key: ++starts.current });
      return;
    }
    setCurrent(null);
    usePlayhead.getState().set(timelineLength(list));
    toast.success(sequenceText('playbackCompleted'));
  };
  const seek = (seconds: number) => {
    usePlayhead.getState().set(seconds);
    if (!current) return;
    const target = startAt(seconds);
    if (!target) return stop();
    if (target.id === current.id && video.current) video.current.currentTime = target.from;
    else setCurrent(target);
  };

  const clips = playableItems(items);
  const clip = current ? (items.find((item) => item.id === current.id) ?? null) : null;
  return { video, current, clip, clips, play, stop, next, seek };
}

type Playback = ReturnType<typeof useTimelinePlayback>;

function PlayButton({ playback }: { playback: Playback }) {
  const { t } = useTranslation();
  const playing = playback.current !== null;
  return (
    <Button size="sm" onClick={playing ? playback.stop : playback.play} data-testid="timeline-play">
      {playing ? <Pause className="size-4" aria-hidden /> : <Play className="size-4" aria-hidden />}
      {playing ? t('sequences.stop') : t('sequences.playTimeline')}
    </Button>
  );
}

function TimelineVideo({ playback }: { playback: Playback }) {
  const { t } = useTranslation();
  const { current, clip, clips } = playback;
  if (!current || !clip?.videoUrl) return null;
  const position = clips.findIndex((entry) => entry.id === clip.id);
  return (
    <div className="space-y-2">
      <p className="text-xs text-muted" aria-live="polite" data-testid="timeline-now-playing">
        {t('sequences.nowPlaying', {
          index: position + 1,
          total: clips.length,
          prompt: truncatePrompt(clip.moviePrompt || clip.prompt, SEQUENCE_LIMITS.playbackPromptChars),
        })}
      </p>
      {/* biome-ignore lint/a11y/useMediaCaption: generated clips have no captions */}
      <video
        ref={playback.video}
        key={current.key}
        src={clip.videoUrl}
        autoPlay
        playsInline
        controls
        data-testid="timeline-video"
        className="aspect-video w-full max-w-2xl rounded-lg bg-black"
        onLoadedMetadata={(event) => {
          event.currentTarget.currentTime = current.from;
          void event.currentTarget.play().catch(() => undefined);
        }}
        onTimeUpdate={(event) => {
          if (event.currentTarget.currentTime >= clip.startTime + clip.duration) playback.next();
        }}
        onEnded={playback.next}
        onError={playback.next}
      />
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
  const playback = useTimelinePlayback(items);
  useEffect(() => {
    usePlayhead.getState().set(0);
  }, []);

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
                          <img
                            src={clipThumbnail(item)}
                            alt=""
                            loading="lazy"
                            className="size-14 shrink-0 rounded-md object-cover"
                          />
                          <div className="min-w-0 space-y-1">
                            <div className="flex items-center gap-1.5">
                              <span className="text-xs font-semibold">{index + 1}</span>
                              <ItemStateBadge item={item} />
                            </div>
                            <p className="line-clamp-2 text-xs text-muted">{item.moviePrompt || item.prompt}</p>
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
                    <div className="flex items-center gap-2">
                      <PlayButton playback={playback} />
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
                  </div>
                  <p className="text-xs text-subtle">{t('sequences.timelineHint')}</p>
                  <TimelineTrack items={items} pps={pps} onSeek={playback.seek} />
                  <ClipCutFields items={items} />
                  <TimelineVideo playback={playback} />
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
