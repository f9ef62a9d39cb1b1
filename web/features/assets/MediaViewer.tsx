import { ChevronLeft, ChevronRight, Download, ImageOff, Music, VideoOff, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { downloadUrl, stepIndex } from '../../../common/rules/studio.ts';
import { translateMessage } from '../../i18n/index.ts';
import { cn } from '../../ui/cn.ts';
import { EngineBadge } from '../../ui/EngineBadge.tsx';

export interface ViewerItem {
  id: string;
  url: string;
  type: string;
  prompt?: string | null;
  /** metadata.engine of the asset, shown in the header. */
  engine?: string | null;
}

const isVideo = (type: string) => type === 'video' || type === 'video_enhancement';
const isAudio = (type: string) => type === 'audio';

function Unavailable({ kind }: { kind: 'image' | 'video' }) {
  const Icon = kind === 'image' ? ImageOff : VideoOff;
  return (
    <div
      role="alert"
      data-testid="viewer-unavailable"
      className="grid place-items-center gap-3 rounded-2xl border border-white/10 bg-white/5 px-10 py-14 text-center text-white/80"
    >
      <Icon className="size-10 text-white/50" aria-hidden />
      <p className="text-sm font-medium">
        {translateMessage(kind === 'image' ? MESSAGES.assets.imageUnavailable : MESSAGES.assets.videoUnavailable)}
      </p>
    </div>
  );
}

function Stage({ item }: { item: ViewerItem }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new item gets a fresh chance to load
  useEffect(() => setFailed(false), [item.url]);

  if (isVideo(item.type)) {
    if (failed) return <Unavailable kind="video" />;
    return (
      // biome-ignore lint/a11y/useMediaCaption: generated media has no captions
      <video
        key={item.url}
        src={item.url}
        controls
        autoPlay
        playsInline
        onError={() => setFailed(true)}
        className="max-h-full max-w-full rounded-lg bg-black object-contain"
      />
    );
  }
  if (isAudio(item.type)) {
    return (
      <div className="flex w-full max-w-md flex-col items-center gap-5 rounded-2xl border border-white/10 bg-white/5 p-8">
        <Music className="size-12 text-white/60" aria-hidden />
        {/* biome-ignore lint/a11y/useMediaCaption: generated audio has no captions */}
        <audio key={item.url} src={item.url} controls autoPlay className="w-full" aria-label={t('assets.audio')} />
      </div>
    );
  }
  if (failed) return <Unavailable kind="image" />;
  return (
    <img
      key={item.url}
      src={item.url}
      alt={item.prompt ?? t('assets.imageAlt')}
      onError={() => setFailed(true)}
      className="max-h-full max-w-full rounded-lg object-contain shadow-2xl"
    />
  );
}

/**
 * Full-screen overlay for images, videos and audio: Esc closes, arrow keys (and the side buttons) move between
 * items, following the reading direction in Arabic.
 */
export function MediaViewer({
  items,
  index,
  onIndexChange,
  onClose,
}: {
  items: readonly ViewerItem[];
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const rtl = i18n.language === 'ar';
  const open = index !== null && items.length > 0;
  const current = open ? items[Math.min(index, items.length - 1)] : null;
  const many = items.length > 1;

  const go = (step: 1 | -1) => {
    if (index === null || !many) return;
    onIndexChange(stepIndex(index, step, items.length));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Leave the arrows to a focused video/audio element (seeking) and form controls.
    const target = event.target as HTMLElement;
    if (target.closest('video, audio, input, select, textarea')) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(rtl ? -1 : 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(rtl ? 1 : -1);
    }
  };

  const navButton =
    'grid size-11 place-items-center rounded-full bg-white/10 text-white transition-colors hover:bg-white/20';

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/90 backdrop-blur-sm" />
        <Dialog.Content
          data-testid="viewer"
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
          className="fixed inset-0 z-50 flex flex-col text-white outline-none"
        >
          <div className="flex h-14 shrink-0 items-center gap-2 px-3 sm:px-5">
            <Dialog.Title className="min-w-0 flex-1 truncate text-sm font-medium text-white/90">
              {current?.prompt || t('assets.viewerTitle')}
            </Dialog.Title>
            <EngineBadge engine={current?.engine} className="hidden shrink-0 text-white/60 sm:inline-flex" />
            {many && index !== null && (
              <span className="shrink-0 text-xs tabular-nums text-white/60" data-testid="viewer-position">
                {t('assets.position', { current: index + 1, total: items.length })}
              </span>
            )}
            {current && (
              <a
                href={downloadUrl(current.url)}
                download
                className="grid size-9 place-items-center rounded-lg text-white/80 hover:bg-white/10 hover:text-white"
                aria-label={t('assets.download')}
                title={t('assets.download')}
              >
                <Download className="size-5" aria-hidden />
              </a>
            )}
            <Dialog.Close
              className="grid size-9 place-items-center rounded-lg text-white/80 hover:bg-white/10 hover:text-white"
              aria-label={t('common.close')}
              data-testid="viewer-close"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="relative flex min-h-0 flex-1 items-center justify-center px-3 pb-6 sm:px-20">
            {current && <Stage item={current} />}
            {many && (
              <>
                <button
                  type="button"
                  onClick={() => go(-1)}
                  aria-label={t('assets.previous')}
                  className={cn(navButton, 'absolute start-2 top-1/2 -translate-y-1/2 sm:start-5')}
                  data-testid="viewer-previous"
                >
                  <ChevronLeft className="size-6 rtl:-scale-x-100" aria-hidden />
                </button>
                <button
                  type="button"
                  onClick={() => go(1)}
                  aria-label={t('assets.next')}
                  className={cn(navButton, 'absolute end-2 top-1/2 -translate-y-1/2 sm:end-5')}
                  data-testid="viewer-next"
                >
                  <ChevronRight className="size-6 rtl:-scale-x-100" aria-hidden />
                </button>
              </>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
