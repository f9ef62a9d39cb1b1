import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { CalendarDays, CalendarRange, ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { ScheduledPost } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented, useDir } from '../../ui/controls.tsx';
import { useSearchChoice } from '../../ui/useSearchChoice.ts';
import { useCalendar, useMovePost } from './api.ts';
import { DraggedPost, useClock } from './CalendarPost.tsx';
import { useKeyboardMoves, useSlotName } from './calendarDnd.ts';
import {
  CALENDAR_VIEWS,
  type CalendarView,
  movedTime,
  parseSlotId,
  shiftAnchor,
  slotId,
  slotOf,
  viewDays,
} from './calendarMath.ts';
import { MonthView } from './MonthView.tsx';
import { errorText, socialMessage } from './messages.ts';
import { WeekView } from './WeekView.tsx';
import { formatInZone } from './zone.ts';

function Toolbar({
  view,
  onView,
  title,
  onStep,
  onToday,
}: {
  view: CalendarView;
  onView: (view: CalendarView) => void;
  title: string;
  onStep: (delta: -1 | 1) => void;
  onToday: () => void;
}) {
  const { t } = useTranslation();
  const dir = useDir();
  const PrevIcon = dir === 'rtl' ? ChevronRight : ChevronLeft;
  const NextIcon = dir === 'rtl' ? ChevronLeft : ChevronRight;
  const unit = view === 'week' ? 'Week' : 'Month';
  const nav =
    'grid size-9 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="flex items-center gap-1">
        <Button variant="secondary" size="sm" onClick={onToday} data-testid="posts-calendar-today">
          {t('publishing.calendar.today')}
        </Button>
        <button
          type="button"
          className={nav}
          aria-label={t(`publishing.calendar.previous${unit}`)}
          data-testid="posts-calendar-prev"
          onClick={() => onStep(-1)}
        >
          <PrevIcon className="size-4" aria-hidden />
        </button>
        <button
          type="button"
          className={nav}
          aria-label={t(`publishing.calendar.next${unit}`)}
          data-testid="posts-calendar-next"
          onClick={() => onStep(1)}
        >
          <NextIcon className="size-4" aria-hidden />
        </button>
      </div>
      <h3
        className="flex-1 whitespace-nowrap text-base font-semibold"
        aria-live="polite"
        data-testid="posts-calendar-title"
      >
        {title}
      </h3>
      <Segmented<CalendarView>
        className="ms-auto"
        label={t('publishing.calendar.view')}
        value={view}
        onChange={onView}
        size="sm"
        testIdPrefix="posts-view"
        options={[
          {
            value: 'week',
            label: t('publishing.calendar.week'),
            icon: <CalendarRange className="size-4" aria-hidden />,
          },
          {
            value: 'month',
            label: t('publishing.calendar.month'),
            icon: <CalendarDays className="size-4" aria-hidden />,
          },
        ]}
      />
    </div>
  );
}

function rangeTitle(view: CalendarView, days: string[], language: string): string {
  const utc = (date: string) => new Date(`${date}T00:00:00Z`);
  if (view === 'month') {
    const middle = days[15] as string;
    return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utc(middle));
  }
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatRange(utc(days[0] as string), utc(days[6] as string));
}

/**
 * The scheduling calendar (as in Postiz): a week of hours or a month of days in the chosen zone, each post as a card
 * with its preview and network mark. Dragging a card (pointer, or Space and the arrow keys) reschedules it: it moves
 * at once and goes back with an error when the server refuses.
 */
export function CalendarBoard({
  zone,
  today,
  now,
  onOpenDay,
}: {
  zone: string;
  today: string;
  now: Date;
  onOpenDay: (date: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useSearchChoice<CalendarView>('calendar', CALENDAR_VIEWS, 'week');
  const [anchor, setAnchor] = useState(today);
  const days = viewDays(view, anchor);
  const start = days[0] as string;
  const end = days[days.length - 1] as string;
  const calendar = useCalendar(start, end, zone);
  const byDate = new Map((calendar.data ?? []).map((day) => [day.date, day]));
  const move = useMovePost();
  const [dragged, setDragged] = useState<ScheduledPost | null>(null);
  const slotName = useSlotName();
  const clock = useClock(zone);
  const rtl = useDir() === 'rtl';
  const { keyboardSlot, coordinateGetter, collision } = useKeyboardMoves(view, rtl);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );

  const postName = (post: ScheduledPost | undefined) =>
    post ? `${t(`publishing.platforms.${post.platform}`)} ${clock(post.scheduled_time)}` : '';
  const postOf = (data: { current?: { post?: ScheduledPost } } | undefined) => data?.current?.post;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('publishing.calendar.pickedUp', { post: postName(postOf(active.data)) }),
    onDragOver: ({ over }) => (over ? t('publishing.calendar.over', { slot: slotName(over.id) }) : undefined),
    onDragEnd: ({ over }) =>
      over ? t('publishing.calendar.dropped', { slot: slotName(over.id) }) : t('publishing.calendar.moveCancelled'),
    onDragCancel: () => t('publishing.calendar.moveCancelled'),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    keyboardSlot.current = null;
    const post = postOf(active.data);
    const slot = over ? parseSlotId(String(over.id)) : null;
    if (!post || !slot) return;
    const at = movedTime(post.scheduled_time, zone, slot);
    if (!at) return;
    move.mutate(
      { post, at },
      {
        onSuccess: (moved) =>
          toast.success(
            t('publishing.calendar.movedToast', { when: formatInZone(moved.scheduled_time, zone, i18n.language) }),
          ),
        onError: (error) =>
          toast.error(t('publishing.calendar.moveFailed'), {
            description: errorText(error, MESSAGES.social.rescheduleInvalid),
          }),
      },
    );
  };

  return (
    <section
      className="@container min-w-0 space-y-3 rounded-2xl border border-line bg-surface p-3 sm:p-4"
      data-testid="posts-calendar"
      data-view={view}
      data-start={start}
      aria-label={t('publishing.scheduled.calendarTitle')}
    >
      <Toolbar
        view={view}
        onView={setView}
        title={rangeTitle(view, days, i18n.language)}
        onStep={(delta) => setAnchor(shiftAnchor(view, anchor, delta))}
        onToday={() => setAnchor(today)}
      />
      {calendar.isError && (
        <p role="alert" className="text-sm text-danger">
          {socialMessage(MESSAGES.social.loadPostsError)}
        </p>
      )}
      <DndContext
        sensors={sensors}
        collisionDetection={collision}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: t('publishing.calendar.dragInstructions') },
        }}
        onDragStart={({ active, activatorEvent }) => {
          const post = postOf(active.data);
          setDragged(post ?? null);
          const at = post && slotOf(post.scheduled_time, zone);
          keyboardSlot.current =
            at && activatorEvent instanceof KeyboardEvent
              ? slotId({ date: at.date, hour: view === 'week' ? at.hour : null })
              : null;
        }}
        onDragCancel={() => {
          setDragged(null);
          keyboardSlot.current = null;
        }}
        onDragEnd={onDragEnd}
      >
        <div className={cn('transition-opacity', calendar.isFetching && !move.isPending && 'opacity-80')}>
          {view === 'week' ? (
            <WeekView days={days} byDate={byDate} zone={zone} today={today} now={now} onOpenDay={onOpenDay} />
          ) : (
            <MonthView
              days={days}
              byDate={byDate}
              zone={zone}
              today={today}
              now={now}
              onOpenDay={onOpenDay}
              month={(days[15] as string).slice(0, 7)}
            />
          )}
        </div>
        <DragOverlay dropAnimation={null}>
          {dragged && <DraggedPost post={dragged} zone={zone} compact={view === 'month'} />}
        </DragOverlay>
      </DndContext>
    </section>
  );
}
