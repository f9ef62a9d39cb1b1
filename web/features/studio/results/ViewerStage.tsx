import { ImageOff, Music, VideoOff } from 'lucide-react';
import {
  type CSSProperties,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../../common/messages.ts';
import { translateMessage } from '../../../i18n/index.ts';
import { cn } from '../../../ui/cn.ts';
import type { ViewerMedia } from './history.ts';

export type Zoom = 'fit' | 'actual';

/** The shape of the stage for audio (a player, no picture) and for media of unknown size. */
const AUDIO_ASPECT = 2;

interface Size {
  width: number;
  height: number;
}

/** The stage's inner size, followed as the window (or the layout) changes. */
function useBoxSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => setSize({ width: node.clientWidth, height: node.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** The largest box of the media's own shape inside the stage (never stretched out of shape). */
function fitBox(natural: Size, stage: Size): Size {
  const scale = Math.min(stage.width / natural.width, stage.height / natural.height);
  return { width: Math.floor(natural.width * scale), height: Math.floor(natural.height * scale) };
}

/**
 * The frame every result is shown in, and the progress before it: the column's width at the shape of what it shows
 * (`aspect`, width / height; audio gets a wide panel), no taller than the screen leaves room for (the result column
 * is sticky beside the form on wide layouts).
 */
export function StageFrame({
  aspect,
  children,
  className,
  ...rest
}: {
  aspect: number | null;
  children: ReactNode;
  className?: string;
} & Omit<HTMLAttributes<HTMLDivElement>, 'className' | 'children'> & { ref?: RefObject<HTMLDivElement | null> }) {
  return (
    <div
      {...rest}
      style={{ '--stage-aspect': aspect ?? AUDIO_ASPECT } as CSSProperties}
      className={cn(
        'relative w-full rounded-xl border border-line bg-surface-2',
        'aspect-(--stage-aspect) max-h-[70dvh] @3xl:max-h-[max(18rem,calc(100dvh-21rem))]',
        className,
      )}
    >
      {children}
    </div>
  );
}

function Unavailable({ kind }: { kind: 'image' | 'video' }) {
  const Icon = kind === 'image' ? ImageOff : VideoOff;
  return (
    <div role="alert" className="flex flex-col items-center gap-2 text-muted">
      <Icon className="size-8" aria-hidden />
      <p className="text-sm font-medium">
        {translateMessage(kind === 'image' ? MESSAGES.assets.imageUnavailable : MESSAGES.assets.videoUnavailable)}
      </p>
    </div>
  );
}

/**
 * The current result, large: an image or a video at its own shape, as large as the stage allows (`fit`) or at its
 * pixel size (`actual`, the stage scrolls); audio as a player. + / 1 show 100 %, − / 0 fit, on the focused image.
 */
export function ViewerStage({ media, zoom, onZoom }: { media: ViewerMedia; zoom: Zoom; onZoom: (zoom: Zoom) => void }) {
  const { t } = useTranslation();
  const stageRef = useRef<HTMLDivElement>(null);
  const stage = useBoxSize(stageRef);
  const [loaded, setLoaded] = useState<Size | null>(null);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new result is measured and loaded afresh
  useEffect(() => {
    setLoaded(null);
    setFailed(false);
  }, [media.url]);

  const natural = loaded ?? (media.width && media.height ? { width: media.width, height: media.height } : null);
  const aspect = media.type === 'audio' ? null : natural ? natural.width / natural.height : null;
  const inner = stage ? { width: stage.width - 2, height: stage.height - 2 } : null;
  const box = natural && inner ? (zoom === 'actual' ? natural : fitBox(natural, inner)) : null;
  const sizeStyle = box ? { width: box.width, height: box.height } : undefined;
  const actual = zoom === 'actual' && media.type === 'image';

  const onKeyDown = (event: KeyboardEvent) => {
    if (media.type !== 'image') return;
    if (event.key === '+' || event.key === '=' || event.key === '1') onZoom('actual');
    else if (event.key === '-' || event.key === '0') onZoom('fit');
    else return;
    event.preventDefault();
  };

  let content: ReactNode;
  if (failed) content = <Unavailable kind={media.type === 'video' ? 'video' : 'image'} />;
  else if (media.type === 'audio') {
    content = (
      <div data-testid="result-audio" className="flex w-full max-w-md flex-col items-center gap-4 px-5">
        <span className="grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent">
          <Music className="size-7" aria-hidden />
        </span>
        {/* biome-ignore lint/a11y/useMediaCaption: generated audio has no captions */}
        <audio
          key={media.url}
          src={media.url}
          controls
          preload="metadata"
          className="w-full"
          aria-label={t('studio.results.audio')}
        />
      </div>
    );
  } else if (media.type === 'video') {
    content = (
      <div data-testid="result-video" className="contents">
        {/* biome-ignore lint/a11y/useMediaCaption: generated video has no captions */}
        <video
          key={media.url}
          src={media.url}
          poster={media.thumbnailUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          data-testid="viewer-media"
          onLoadedMetadata={(event) => {
            const v = event.currentTarget;
            if (v.videoWidth && v.videoHeight) setLoaded({ width: v.videoWidth, height: v.videoHeight });
          }}
          onError={() => setFailed(true)}
          style={sizeStyle}
          className={cn('block bg-black', !sizeStyle && 'max-h-full max-w-full')}
        />
      </div>
    );
  } else {
    content = (
      <div data-testid="result-images" className="contents">
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keys are on the focusable stage (+ / −) */}
        <img
          key={media.url}
          src={media.url}
          alt={media.prompt ?? t('studio.results.imageAlt', { n: 1 })}
          data-testid="viewer-media"
          onLoad={(event) => {
            const img = event.currentTarget;
            if (img.naturalWidth && img.naturalHeight)
              setLoaded({ width: img.naturalWidth, height: img.naturalHeight });
          }}
          onError={() => setFailed(true)}
          onClick={() => onZoom(zoom === 'fit' ? 'actual' : 'fit')}
          style={sizeStyle}
          className={cn(
            'block max-w-none',
            zoom === 'fit' ? 'cursor-zoom-in' : 'cursor-zoom-out',
            !sizeStyle && 'max-h-full max-w-full',
          )}
        />
      </div>
    );
  }

  return (
    <StageFrame
      ref={stageRef}
      aspect={aspect}
      data-testid="viewer-stage"
      data-zoom={zoom}
      tabIndex={media.type === 'image' ? 0 : undefined}
      role={media.type === 'image' ? 'group' : undefined}
      aria-label={media.type === 'image' ? t('studio.viewer.stageLabel') : undefined}
      aria-keyshortcuts={media.type === 'image' ? '+ - 0 1' : undefined}
      onKeyDown={onKeyDown}
      className={cn(
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
        actual ? 'overflow-auto' : 'overflow-hidden',
      )}
    >
      {/* The content is centred while it fits and scrolls from its start once it is larger (100 %). */}
      <div className="flex min-h-full min-w-full w-max items-center justify-center">{content}</div>
    </StageFrame>
  );
}
