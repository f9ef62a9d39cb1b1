import { Film, Music } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../ui/cn.ts';
import { AssetThumb } from '../../assets/AssetThumb.tsx';
import type { ViewerMedia } from './history.ts';

/** Tiles are this tall; their width follows the media's shape, within these bounds. */
const TILE_HEIGHT = 64;
const TILE_WIDTH = { min: 40, max: 128 } as const;

function tileWidth(media: ViewerMedia): number {
  if (media.type === 'audio' || !media.width || !media.height) return TILE_HEIGHT;
  const width = Math.round((TILE_HEIGHT * media.width) / media.height);
  return Math.min(TILE_WIDTH.max, Math.max(TILE_WIDTH.min, width));
}

function Tile({ media, current, onShow }: { media: ViewerMedia; current: boolean; onShow: () => void }) {
  const { t } = useTranslation();
  const type = t(`assets.types.${media.type}`);
  const label = media.prompt?.trim() ? `${type}: ${media.prompt.trim()}` : type;
  return (
    <li className="shrink-0">
      <button
        type="button"
        onClick={onShow}
        aria-pressed={current}
        aria-label={t('studio.viewer.show', { what: label })}
        title={label}
        data-testid="history-item"
        data-asset-id={media.id ?? undefined}
        style={{ width: tileWidth(media), height: TILE_HEIGHT }}
        className={cn(
          'relative block overflow-hidden rounded-lg border bg-surface-3 transition-colors',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
          current ? 'border-accent ring-2 ring-accent' : 'border-line hover:border-line-strong',
        )}
      >
        {media.type === 'audio' ? (
          <span className="grid size-full place-items-center text-accent">
            <Music className="size-6" aria-hidden />
          </span>
        ) : (
          <AssetThumb asset={{ type: media.type, url: media.url, thumbnail_url: media.thumbnailUrl, prompt: '' }} />
        )}
        {media.type === 'video' && (
          <span className="absolute bottom-1 end-1 grid size-4 place-items-center rounded bg-black/70 text-white">
            <Film className="size-2.5" aria-hidden />
          </span>
        )}
      </button>
    </li>
  );
}

/** This session's generations, newest first: choosing one (click, Enter or Space) shows it in the viewer. */
export function HistoryStrip({
  items,
  current,
  onShow,
}: {
  items: readonly ViewerMedia[];
  current: string | null;
  onShow: (key: string) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="studio-history-title" className="min-w-0 space-y-2">
      <h3 id="studio-history-title" className="flex items-center gap-2 text-xs font-medium text-muted">
        {t('studio.viewer.history')}
        <span className="rounded-full bg-surface-3 px-1.5 py-px tabular-nums">{items.length}</span>
      </h3>
      <ul data-testid="studio-history" className="flex gap-2 overflow-x-auto p-1 pb-2">
        {items.map((media) => (
          <Tile key={media.key} media={media} current={media.key === current} onShow={() => onShow(media.key)} />
        ))}
      </ul>
    </section>
  );
}
