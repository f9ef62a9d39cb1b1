// The picker of a post's files: own assets or campaign materials as a grid of selectable thumbnails.
import { Check, Film, FolderOpen } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAssets } from '../../api/assets.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented } from '../../ui/controls.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { AssetSkeletons, uniqueAssets } from '../assets/AssetsGrid.tsx';
import { AssetThumb } from '../assets/AssetThumb.tsx';
import { useCampaignAssets } from '../campaigns/api.ts';
import { errorText } from './messages.ts';
import { fromAsset, fromMaterial, type PostMedia } from './postMedia.ts';

/** Posts carry at most 10 files (the server's limit). */
const MAX_MEDIA = 10;

/** A grid of selectable thumbnails. */
function MediaGrid({
  items,
  selected,
  onToggle,
  label,
  testId,
}: {
  items: PostMedia[];
  selected: PostMedia[];
  onToggle: (item: PostMedia) => void;
  label: string;
  testId: string;
}) {
  return (
    <ul className="grid max-h-72 grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-5" aria-label={label}>
      {items.map((item) => {
        const isSelected = selected.some((m) => m.id === item.id);
        return (
          <li key={item.id}>
            <button
              type="button"
              aria-pressed={isSelected}
              data-testid={testId}
              data-id={item.id}
              data-type={item.type}
              onClick={() => onToggle(item)}
              title={item.prompt ?? undefined}
              className={cn(
                'relative block aspect-square w-full overflow-hidden rounded-lg border-2 transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent',
                isSelected ? 'border-accent' : 'border-transparent hover:border-line-strong',
              )}
            >
              <AssetThumb asset={item} />
              {item.type === 'video' && (
                <span className="absolute bottom-1 start-1 grid size-5 place-items-center rounded-full bg-black/60 text-white">
                  <Film className="size-3" aria-hidden />
                </span>
              )}
              {isSelected && (
                <span className="absolute end-1 top-1 grid size-5 place-items-center rounded-full bg-accent text-accent-fg">
                  <Check className="size-3.5" aria-hidden />
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function RetryPanel({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2" role="alert">
      <FormMessage>{errorText(error)}</FormMessage>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t('publishing.scheduled.tryAgain')}
      </Button>
    </div>
  );
}

function EmptyMedia({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-line px-4 py-6 text-center">
      <FolderOpen className="mb-2 size-6 text-subtle" aria-hidden />
      <p className="text-sm text-muted">{children}</p>
    </div>
  );
}

/** The user's own images and videos (AI materials), paged. */
function OwnAssets({ selected, onToggle }: { selected: PostMedia[]; onToggle: (item: PostMedia) => void }) {
  const { t } = useTranslation();
  const query = useAssets('image|enhancement|video|video_enhancement');
  const items = useMemo(() => uniqueAssets(query.data?.pages).map(fromAsset), [query.data]);
  return (
    <div className="space-y-2">
      {query.isPending ? (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5">
          <AssetSkeletons count={5} />
        </ul>
      ) : query.isError && items.length === 0 ? (
        <RetryPanel error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyMedia>{t('publishing.compose.noMaterials')}</EmptyMedia>
      ) : (
        <MediaGrid
          items={items}
          selected={selected}
          onToggle={onToggle}
          label={t('publishing.compose.sourceMaterials')}
          testId="publish-material"
        />
      )}
      {query.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="ghost"
            size="sm"
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {t('publishing.compose.loadMore')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** The materials the brand attached to the collaboration's campaign. */
function CampaignMaterials({
  campaignId,
  selected,
  onToggle,
}: {
  campaignId: string;
  selected: PostMedia[];
  onToggle: (item: PostMedia) => void;
}) {
  const { t } = useTranslation();
  const query = useCampaignAssets(campaignId);
  const items = useMemo(() => (query.data ?? []).map(fromMaterial), [query.data]);
  if (query.isPending) {
    return (
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5">
        <AssetSkeletons count={3} />
      </ul>
    );
  }
  if (query.isError) return <RetryPanel error={query.error} onRetry={() => void query.refetch()} />;
  if (items.length === 0) return <EmptyMedia>{t('publishing.compose.noCampaignMaterials')}</EmptyMedia>;
  return (
    <MediaGrid
      items={items}
      selected={selected}
      onToggle={onToggle}
      label={t('publishing.compose.campaignMaterials')}
      testId="publish-campaign-material"
    />
  );
}

type MediaTab = 'campaign' | 'own';

/** The files attached to a post: the count chosen, Clear, and the grid of one source at a time. */
export function MediaPicker({
  campaignId,
  value,
  onChange,
}: {
  /** Set for a collaboration post: its campaign's materials are offered beside the user's own assets. */
  campaignId: string | null;
  value: PostMedia[];
  onChange: (media: PostMedia[]) => void;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<MediaTab>('campaign');
  const toggle = (item: PostMedia) => {
    if (value.some((m) => m.id === item.id)) onChange(value.filter((m) => m.id !== item.id));
    else if (value.length < MAX_MEDIA) onChange([...value, item]);
  };
  const shown = campaignId ? tab : 'own';
  return (
    <div className="space-y-2" data-testid="publish-media">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-subtle">
          {campaignId ? t('publishing.compose.collaborationMediaHint') : t('publishing.compose.materialsHint')}
        </p>
        {value.length > 0 && (
          <button
            type="button"
            className="shrink-0 text-xs font-medium text-accent hover:underline"
            onClick={() => onChange([])}
            data-testid="publish-media-clear"
          >
            {t('publishing.compose.materialsSelected', { count: value.length })} ·{' '}
            {t('publishing.compose.clearSelection')}
          </button>
        )}
      </div>
      {campaignId && (
        <Segmented<MediaTab>
          label={t('publishing.compose.media')}
          value={tab}
          onChange={setTab}
          size="sm"
          testIdPrefix="publish-media-tab"
          options={[
            { value: 'campaign', label: t('publishing.compose.campaignMaterials') },
            { value: 'own', label: t('publishing.compose.myAssets') },
          ]}
        />
      )}
      {shown === 'campaign' && campaignId ? (
        <CampaignMaterials campaignId={campaignId} selected={value} onToggle={toggle} />
      ) : (
        <OwnAssets selected={value} onToggle={toggle} />
      )}
    </div>
  );
}
