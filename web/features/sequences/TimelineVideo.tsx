// Play Timeline's button and its one <video>.
import { Pause, Play } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SEQUENCE_LIMITS, truncatePrompt } from '../../../common/rules/sequences.ts';
import { Button } from '../../ui/Button.tsx';
import type { Playback } from './timelinePlayback.ts';

export function PlayButton({ playback }: { playback: Playback }) {
  const { t } = useTranslation();
  const playing = playback.current !== null;
  return (
    <Button size="sm" onClick={playing ? playback.stop : playback.play} data-testid="timeline-play">
      {playing ? <Pause className="size-4" aria-hidden /> : <Play className="size-4" aria-hidden />}
      {playing ? t('sequences.stop') : t('sequences.playTimeline')}
    </Button>
  );
}

export function TimelineVideo({ playback }: { playback: Playback }) {
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
