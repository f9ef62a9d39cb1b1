import { Check, FolderOpen, Loader2 } from 'lucide-react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../common/api/assets.ts';
import type { SocialPlatform } from '../../../common/api/social.ts';
import { useAssets } from '../../api/assets.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { FormMessage, inputClass } from '../../ui/Field.tsx';
import { AssetSkeletons, uniqueAssets } from '../assets/AssetsGrid.tsx';
import { AssetThumb } from '../assets/AssetThumb.tsx';
import { useMyActiveCollaborations } from '../campaigns/api.ts';
import { labelClass, Segmented } from '../studio/controls.tsx';
import type { PlatformView } from './connect.ts';
import { errorText } from './messages.ts';
import { PlatformMark } from './platforms.tsx';
import { StatusLabel } from './SocialAccounts.tsx';

export function MessageField({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className={labelClass}>
          {t('publishing.compose.message')}
        </label>
        <span className="text-[11px] tabular-nums text-subtle">
          {t('publishing.compose.characters', { count: value.length })}
        </span>
      </div>
      <textarea
        id={id}
        data-testid={testId}
        value={value}
        maxLength={5000}
        rows={4}
        placeholder={t('publishing.compose.messagePlaceholder')}
        onChange={(event) => onChange(event.target.value)}
        className={cn(inputClass, 'min-h-28 resize-y py-2.5 leading-relaxed')}
      />
    </div>
  );
}

/** One checkbox per platform; only connected ones can be ticked, and each shows its state. */
export function PlatformChecklist({
  views,
  selected,
  onChange,
  testIdPrefix,
}: {
  views: PlatformView[];
  selected: SocialPlatform[];
  onChange: (selected: SocialPlatform[]) => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-2">
      <legend className={cn(labelClass, 'mb-1.5')}>{t('publishing.compose.platforms')}</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
        {views.map(({ platform, account, status }) => {
          const connected = account?.isConnected ?? false;
          const checked = selected.includes(platform);
          return (
            <label
              key={platform}
              data-testid={`${testIdPrefix}-${platform}`}
              data-status={status}
              className={cn(
                'flex min-w-0 items-center gap-2.5 rounded-xl border px-3 py-2 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
                checked ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2/60',
                connected ? 'cursor-pointer hover:border-line-strong' : 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={checked}
                disabled={!connected}
                onChange={(event) =>
                  onChange(event.target.checked ? [...selected, platform] : selected.filter((p) => p !== platform))
                }
              />
              <span
                className={cn(
                  'grid size-4 shrink-0 place-items-center rounded border',
                  checked ? 'border-accent bg-accent text-accent-fg' : 'border-line-strong',
                )}
                aria-hidden
              >
                {checked && <Check className="size-3" />}
              </span>
              <PlatformMark platform={platform} size="sm" />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{t(`publishing.platforms.${platform}`)}</span>
                <StatusLabel status={status} />
              </span>
            </label>
          );
        })}
      </div>
      <p className="text-[11px] text-subtle">{t('publishing.compose.platformsHint')}</p>
    </fieldset>
  );
}

export type ContentSource = 'collaborations' | 'materials';

export interface ContentChoice {
  source: ContentSource;
  collaborationId: string | null;
  materials: Asset[];
}

function CollaborationList({ value, onChange }: { value: string | null; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  const query = useMyActiveCollaborations();
  const name = useId();
  if (query.isPending) {
    return (
      <div className="flex justify-center py-6">
        <Loader2 className="size-5 animate-spin text-muted" aria-label={t('common.loading')} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="space-y-2" role="alert">
        <FormMessage>{errorText(query.error, t('publishing.compose.collaborationsFailed'))}</FormMessage>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          {t('publishing.scheduled.tryAgain')}
        </Button>
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
        {t('publishing.compose.noCollaborations')}
      </p>
    );
  }
  return (
    <div className="space-y-2" role="radiogroup" aria-label={t('publishing.compose.sourceCollaborations')}>
      <p className="text-[11px] text-subtle">{t('publishing.compose.collaborationsHint')}</p>
      {query.data.map((collab) => {
        const checked = value === collab.collaboration_id;
        return (
          <label
            key={collab.collaboration_id}
            data-testid="publish-collaboration"
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-xl border px-3 py-2.5 transition-colors',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
              checked ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2/60 hover:border-line-strong',
            )}
          >
            <input
              type="radio"
              name={name}
              className="mt-1 accent-[var(--gp-accent)]"
              checked={checked}
              onChange={() => onChange(collab.collaboration_id)}
            />
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium">{collab.campaign_title}</span>
              <span className="block truncate text-xs text-muted">
                {t('publishing.compose.by', { brand: collab.brand_name })}
              </span>
              {collab.campaign_description && (
                <span className="mt-0.5 line-clamp-2 block text-xs text-subtle">{collab.campaign_description}</span>
              )}
            </span>
          </label>
        );
      })}
    </div>
  );
}

const MAX_MATERIALS = 10;

function MaterialsGrid({ value, onChange }: { value: Asset[]; onChange: (assets: Asset[]) => void }) {
  const { t } = useTranslation();
  const query = useAssets('image|enhancement|video|video_enhancement');
  const assets = useMemo(() => uniqueAssets(query.data?.pages), [query.data]);
  const toggle = (asset: Asset) => {
    if (value.some((a) => a.id === asset.id)) onChange(value.filter((a) => a.id !== asset.id));
    else if (value.length < MAX_MATERIALS) onChange([...value, asset]);
  };
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-[11px] text-subtle">{t('publishing.compose.materialsHint')}</p>
        {value.length > 0 && (
          <button
            type="button"
            className="shrink-0 text-xs font-medium text-accent hover:underline"
            onClick={() => onChange([])}
          >
            {t('publishing.compose.materialsSelected', { count: value.length })} ·{' '}
            {t('publishing.compose.clearSelection')}
          </button>
        )}
      </div>
      {query.isPending ? (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5">
          <AssetSkeletons count={5} />
        </ul>
      ) : query.isError && assets.length === 0 ? (
        <div className="space-y-2" role="alert">
          <FormMessage>{errorText(query.error)}</FormMessage>
          <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
            {t('publishing.scheduled.tryAgain')}
          </Button>
        </div>
      ) : assets.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line px-4 py-6 text-center">
          <FolderOpen className="mb-2 size-6 text-subtle" aria-hidden />
          <p className="text-sm text-muted">{t('publishing.compose.noMaterials')}</p>
        </div>
      ) : (
        <ul
          className="grid max-h-72 grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-5"
          aria-label={t('publishing.compose.sourceMaterials')}
        >
          {assets.map((asset) => {
            const selected = value.some((a) => a.id === asset.id);
            return (
              <li key={asset.id}>
                <button
                  type="button"
                  aria-pressed={selected}
                  data-testid="publish-material"
                  onClick={() => toggle(asset)}
                  title={asset.prompt ?? undefined}
                  className={cn(
                    'relative block aspect-square w-full overflow-hidden rounded-lg border-2 transition-colors',
                    'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent',
                    selected ? 'border-accent' : 'border-transparent hover:border-line-strong',
                  )}
                >
                  <AssetThumb asset={asset} />
                  {selected && (
                    <span className="absolute end-1 top-1 grid size-5 place-items-center rounded-full bg-accent text-accent-fg">
                      <Check className="size-3.5" aria-hidden />
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
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

/** Spec 2.2: creators switch between My Active Collaborations (one) and AI Materials; brands see materials. */
export function ContentPicker({
  isCreator,
  value,
  onChange,
}: {
  isCreator: boolean;
  value: ContentChoice;
  onChange: (value: ContentChoice) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2.5">
      <span className={labelClass}>{t('publishing.compose.contentSource')}</span>
      {isCreator && (
        <Segmented<ContentSource>
          label={t('publishing.compose.contentSource')}
          value={value.source}
          onChange={(source) => onChange({ ...value, source })}
          testIdPrefix="publish-source"
          layout="fill"
          options={[
            { value: 'collaborations', label: t('publishing.compose.sourceCollaborations') },
            { value: 'materials', label: t('publishing.compose.sourceMaterials') },
          ]}
        />
      )}
      {isCreator && value.source === 'collaborations' ? (
        <CollaborationList
          value={value.collaborationId}
          onChange={(collaborationId) => onChange({ ...value, collaborationId })}
        />
      ) : (
        <MaterialsGrid value={value.materials} onChange={(materials) => onChange({ ...value, materials })} />
      )}
    </div>
  );
}
