import { useDraggable } from '@dnd-kit/core';
import { Film } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ScheduledPost } from '../../../common/api/social.ts';
import { cn } from '../../ui/cn.ts';
import { PlatformMark } from '../../ui/PlatformMark.tsx';
import { STATUS_DOT } from './postStatus.tsx';

/** A post's time of day in the zone the calendar is shown in. */
export function useClock(zone: string): (at: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short', timeZone: zone });
  return (at) => format.format(new Date(at));
}

/** The post's first file at its own aspect (never cropped or stretched); a video shows its poster and a mark. */
function PostPreview({ post, compact }: { post: ScheduledPost; compact: boolean }) {
  const { t } = useTranslation();
  const [first] = post.media;
  if (!first) return null;
  const src = first.thumbnail_url ?? (first.type === 'image' ? first.url : null);
  return (
    <span className={cn('relative flex shrink-0 justify-center rounded bg-black/25', compact ? 'size-6' : 'w-full')}>
      {src ? (
        <img
          src={src}
          alt=""
          draggable={false}
          loading="lazy"
          data-testid="calendar-post-preview"
          className={cn('block h-auto w-auto max-w-full rounded object-contain', compact ? 'max-h-6' : 'max-h-24')}
        />
      ) : (
        <span className="grid h-10 w-full place-items-center text-subtle">
          <Film className="size-4" aria-hidden />
        </span>
      )}
      {first.type === 'video' && src && (
        <span className="absolute bottom-0.5 start-0.5 grid size-4 place-items-center rounded-full bg-black/65 text-white">
          <Film className="size-2.5" aria-hidden />
          <span className="sr-only">{t('publishing.scheduled.video')}</span>
        </span>
      )}
    </span>
  );
}

/** What a post's card shows: preview, network mark, time and the start of its caption. */
function PostFace({
  post,
  zone,
  compact = false,
}: {
  post: ScheduledPost;
  zone: string;
  /** The month grid: a one-line chip. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const clock = useClock(zone);
  const network = t(`publishing.platforms.${post.platform}`);
  return (
    <>
      {!compact && <PostPreview post={post} compact={false} />}
      <span className={cn('flex min-w-0 items-center gap-1', compact && 'relative justify-center @3xl:justify-start')}>
        {compact && <PostPreview post={post} compact />}
        {/* In a narrow month cell the mark sits on the preview's corner and the time is left to the day. */}
        <span className={cn('shrink-0', compact && 'absolute -bottom-1 end-0 @3xl:static')}>
          <PlatformMark platform={post.platform} size={compact ? 'chip' : 'xs'} label={network} />
        </span>
        <span
          className={cn('min-w-0 truncate text-xs font-semibold tabular-nums', compact && 'hidden @3xl:inline')}
          data-testid="calendar-post-time"
        >
          {clock(post.scheduled_time)}
        </span>
        {/* The status as a dot in the card's corner, leaving the row to the time. */}
        <span
          className={cn(
            'absolute end-1 top-1 size-2.5 rounded-full ring-2 ring-surface-2',
            compact && 'hidden',
            STATUS_DOT[post.status],
          )}
          aria-hidden
        />
        <span className="sr-only">{t(`publishing.postStatus.${post.status}`)}</span>
      </span>
      <span
        className={cn(
          'min-w-0 break-words text-xs text-fg/85',
          compact ? 'hidden truncate @3xl:block' : 'line-clamp-2',
        )}
        dir="auto"
      >
        {post.message}
      </span>
    </>
  );
}

const CARD =
  'relative flex w-full min-w-0 flex-col gap-1 rounded-lg border border-line bg-surface-2 p-1.5 text-start transition-colors hover:border-line-strong focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent';

/**
 * A post in the calendar: opens its day (to edit, reschedule, duplicate or cancel), and while it can still change
 * it can be dragged to another slot, with the pointer or the keyboard (Space picks up, arrows move, Space drops).
 */
export function CalendarPost({
  post,
  zone,
  compact,
  movable,
  onOpen,
}: {
  post: ScheduledPost;
  zone: string;
  compact?: boolean;
  movable: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: post.id,
    data: { post },
    disabled: !movable,
    attributes: { roleDescription: t('publishing.calendar.movablePost') },
  });
  return (
    <button
      type="button"
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onClick={onOpen}
      data-testid="calendar-post"
      data-id={post.id}
      data-platform={post.platform}
      data-time={post.scheduled_time}
      className={cn(CARD, movable && 'cursor-grab touch-none', isDragging && 'opacity-40')}
    >
      <PostFace post={post} zone={zone} compact={compact} />
    </button>
  );
}

/** The card under the pointer while a post is dragged. */
export function DraggedPost({ post, zone, compact }: { post: ScheduledPost; zone: string; compact?: boolean }) {
  return (
    <div className={cn(CARD, 'w-40 cursor-grabbing shadow-2xl ring-2 ring-accent')}>
      <PostFace post={post} zone={zone} compact={compact} />
    </div>
  );
}
