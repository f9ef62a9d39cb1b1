import { Check, Film, FolderOpen, Loader2 } from 'lucide-react';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../common/api/assets.ts';
import type { ActiveCollaboration, CampaignMaterial } from '../../../common/api/campaigns.ts';
import type { SocialPlatform } from '../../../common/api/social.ts';
import { POST_TEXT_LIMITS, postTextLength } from '../../../common/rules/post-text.ts';
import { limitsSummary } from '../../../common/rules/social-media.ts';
import { useAssets } from '../../api/assets.ts';
import { useUserSettings } from '../../api/settings.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, Segmented } from '../../ui/controls.tsx';
import { FormMessage, inputClass } from '../../ui/Field.tsx';
import { PlatformMark } from '../../ui/PlatformMark.tsx';
import { AssetSkeletons, uniqueAssets } from '../assets/AssetsGrid.tsx';
import { AssetThumb, isVideoType } from '../assets/AssetThumb.tsx';
import { useCampaignAssets, useMyActiveCollaborations } from '../campaigns/api.ts';
import { useSocialAccounts } from './api.ts';
import type { PlatformView } from './connect.ts';
import { errorText } from './messages.ts';
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
        <span className="text-xs tabular-nums text-subtle">
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

/**
 * Which chosen networks the message is too long for, as each counts it (links included where they go in the
 * text: the sandbox networks; the live ones upload the files): shortened to fit with Cross-post optimization on, refused with it off (common/rules/post-text.ts).
 */
export function PostLengthNotice({
  message,
  platforms,
  mediaUrls,
  testId,
}: {
  message: string;
  platforms: readonly SocialPlatform[];
  mediaUrls: readonly string[];
  testId: string;
}) {
  const { t } = useTranslation();
  const settings = useUserSettings();
  const optimize = settings.data?.crossPostOptimization ?? true;
  const accounts = useSocialAccounts();
  // The links as the networks get them: absolute, with the post's signature (about 90 characters more). A live
  // network is sent the files themselves (uploaded), not links.
  const links = mediaUrls.map((url) => `${new URL(url, window.location.origin).href}${'x'.repeat(90)}`);
  const live = new Set((accounts.data ?? []).filter((a) => a.mode === 'live').map((a) => a.platform));
  const over = platforms.flatMap((platform) => {
    const length = postTextLength(platform, message.trim(), live.has(platform) ? [] : links);
    const limit = POST_TEXT_LIMITS[platform];
    return length > limit ? [{ platform, length, limit }] : [];
  });
  if (over.length === 0) return null;
  return (
    <ul className="space-y-1" data-testid={testId} data-refused={optimize ? 'false' : 'true'} aria-live="polite">
      {over.map(({ platform, length, limit }) => (
        <li
          key={platform}
          className={cn('text-xs leading-snug', optimize ? 'text-muted' : 'text-danger')}
          data-platform={platform}
        >
          {t(optimize ? 'publishing.compose.tooLongFitted' : 'publishing.compose.tooLongRefused', {
            platform: t(`publishing.platforms.${platform}`),
            length,
            limit,
          })}
        </li>
      ))}
    </ul>
  );
}

/**
 * What each chosen network takes in one post (its published limits, common/rules/social-media.ts): the caption
 * limit, whether it needs media, how many files, and the image and video formats, sizes, ratios and lengths.
 * A post outside them is refused with a message naming the network and the limit.
 */
export function NetworkLimits({ platforms, testId }: { platforms: readonly SocialPlatform[]; testId: string }) {
  const { t } = useTranslation();
  if (platforms.length === 0) return null;
  return (
    <ul className="space-y-1.5" data-testid={testId} aria-label={t('publishing.limits.title')}>
      {platforms.map((platform) => {
        const s = limitsSummary(platform);
        const parts = [
          t('publishing.limits.caption', { limit: s.captionLimit.toLocaleString() }),
          t(`publishing.limits.requires.${s.requires}`),
          t(s.maxItems === 1 ? 'publishing.limits.oneFile' : 'publishing.limits.files', { count: s.maxItems }),
          s.imageFormats
            ? t('publishing.limits.images', {
                formats: s.imageFormats,
                size: s.imageMaxSize ?? '—',
                aspect: s.imageAspect ? ` · ${s.imageAspect}` : '',
              })
            : t('publishing.limits.noImages'),
          t('publishing.limits.videos', { formats: s.videoFormats, size: s.videoMaxSize, duration: s.videoDuration }),
          ...(s.mixed || s.imageFormats === null ? [] : [t('publishing.limits.notMixed')]),
        ];
        return (
          <li
            key={platform}
            data-platform={platform}
            className="rounded-lg border border-line bg-surface-2/60 px-2.5 py-1.5 text-xs leading-snug text-muted"
          >
            <span className="font-medium text-fg">{t(`publishing.platforms.${platform}`)}</span>
            <span dir="auto"> — {parts.join(' · ')}</span>
          </li>
        );
      })}
    </ul>
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
      <p className="text-xs text-subtle">{t('publishing.compose.platformsHint')}</p>
    </fieldset>
  );
}

export type ContentSource = 'collaborations' | 'materials';

/** A file attached to a post: one of the user's assets, or a material of the collaboration's campaign. */
export interface PostMedia {
  id: string;
  url: string;
  type: 'image' | 'video';
  thumbnail_url: string | null;
  prompt: string | null;
  origin: 'asset' | 'campaign';
}

export interface ContentChoice {
  source: ContentSource;
  collaborationId: string | null;
  /** The chosen collaboration's campaign, whose materials can be attached. */
  campaignId: string | null;
  media: PostMedia[];
}

/** What a post attaches: in a collaboration, campaign materials and own assets; otherwise own assets only. */
export function attachedMedia(content: ContentChoice, forCollaboration: boolean): PostMedia[] {
  return forCollaboration ? content.media : content.media.filter((m) => m.origin === 'asset');
}

export function fromAsset(asset: Asset): PostMedia {
  return {
    id: asset.id,
    url: asset.url,
    type: isVideoType(asset.type) ? 'video' : 'image',
    thumbnail_url: asset.thumbnail_url,
    prompt: asset.prompt,
    origin: 'asset',
  };
}

function fromMaterial(material: CampaignMaterial): PostMedia {
  return { ...material, origin: 'campaign' };
}

function CollaborationList({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (collaboration: ActiveCollaboration) => void;
}) {
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
      <p className="text-xs text-subtle">{t('publishing.compose.collaborationsHint')}</p>
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
              onChange={() => onChange(collab)}
            />
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium">{collab.campaign_title}</span>
              <span className="block truncate text-xs text-muted">
                {t('publishing.compose.by', { brand: collab.brand_name })}
              </span>
              {collab.campaign_description && (
                <span className="mt-0.5 line-clamp-2 block text-xs text-subtle">{collab.campaign_description}</span>
              )}
              {collab.deliverables.length > 0 && (
                <span className="mt-1 flex flex-wrap gap-1" data-testid="publish-collaboration-deliverables">
                  {collab.deliverables.map((d) => (
                    <span
                      key={`${d.type}-${d.platform ?? ''}`}
                      className="rounded-full bg-surface-3 px-2 py-0.5 text-xs tabular-nums text-muted"
                    >
                      {d.type} {d.completed}/{d.quantity}
                    </span>
                  ))}
                </span>
              )}
            </span>
          </label>
        );
      })}
    </div>
  );
}

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
function MediaPicker({
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

/**
 * Spec 2.2: creators switch between My Active Collaborations (one) and AI Materials; brands see materials. A post
 * for a collaboration may attach the campaign's materials and the creator's own assets.
 */
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
  const forCollaboration = isCreator && value.source === 'collaborations';
  const media = attachedMedia(value, forCollaboration);
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
      {forCollaboration ? (
        <>
          <CollaborationList
            value={value.collaborationId}
            onChange={(collab) =>
              onChange({
                ...value,
                collaborationId: collab.collaboration_id,
                campaignId: collab.campaign_id,
                // Another campaign's materials cannot go with this collaboration.
                media:
                  collab.campaign_id === value.campaignId
                    ? value.media
                    : value.media.filter((m) => m.origin === 'asset'),
              })
            }
          />
          {value.collaborationId && (
            <div className="space-y-2 border-t border-line pt-3">
              <span className={labelClass}>{t('publishing.compose.media')}</span>
              <MediaPicker
                campaignId={value.campaignId}
                value={media}
                onChange={(next) => onChange({ ...value, media: next })}
              />
            </div>
          )}
        </>
      ) : (
        <MediaPicker campaignId={null} value={media} onChange={(next) => onChange({ ...value, media: next })} />
      )}
    </div>
  );
}
