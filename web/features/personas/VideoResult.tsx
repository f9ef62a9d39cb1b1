import { CircleAlert, Download, Lightbulb, Play, RotateCcw, VideoOff } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { MESSAGES } from '../../../common/messages.ts';
import { Button } from '../../ui/Button.tsx';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { ProgressBar } from '../../ui/ProgressBar.tsx';
import { personaMessage } from './messages.ts';
import type { VideoTaskState } from './videoTask.ts';

/** Downloads a video as a file; 'Failed to download video.' when it cannot be fetched. */
async function downloadVideo(url: string, name: string) {
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(String(response.status));
    const blob = await response.blob();
    const href = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = href;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  } catch {
    toast.error(personaMessage(MESSAGES.personas.downloadFailed));
  }
}

/** A generated video with play and download; a video that cannot load shows 'Video Unavailable'. */
export function VideoPlayer({ url, fileName, vertical }: { url: string; fileName: string; vertical?: boolean }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [broken, setBroken] = useState(false);
  const [downloading, setDownloading] = useState(false);
  return (
    <div className="space-y-3" data-testid="video-player">
      {broken ? (
        <div
          role="alert"
          data-testid="video-unavailable"
          className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-xl border border-line bg-surface-2 text-muted"
        >
          <VideoOff className="size-7" aria-hidden />
          <p className="text-sm font-medium text-fg">{t('personas.video.unavailable')}</p>
        </div>
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: generated video has no captions
        <video
          ref={video}
          src={url}
          controls
          playsInline
          preload="metadata"
          onError={() => setBroken(true)}
          data-testid="video-result"
          className={
            vertical
              ? 'mx-auto max-h-[60vh] w-auto max-w-full rounded-xl bg-black'
              : 'aspect-video w-full rounded-xl bg-black'
          }
        />
      )}
      <div className="flex flex-wrap gap-2">
        {!broken && (
          <Button variant="secondary" size="sm" onClick={() => void video.current?.play()} data-testid="video-play">
            <Play className="size-4" aria-hidden />
            {t('personas.video.play')}
          </Button>
        )}
        <Button
          variant="secondary"
          size="sm"
          loading={downloading}
          data-testid="video-download"
          onClick={async () => {
            setDownloading(true);
            await downloadVideo(url, fileName);
            setDownloading(false);
          }}
        >
          {!downloading && <Download className="size-4" aria-hidden />}
          {t('personas.video.download')}
        </Button>
      </div>
    </div>
  );
}

/** The video result dialog (spec 2.1 modals: video result). */
export function VideoResultDialog({
  url,
  open,
  onOpenChange,
  fileName,
  vertical,
}: {
  url: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fileName: string;
  vertical?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={t('personas.video.resultTitle')}
      testId="video-result-dialog"
      className="sm:max-w-2xl"
    >
      <VideoPlayer url={url} fileName={fileName} vertical={vertical} />
    </DialogShell>
  );
}

/** 'Video Generation Failed' with the server's message and the spec's tips. */
export function VideoFailedPanel({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  const tips = t('personas.video.tips', { returnObjects: true }) as string[];
  return (
    <div role="alert" data-testid="video-failed" className="rounded-xl border border-danger/35 bg-danger-soft p-4">
      <p className="flex items-center gap-2 text-sm font-semibold text-danger">
        <CircleAlert className="size-4 shrink-0" aria-hidden />
        {personaMessage(MESSAGES.personas.videoFailed)}
      </p>
      <p className="mt-1.5 text-sm text-fg" data-testid="video-failed-message">
        {personaMessage(message)}
      </p>
      <p className="mt-3 flex items-center gap-1.5 text-xs font-semibold text-muted">
        <Lightbulb className="size-3.5" aria-hidden />
        {t('personas.video.tipsTitle')}
      </p>
      <ul className="mt-1 list-disc space-y-0.5 ps-5 text-xs text-muted">
        {Array.isArray(tips) && tips.map((tip) => <li key={tip}>{tip}</li>)}
      </ul>
      <Button className="mt-3" variant="secondary" size="sm" onClick={onRetry} data-testid="video-retry">
        <RotateCcw className="size-4" aria-hidden />
        {t('personas.video.retry')}
      </Button>
    </div>
  );
}

/** Progress of a running video, else nothing. */
export function VideoProgress({ state, label }: { state: VideoTaskState; label: string }) {
  if (state.phase !== 'running') return null;
  return (
    <div data-testid="video-progress" className="rounded-xl border border-line bg-surface-2/60 p-3">
      <ProgressBar value={state.progress} secondsLeft={state.secondsLeft} label={label} />
    </div>
  );
}
