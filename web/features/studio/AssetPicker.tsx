import { Check, FolderOpen, Loader2, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../common/api/assets.ts';
import { useAssets } from '../../api/assets.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { AssetSkeletons, uniqueAssets } from '../assets/AssetsGrid.tsx';
import { AssetThumb } from '../assets/AssetThumb.tsx';
import { localizeMessage } from './localize.ts';

function PickerBody({ type, max, onPick }: { type: string; max: number; onPick: (assets: Asset[]) => void }) {
  const { t } = useTranslation();
  const query = useAssets(type);
  const assets = useMemo(() => uniqueAssets(query.data?.pages), [query.data]);
  const [selected, setSelected] = useState<string[]>([]);

  const toggle = (id: string) =>
    setSelected((current) => {
      if (current.includes(id)) return current.filter((x) => x !== id);
      if (max === 1) return [id];
      return current.length >= max ? current : [...current, id];
    });

  return (
    <>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
        {query.isPending ? (
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
            <AssetSkeletons count={8} />
          </ul>
        ) : query.isError && assets.length === 0 ? (
          <div role="alert" className="flex flex-col items-center gap-3 py-10 text-center text-sm">
            <p className="text-danger">{localizeMessage(query.error.message)}</p>
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        ) : assets.length === 0 ? (
          <div className="flex flex-col items-center py-10 text-center">
            <FolderOpen className="mb-2 size-7 text-subtle" aria-hidden />
            <p className="text-sm text-muted">{t('studio.picker.empty')}</p>
          </div>
        ) : (
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label={t('studio.picker.title')}>
            {assets.map((asset) => {
              const isSelected = selected.includes(asset.id);
              return (
                <li key={asset.id}>
                  <button
                    type="button"
                    aria-pressed={isSelected}
                    onClick={() => toggle(asset.id)}
                    data-testid="picker-item"
                    className={cn(
                      'relative block aspect-square w-full overflow-hidden rounded-lg border-2 transition-colors',
                      isSelected ? 'border-accent' : 'border-transparent hover:border-line-strong',
                    )}
                  >
                    <AssetThumb asset={asset} />
                    {isSelected && (
                      <span className="absolute end-1.5 top-1.5 grid size-6 place-items-center rounded-full bg-accent text-accent-fg">
                        <Check className="size-4" aria-hidden />
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {query.hasNextPage && (
          <div className="mt-4 flex justify-center">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage && <Loader2 className="size-4 animate-spin" aria-hidden />}
              {t('assets.loadMore')}
            </Button>
          </div>
        )}
      </div>
      <div className="flex items-center justify-between gap-3 border-t border-line px-5 py-3">
        <span className="text-xs text-muted">{t('studio.picker.selected', { count: selected.length, max })}</span>
        <Button
          size="sm"
          disabled={selected.length === 0}
          data-testid="picker-confirm"
          onClick={() => onPick(selected.flatMap((id) => assets.filter((a) => a.id === id)))}
        >
          {t('studio.picker.add', { count: selected.length })}
        </Button>
      </div>
    </>
  );
}

/** Pick existing images or videos from the media library for a Creator input. */
export function AssetPicker({
  open,
  onOpenChange,
  kind,
  max,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  kind: 'image' | 'video';
  max: number;
  onPick: (assets: Asset[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid="asset-picker"
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-50 flex h-[min(640px,calc(100dvh-2rem))] w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl"
        >
          <div className="flex items-center gap-3 border-b border-line px-5 py-4">
            <Dialog.Title className="flex-1 text-base font-semibold">
              {t(kind === 'image' ? 'studio.picker.titleImages' : 'studio.picker.titleVideos')}
            </Dialog.Title>
            <Dialog.Close
              className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              aria-label={t('common.close')}
            >
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          {open && (
            <PickerBody
              type={kind === 'image' ? 'image|enhancement' : 'video|video_enhancement'}
              max={max}
              onPick={(assets) => {
                onPick(assets);
                onOpenChange(false);
              }}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
