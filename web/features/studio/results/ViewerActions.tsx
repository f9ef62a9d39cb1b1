import { useQueryClient } from '@tanstack/react-query';
import { Check, Clapperboard, Download, LayoutGrid, Loader2, Maximize, ScanLine, ZoomIn } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { downloadUrl } from '../../../../common/rules/studio.ts';
import { canUpscale, isUpscaleReplaced } from '../../../api/asset-upscale.ts';
import { Button, buttonClass } from '../../../ui/Button.tsx';
import { EngineBadge } from '../../../ui/EngineBadge.tsx';
import { upscaleAsset, useUpscales } from '../../assets/upscale.ts';
import { placeOnCanvas, prepareVideoFrom } from './actions.ts';
import type { ViewerMedia } from './history.ts';
import type { Zoom } from './ViewerStage.tsx';

/** The visible label beside the icon (part of the button's name, which may say more). */
function Label({ children }: { children: ReactNode }) {
  return <span>{children}</span>;
}

function UpscaleButton({ media }: { media: ViewerMedia }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useUpscales((s) => (media.id ? s.byId[media.id]?.state : undefined));
  const { asset } = media;
  if (media.type === 'audio') return null;
  const done = state === 'success' || isUpscaleReplaced(asset);
  const busy = state === 'loading';
  const label = done ? t('assets.alreadyUpscaled') : busy ? t('assets.upscaling') : t('assets.upscale');
  const Icon = done ? Check : busy ? Loader2 : ScanLine;
  return (
    <Button
      variant="secondary"
      size="sm"
      data-testid="viewer-upscale"
      aria-label={label}
      title={label}
      disabled={!asset || !canUpscale(asset) || done || busy}
      onClick={() => asset && void upscaleAsset(asset, queryClient)}
    >
      <Icon className={busy ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
      <Label>{done || busy ? label : t('studio.viewer.upscale')}</Label>
    </Button>
  );
}

/** The current result's toolbar: who made it, zoom, download, use on canvas, upscale, make a video from it. */
export function ViewerActions({
  media,
  zoom,
  onZoom,
  onMakeVideo,
}: {
  media: ViewerMedia;
  zoom: Zoom;
  onZoom: (zoom: Zoom) => void;
  onMakeVideo: () => void;
}) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const image = media.type === 'image';
  const name = media.prompt?.trim().slice(0, 40) || t('studio.viewer.resultName');

  const toCanvas = () => {
    if (!placeOnCanvas(media, name)) {
      toast.error(t('studio.viewer.canvasFull'));
      return;
    }
    toast.success(t('studio.viewer.placedOnCanvas'));
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('canvas', '1');
      return next;
    });
  };

  const makeVideo = () => {
    prepareVideoFrom(media, name);
    onMakeVideo();
    toast.success(t('studio.viewer.videoPrepared'));
  };

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="viewer-actions">
      <EngineBadge engine={media.engine} className="w-full text-muted @xl:me-auto @xl:w-auto" />
      {image && (
        <Button
          variant="secondary"
          size="sm"
          data-testid="viewer-zoom"
          aria-pressed={zoom === 'actual'}
          aria-label={t('studio.viewer.zoomActual')}
          title={t('studio.viewer.zoomHint')}
          onClick={() => onZoom(zoom === 'fit' ? 'actual' : 'fit')}
        >
          {zoom === 'fit' ? <ZoomIn className="size-4" aria-hidden /> : <Maximize className="size-4" aria-hidden />}
          <Label>{t('studio.viewer.actualShort')}</Label>
        </Button>
      )}
      <a
        href={downloadUrl(media.url)}
        download
        className={buttonClass('secondary', 'sm')}
        aria-label={t('assets.download')}
        title={t('assets.download')}
        data-testid="result-download"
      >
        <Download className="size-4" aria-hidden />
        <Label>{t('assets.download')}</Label>
      </a>
      {image && (
        <Button
          variant="secondary"
          size="sm"
          data-testid="viewer-to-canvas"
          aria-label={t('studio.viewer.toCanvas')}
          title={t('studio.viewer.toCanvas')}
          onClick={toCanvas}
        >
          <LayoutGrid className="size-4" aria-hidden />
          <Label>{t('studio.viewer.toCanvasShort')}</Label>
        </Button>
      )}
      <UpscaleButton media={media} />
      {image && (
        <Button
          size="sm"
          data-testid="viewer-make-video"
          aria-label={t('studio.viewer.makeVideo')}
          title={t('studio.viewer.makeVideo')}
          onClick={makeVideo}
        >
          <Clapperboard className="size-4" aria-hidden />
          <Label>{t('studio.viewer.makeVideoShort')}</Label>
        </Button>
      )}
    </div>
  );
}
