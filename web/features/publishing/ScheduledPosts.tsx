import { CalendarX2, CircleAlert, ExternalLink, Film, Inbox, RefreshCw, RotateCw } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { ScheduledPost } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { dayInZone, isChangeable } from '../../../common/rules/scheduling.ts';
import { Button } from '../../ui/Button.tsx';
import { Segmented, SelectField } from '../../ui/controls.tsx';
import { DialogTitleBar } from '../../ui/DialogTitleBar.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { PlatformMark } from '../../ui/PlatformMark.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useSearchChoice } from '../../ui/useSearchChoice.ts';
import { AssetThumb } from '../assets/AssetThumb.tsx';
import { useDayPosts, usePublishAgain, useScheduledPosts } from './api.ts';
import { CalendarBoard } from './CalendarBoard.tsx';
import { errorText, socialMessage } from './messages.ts';
import { PostActions } from './PostActions.tsx';
import { StatusPill } from './postStatus.tsx';
import { formatDay, formatInZone, useNow, zoneOptions } from './zone.ts';

const POST_FILTERS = ['upcoming', 'all'] as const;

const M = MESSAGES.social;

/** A failed post is published again now: after reconnecting its account, or once the network is back. */
function PublishAgain({ post }: { post: ScheduledPost }) {
  const { t } = useTranslation();
  const again = usePublishAgain();
  return (
    <Button
      variant="secondary"
      size="sm"
      loading={again.isPending}
      data-testid="post-publish-again"
      onClick={() =>
        again.mutate(post.id, {
          onSuccess: () => toast.success(t('publishing.scheduled.publishAgainToast')),
          onError: (error) => toast.error(errorText(error, MESSAGES.social.publishFailed)),
        })
      }
    >
      <RotateCw className="size-3.5" aria-hidden />
      {t('publishing.scheduled.publishAgain')}
    </Button>
  );
}

const FIGURES = ['views', 'likes', 'comments', 'shares'] as const;

/** A published post's figures as its network reports them (those it reports none of are left out). */
function PostFigures({ post }: { post: ScheduledPost }) {
  const { t, i18n } = useTranslation();
  const shown = FIGURES.filter((f) => post[f] !== null);
  if (shown.length === 0) return null;
  const format = new Intl.NumberFormat(i18n.language, { notation: 'compact' });
  return (
    <ul
      className="flex flex-wrap gap-x-3 gap-y-1 text-xs tabular-nums text-muted"
      aria-label={t('publishing.scheduled.figures')}
      data-testid="scheduled-post-figures"
    >
      {shown.map((f) => (
        <li key={f} data-testid={`scheduled-post-${f}`} data-value={post[f]}>
          {t(`publishing.scheduled.${f}`, { shown: format.format(post[f] as number) })}
        </li>
      ))}
    </ul>
  );
}

function PostCard({ post, now }: { post: ScheduledPost; now: Date }) {
  const { t, i18n } = useTranslation();
  return (
    <li
      className="flex gap-3 px-3.5 py-3"
      data-testid="scheduled-post"
      data-status={post.status}
      data-id={post.id}
      data-platform={post.platform}
    >
      {post.media.length > 0 && <MediaPreview media={post.media} />}
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <PlatformMark platform={post.platform} size="sm" />
          <span className="text-sm font-medium">{t(`publishing.platforms.${post.platform}`)}</span>
          <StatusPill status={post.status} />
          <span className="ms-auto text-xs tabular-nums text-muted" data-testid="scheduled-post-time">
            {formatInZone(post.scheduled_time, post.timezone, i18n.language)}
            <span className="text-subtle"> · {post.timezone}</span>
          </span>
        </div>
        <p
          className="line-clamp-3 whitespace-pre-line break-words text-sm text-fg/90"
          data-testid="scheduled-post-message"
        >
          {post.message}
        </p>
        {post.status === 'failed' && post.error_message && (
          <p className="flex items-start gap-1.5 text-xs text-danger">
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
            {socialMessage(post.error_message)}
          </p>
        )}
        {post.status === 'failed' && <PublishAgain post={post} />}
        {post.status === 'published' && <PostFigures post={post} />}
        {post.share_url && (
          <a
            href={post.share_url}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 text-xs font-medium text-accent hover:underline"
          >
            <ExternalLink className="size-3.5" aria-hidden />
            {t('publishing.scheduled.viewPost')}
          </a>
        )}
        {isChangeable(post, now) && <PostActions post={post} />}
      </div>
    </li>
  );
}

/** The post's first file as a thumbnail (a video marked as one), with the number of further files. */
function MediaPreview({ media }: { media: ScheduledPost['media'] }) {
  const { t } = useTranslation();
  const [first] = media;
  if (!first) return null;
  const more = media.length - 1;
  return (
    <div
      className="relative size-16 shrink-0 overflow-hidden rounded-lg border border-line bg-surface-2 sm:size-20"
      data-testid="scheduled-post-media"
      data-type={first.type}
      data-count={media.length}
    >
      <AssetThumb asset={first} />
      {first.type === 'video' && (
        <span className="absolute bottom-1 start-1 grid size-5 place-items-center rounded-full bg-black/60 text-white">
          <Film className="size-3" aria-hidden />
          <span className="sr-only">{t('publishing.scheduled.video')}</span>
        </span>
      )}
      {more > 0 && (
        <span
          className="absolute end-1 top-1 rounded-full bg-black/65 px-1.5 text-xs font-semibold leading-4 text-white"
          dir="ltr"
        >
          +{more}
        </span>
      )}
    </div>
  );
}

function DayDialog({ date, zone, onClose }: { date: string | null; zone: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const posts = useDayPosts(date, zone);
  return (
    <Dialog.Root open={date !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid="day-dialog"
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[min(640px,calc(100dvh-2rem))] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl"
        >
          <DialogTitleBar
            title={date ? t('publishing.scheduled.dayTitle', { date: formatDay(date, i18n.language, 'full') }) : ''}
          />
          <div className="min-h-0 flex-1 overflow-y-auto">
            {posts.isPending ? (
              <div className="flex justify-center py-10">
                <Spinner className="size-6" label={t('publishing.scheduled.loadingDay')} />
              </div>
            ) : posts.isError ? (
              <div className="space-y-3 p-5" role="alert">
                <FormMessage>
                  <strong className="block">{socialMessage(M.dayLoadFailed)}</strong>
                  {errorText(posts.error)}
                </FormMessage>
                <Button variant="secondary" size="sm" onClick={() => void posts.refetch()}>
                  <RefreshCw className="size-4" aria-hidden />
                  {t('publishing.scheduled.tryAgain')}
                </Button>
              </div>
            ) : posts.data.length === 0 ? (
              <p className="px-5 py-10 text-center text-sm text-muted">{t('publishing.scheduled.dayEmpty')}</p>
            ) : (
              <ul className="divide-y divide-line">
                {posts.data.map((post) => (
                  <PostCard key={post.id} post={post} now={now} />
                ))}
              </ul>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function LoadError({ onRetry, error }: { onRetry: () => void; error: unknown }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      data-testid="posts-error"
      className="flex flex-col items-center rounded-2xl border border-danger/30 bg-danger-soft px-6 py-10 text-center"
    >
      <CalendarX2 className="mb-3 size-8 text-danger" aria-hidden />
      <p className="text-base font-semibold text-fg">{socialMessage(M.loadPostsError)}</p>
      <p className="mt-1 text-sm text-muted">{errorText(error)}</p>
      <Button className="mt-5" variant="secondary" onClick={onRetry} data-testid="posts-try-again">
        <RefreshCw className="size-4" aria-hidden />
        {t('publishing.scheduled.tryAgain')}
      </Button>
    </div>
  );
}

export function ScheduledPosts({ zone, onZoneChange }: { zone: string; onZoneChange: (zone: string) => void }) {
  const { t } = useTranslation();
  const now = useNow();
  const today = dayInZone(now, zone);
  const [openDay, setOpenDay] = useState<string | null>(null);
  const [filter, setFilter] = useSearchChoice('posts', POST_FILTERS, 'upcoming');
  const list = useScheduledPosts(filter);

  return (
    <div className="space-y-5" data-testid="scheduled-posts">
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 className="text-base font-semibold">{t('publishing.scheduled.calendarTitle')}</h2>
            <div className="w-full sm:w-64">
              <SelectField
                label={t('publishing.schedule.timezone')}
                value={zone}
                onChange={onZoneChange}
                options={zoneOptions((z) => t('publishing.schedule.localZone', { zone: z }), zone)}
                testId="calendar-timezone"
              />
            </div>
          </div>
          <CalendarBoard zone={zone} today={today} now={now} onOpenDay={setOpenDay} />
          <section className="min-w-0 rounded-2xl border border-line bg-surface">
            <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3">
              <h2 className="text-base font-semibold">{t('publishing.scheduled.listTitle')}</h2>
              <Segmented<'upcoming' | 'all'>
                label={t('publishing.scheduled.listTitle')}
                value={filter}
                onChange={setFilter}
                size="sm"
                testIdPrefix="posts-filter"
                options={[
                  { value: 'upcoming', label: t('publishing.scheduled.upcoming') },
                  { value: 'all', label: t('publishing.scheduled.all') },
                ]}
              />
            </div>
            {list.isPending || !list.data ? (
              <div className="flex justify-center py-10">
                <Spinner className="size-6" label={t('common.loading')} />
              </div>
            ) : list.data.length === 0 ? (
              <div className="flex flex-col items-center px-4 py-12 text-center" data-testid="posts-empty">
                <Inbox className="mb-2 size-7 text-subtle" aria-hidden />
                <p className="text-sm text-muted">
                  {filter === 'upcoming' ? t('publishing.scheduled.emptyUpcoming') : t('publishing.scheduled.empty')}
                </p>
              </div>
            ) : (
              <ul className="divide-y divide-line" data-testid="posts-list">
                {list.data.map((post) => (
                  <PostCard key={post.id} post={post} now={now} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <DayDialog date={openDay} zone={zone} onClose={() => setOpenDay(null)} />
    </div>
  );
}
