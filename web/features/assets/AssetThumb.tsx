import { Film, ImageOff, Music, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { cn } from '../../ui/cn.ts';

export interface ThumbSource {
  type: string;
  url: string;
  thumbnail_url: string | null;
  prompt?: string | null;
}

export const isVideoType = (type: string) => type === 'video' || type === 'video_enhancement';

/** The still that stands for an asset in lists: its WebP thumbnail, never the 4K original ('Failed to load' on error). */
export function AssetThumb({ asset, className }: { asset: ThumbSource; className?: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const src = asset.thumbnail_url ?? (asset.type === 'image' || asset.type === 'enhancement' ? asset.url : null);

  if (src && !failed) {
    return (
      <img
        src={src}
        alt={asset.prompt ?? t('assets.imageAlt')}
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setFailed(true)}
        className={cn('size-full object-cover', className)}
      />
    );
  }
  if (failed) {
    return (
      <div
        className={cn(
          'flex size-full flex-col items-center justify-center gap-1.5 bg-surface-3 text-subtle',
          className,
        )}
        data-testid="asset-load-failed"
      >
        <ImageOff className="size-6" aria-hidden />
        <span className="text-xs font-medium">{translateMessage(MESSAGES.assets.failedToLoad)}</span>
      </div>
    );
  }
  const Icon = asset.type === 'audio' ? Music : isVideoType(asset.type) ? Film : Sparkles;
  return (
    <div
      className={cn(
        'flex size-full items-center justify-center bg-gradient-to-br from-surface-3 to-surface-2 text-subtle',
        className,
      )}
    >
      <Icon className="size-8" aria-hidden />
    </div>
  );
}
