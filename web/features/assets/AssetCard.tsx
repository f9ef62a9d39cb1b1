import { useQueryClient } from '@tanstack/react-query';
import { Check, CircleAlert, Download, Expand, Loader2, Play, ScanLine, Trash2 } from 'lucide-react';
import { AlertDialog, Tooltip } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { downloadUrl } from '../../../common/rules/studio.ts';
import { canUpscale, isUpscaleReplaced } from '../../api/asset-upscale.ts';
import { type Asset, useDeleteAsset } from '../../api/assets.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { AssetThumb, isVideoType } from './AssetThumb.tsx';
import { upscaleAsset, useUpscales } from './upscale.ts';

type AssetCardStatus = 'ready' | 'processing' | 'failed' | 'upscaling' | 'upscaled' | 'upscale-failed';

function assetCardStatus(asset: Asset, upscale: { state: string } | undefined): AssetCardStatus {
  if (upscale?.state === 'loading') return 'upscaling';
  if (upscale?.state === 'error') return 'upscale-failed';
  if (upscale?.state === 'success' || isUpscaleReplaced(asset)) return 'upscaled';
  if (asset.status === 'processing') return 'processing';
  if (asset.status === 'failed') return 'failed';
  return 'ready';
}

const actionClass =
  'grid size-8 place-items-center rounded-lg bg-black/55 text-white backdrop-blur-sm transition-colors hover:bg-black/75 focus-visible:outline-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-50';

function Tip({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side="top"
          sideOffset={6}
          className="z-50 max-w-56 rounded-md border border-line bg-surface px-2.5 py-1.5 text-xs leading-snug text-fg shadow-lg"
        >
          {label}
          <Tooltip.Arrow className="fill-surface" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The type in the corner: a video's length, or the type of anything that is not a plain image. */
function TypeBadge({ type, label, duration }: { type: string; label: string; duration: number | null }) {
  if (isVideoType(type))
    return (
      <span className="inline-flex items-center gap-1 rounded-md bg-black/60 px-1.5 py-0.5 text-xs font-medium text-white">
        <Play className="size-3 fill-current" aria-hidden />
        {duration !== null ? formatDuration(duration) : label}
      </span>
    );
  if (type === 'image') return null;
  return <span className="rounded-md bg-black/60 px-1.5 py-0.5 text-xs font-medium text-white">{label}</span>;
}

/** The Library's selection of a card: its checkbox, shown at all times once anything is selected. */
export interface CardSelection {
  selected: boolean;
  /** Something is selected: every card shows its checkbox. */
  active: boolean;
  onToggle: () => void;
}

function SelectBox({ label, selection }: { label: string; selection: CardSelection }) {
  return (
    <label
      className={cn(
        'pointer-events-auto relative grid size-7 shrink-0 place-items-center rounded-lg border-2 backdrop-blur-sm transition-opacity',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-white',
        selection.selected ? 'border-accent bg-accent text-accent-fg' : 'border-white/90 bg-black/45 text-transparent',
        selection.active || selection.selected
          ? 'opacity-100'
          : 'opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 [@media(hover:none)]:opacity-100',
      )}
    >
      <input
        type="checkbox"
        checked={selection.selected}
        onChange={selection.onToggle}
        aria-label={label}
        data-testid="asset-select"
        className="absolute inset-0 size-full cursor-pointer appearance-none rounded-lg"
      />
      <Check className="pointer-events-none size-4" strokeWidth={3} aria-hidden />
    </label>
  );
}

/** One asset in the library: open, upscale, download, edit & expand, delete; with `selection`, a checkbox. */
export function AssetCard({
  asset,
  onOpen,
  selection,
}: {
  asset: Asset;
  onOpen: () => void;
  selection?: CardSelection;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const upscale = useUpscales((s) => s.byId[asset.id]);
  const status = assetCardStatus(asset, upscale);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAsset();
  const duration = typeof asset.metadata.duration === 'number' ? asset.metadata.duration : null;
  const replaced = isUpscaleReplaced(asset);
  const upscalable = canUpscale(asset);
  const typeLabel = t(`assets.types.${asset.type}`, { defaultValue: asset.type });

  const onDelete = () =>
    remove.mutate(asset.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(t('assets.deleted'));
      },
      onError: (error) => toast.error(localizeMessage(error.message)),
    });

  return (
    <li
      data-testid="asset-card"
      data-asset-id={asset.id}
      data-status={status}
      data-type={asset.type}
      data-selected={selection?.selected || undefined}
      className={cn(
        'group relative aspect-square overflow-hidden rounded-xl border border-line bg-surface-2',
        selection?.selected && 'border-accent ring-2 ring-accent',
      )}
    >
      <button
        type="button"
        onClick={onOpen}
        className="absolute inset-0 size-full focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        aria-label={t('assets.open', { type: typeLabel, prompt: asset.prompt ?? '' })}
        data-testid="asset-open"
      >
        <AssetThumb asset={asset} className="transition-transform duration-300 group-hover:scale-[1.03]" />
      </button>

      <div className="pointer-events-none absolute inset-x-0 top-0 flex items-start justify-between gap-1 p-2">
        <span className="flex min-w-0 items-start gap-1.5">
          {selection && (
            <SelectBox label={t('library.selectOne', { prompt: asset.prompt ?? typeLabel })} selection={selection} />
          )}
          <TypeBadge type={asset.type} label={typeLabel} duration={duration} />
        </span>
        {status === 'upscaled' && (
          <span
            className="rounded-md bg-success px-1.5 py-0.5 text-xs font-bold tracking-wide text-white dark:text-black"
            data-testid="asset-upscaled-badge"
          >
            4K
          </span>
        )}
      </div>

      {(status === 'upscaling' || status === 'processing') && (
        <div
          className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-black/55 text-white"
          role="status"
        >
          <Loader2 className="size-6 animate-spin" aria-hidden />
          <span className="px-2 text-center text-xs font-medium">
            {status === 'upscaling' ? t('assets.upscaling') : t('assets.processing')}
          </span>
        </div>
      )}

      {status === 'upscale-failed' && upscale?.error && (
        <div
          role="alert"
          data-testid="asset-upscale-error"
          className="absolute inset-x-0 bottom-11 mx-2 flex items-start gap-1.5 rounded-lg bg-danger px-2 py-1.5 text-xs leading-snug text-danger-fg"
        >
          <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
          <span className="line-clamp-3">{localizeMessage(upscale.error)}</span>
        </div>
      )}

      <div
        className={cn(
          'absolute inset-x-0 bottom-0 flex items-center justify-end gap-1 bg-gradient-to-t from-black/70 to-transparent p-2 pt-6',
          'opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 [@media(hover:none)]:opacity-100',
        )}
      >
        {upscalable && (
          <Tip label={replaced ? t('assets.alreadyUpscaled') : t('assets.upscaleHint')}>
            <button
              type="button"
              className={actionClass}
              data-testid="asset-upscale"
              aria-label={t('assets.upscale')}
              disabled={status === 'upscaling' || status === 'processing' || replaced}
              onClick={() => void upscaleAsset(asset, queryClient)}
            >
              <ScanLine className="size-4" aria-hidden />
            </button>
          </Tip>
        )}
        <Tip label={t('assets.download')}>
          <a
            href={downloadUrl(asset.url)}
            download
            className={actionClass}
            data-testid="asset-download"
            aria-label={t('assets.download')}
          >
            <Download className="size-4" aria-hidden />
          </a>
        </Tip>
        <Tip label={t('assets.editLater')}>
          <button
            type="button"
            className={actionClass}
            data-testid="asset-edit"
            aria-label={t('assets.editExpand')}
            onClick={onOpen}
          >
            <Expand className="size-4" aria-hidden />
          </button>
        </Tip>
        <AlertDialog.Root open={confirming} onOpenChange={setConfirming}>
          <Tip label={t('assets.delete')}>
            <AlertDialog.Trigger asChild>
              <button
                type="button"
                className={cn(actionClass, 'hover:bg-danger')}
                data-testid="asset-delete"
                aria-label={t('assets.delete')}
              >
                <Trash2 className="size-4" aria-hidden />
              </button>
            </AlertDialog.Trigger>
          </Tip>
          <AlertDialog.Portal>
            <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
            <AlertDialog.Content
              data-testid="asset-delete-dialog"
              className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-5 shadow-2xl"
            >
              <div className="flex gap-3">
                <div className="size-16 shrink-0 overflow-hidden rounded-lg border border-line">
                  <AssetThumb asset={asset} />
                </div>
                <div className="min-w-0">
                  <AlertDialog.Title className="text-base font-semibold">{t('assets.deleteTitle')}</AlertDialog.Title>
                  <AlertDialog.Description className="mt-1 text-sm text-muted">
                    {t('assets.deleteBody')}
                  </AlertDialog.Description>
                </div>
              </div>
              <div className="mt-5 flex justify-end gap-2">
                <AlertDialog.Cancel asChild>
                  <Button variant="secondary" size="sm">
                    {t('assets.cancel')}
                  </Button>
                </AlertDialog.Cancel>
                <Button
                  variant="danger"
                  size="sm"
                  loading={remove.isPending}
                  onClick={onDelete}
                  data-testid="asset-delete-confirm"
                >
                  {t('assets.delete')}
                </Button>
              </div>
            </AlertDialog.Content>
          </AlertDialog.Portal>
        </AlertDialog.Root>
      </div>
    </li>
  );
}
