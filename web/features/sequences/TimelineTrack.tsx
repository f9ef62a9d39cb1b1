// The professional timeline's track: a time ruler at the zoom's px/s, the clips end to end with their
// thumbnails and start / end trim handles, and the playhead across both.
import { type KeyboardEvent, type PointerEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { dragHandle, hasFinishedVideo, SEQUENCE_LIMITS, type TimelineHandle } from '../../../common/rules/sequences.ts';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { type SequenceItem, useSequences } from './store.ts';
import { sequenceText } from './text.ts';
import { clipThumbnail, itemName, layOutClips, rulerTicks, timelineLength } from './timeline.ts';
import { usePlayhead } from './timelinePlayback.ts';

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
export function TimelineTrack({
  items,
  pps,
  onSeek,
}: {
  items: SequenceItem[];
  pps: number;
  onSeek: (s: number) => void;
}) {
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
