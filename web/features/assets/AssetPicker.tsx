import { FolderOpen, Loader2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../common/api/assets.ts';
import { useAssets } from '../../api/assets.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { Button } from '../../ui/Button.tsx';
import { PickerDialog, PickerFooter, PickerTile } from '../../ui/PickerDialog.tsx';
import { AssetSkeletons, uniqueAssets } from './AssetsGrid.tsx';
import { AssetThumb } from './AssetThumb.tsx';

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
            {assets.map((asset) => (
              <li key={asset.id}>
                <PickerTile
                  selected={selected.includes(asset.id)}
                  onToggle={() => toggle(asset.id)}
                  testId="picker-item"
                >
                  <AssetThumb asset={asset} />
                </PickerTile>
              </li>
            ))}
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
      <PickerFooter
        count={t('studio.picker.selected', { count: selected.length, max })}
        confirmLabel={t('studio.picker.add', { count: selected.length })}
        disabled={selected.length === 0}
        testId="picker-confirm"
        onConfirm={() => onPick(selected.flatMap((id) => assets.filter((a) => a.id === id)))}
      />
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
    <PickerDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(kind === 'image' ? 'studio.picker.titleImages' : 'studio.picker.titleVideos')}
      testId="asset-picker"
      className="z-50 h-[min(640px,calc(100dvh-2rem))]"
      overlayClassName="z-50"
    >
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
    </PickerDialog>
  );
}
