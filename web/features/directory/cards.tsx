import { Building2, type LucideIcon, MapPin, Megaphone, Sparkles, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BrandCard as Brand, CreatorCard as Creator } from '../../../common/api/directory.ts';
import { nicheDisplay } from '../../../common/rules/directory.ts';
import { useFormatEuros } from '../../i18n/format.ts';
import { cn } from '../../ui/cn.ts';
import { Avatar, BrandLogo, TagChips, VerifiedBadge } from '../../ui/directory-parts.tsx';
import { PlatformMark } from '../../ui/PlatformMark.tsx';

/**
 * The directories' grid: as many columns as cards of at least 20rem fit in the content area (not the viewport:
 * the sidebar takes its share), one full-width column on phones. At 20rem a figure's missing word ("No
 * accounts") stays on one line.
 */
export const directoryGridClass = 'grid grid-cols-[repeat(auto-fill,minmax(min(100%,20rem),1fr))] gap-3';

const cardClass = cn(
  'group flex h-full flex-col gap-3 rounded-2xl border border-line bg-surface p-4 text-start transition-colors',
  'hover:border-line-strong hover:bg-surface-2',
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
);

/** A card's name with its verified badge, and one detail line under it with its icon (or what is missing). */
function CardTitle({
  name,
  testId,
  verified,
  icon: Icon,
  detail,
  missing,
}: {
  name: string;
  testId: string;
  verified: boolean;
  icon: LucideIcon;
  detail: string | null | undefined;
  /** Shown, muted, when there is no detail. */
  missing: string;
}) {
  return (
    <div className="min-w-0 flex-1">
      <p className="flex items-center gap-1.5">
        <span dir="auto" className="min-w-0 truncate text-sm font-semibold text-fg" data-testid={testId}>
          {name}
        </span>
        {verified && <VerifiedBadge />}
      </p>
      <p className={cn('mt-0.5 flex items-center gap-1 text-xs', detail ? 'text-muted' : 'text-subtle')}>
        <Icon className="size-3.5 shrink-0" aria-hidden />
        <span dir="auto" className="min-w-0 truncate">
          {detail || missing}
        </span>
      </p>
    </div>
  );
}

/** Percent with at most one decimal ("4.2%"). */
export function usePercent() {
  const { i18n } = useTranslation();
  return (value: number) =>
    new Intl.NumberFormat(i18n.language === 'ar' ? 'ar-u-nu-latn' : 'en', { maximumFractionDigits: 1 }).format(value) +
    '%';
}

/** Whole numbers in the viewer's language, abbreviated with k for thousands (spec 9: "Counts abbreviated"). */
function useCompact() {
  const { i18n } = useTranslation();
  return (value: number) =>
    new Intl.NumberFormat(i18n.language === 'ar' ? 'ar-u-nu-latn' : 'en', {
      notation: 'compact',
      maximumFractionDigits: 1,
    }).format(value);
}

/** A figure of the card: its value, or a muted word (`missing`) when it is not known. */
function Figure({
  label,
  value,
  missing,
  testId,
}: {
  label: string;
  value: string | null;
  missing: string;
  testId: string;
}) {
  return (
    <div className="min-w-0 rounded-lg bg-surface-2 px-2.5 py-1.5" data-testid={testId} data-known={value !== null}>
      <dt className="truncate text-xs text-subtle">{label}</dt>
      <dd
        className={cn(
          'tabular-nums',
          // A missing figure says why in a few words: it wraps rather than being cut off.
          value === null ? 'text-xs leading-4 text-balance text-subtle' : 'truncate text-sm font-semibold text-fg',
        )}
      >
        {value ?? missing}
      </dd>
    </div>
  );
}

/**
 * Spec 3 Creator card in the community view, a link to the creator's public profile: what a brand weighs up
 * (type and niches, platforms, followers and engagement when known, starting rate), each with its empty state.
 */
export function CreatorCardLink({ creator }: { creator: Creator }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const percent = usePercent();
  const compact = useCompact();
  const niches = nicheDisplay(creator.niches);
  const type = creator.creator_type
    ? t(`directory.creatorTypes.${creator.creator_type}`, { defaultValue: creator.creator_type })
    : null;
  const rate = creator.pricing.starting_rate;
  return (
    <li data-testid="creator-card" data-id={creator.id} className="min-w-0">
      <Link to={`/creators/${creator.id}`} className={cardClass}>
        <div className="flex items-center gap-3">
          <Avatar url={creator.avatar} name={creator.displayName} className="size-12 text-sm" />
          <div className="min-w-0 flex-1">
            <p className="flex items-center gap-1.5">
              <span dir="auto" className="min-w-0 truncate text-sm font-semibold text-fg" data-testid="creator-name">
                {creator.displayName}
              </span>
              {creator.isVerified && <VerifiedBadge />}
            </p>
            <p className="mt-0.5 flex min-w-0 items-center gap-1 text-xs text-muted" data-testid="creator-type">
              <Sparkles className="size-3.5 shrink-0" aria-hidden />
              <span className="truncate">{type ?? t('directory.card.creator')}</span>
              {creator.location && (
                <>
                  <span aria-hidden>·</span>
                  <MapPin className="size-3.5 shrink-0" aria-hidden />
                  <span dir="auto" className="min-w-0 truncate">
                    {creator.location}
                  </span>
                </>
              )}
            </p>
          </div>
        </div>
        {creator.bio && (
          <p dir="auto" className="line-clamp-2 text-sm leading-relaxed text-muted">
            {creator.bio}
          </p>
        )}
        {niches.shown.length > 0 ? (
          <TagChips shown={niches.shown} rest={niches.more} testId="creator-niches" />
        ) : (
          <p className="text-xs text-subtle" data-testid="creator-niches-empty">
            {t('directory.card.noNiches')}
          </p>
        )}
        <div className="mt-auto space-y-3">
          <dl className="grid grid-cols-3 gap-1.5">
            <Figure
              label={t('directory.card.followers')}
              value={creator.stats.totalFollowers === null ? null : compact(creator.stats.totalFollowers)}
              missing={t('directory.card.noAccountsShort')}
              testId="creator-followers"
            />
            <Figure
              label={t('directory.card.engagementLabel')}
              value={creator.stats.avgEngagementRate === null ? null : percent(creator.stats.avgEngagementRate)}
              missing={t('directory.card.noPostFiguresShort')}
              testId="creator-engagement"
            />
            <Figure
              label={t('directory.card.startingRate')}
              value={rate === null ? null : euros(rate)}
              missing={t('directory.card.onRequest')}
              testId="creator-rate"
            />
          </dl>
          <div className="flex min-h-6 items-center gap-1.5" data-testid="creator-platforms">
            {creator.platforms.length > 0 ? (
              <>
                <span className="sr-only">{t('directory.card.platforms')}:</span>
                {creator.platforms.map((platform) => (
                  <span key={platform} title={t(`publishing.platforms.${platform}`)} data-platform={platform}>
                    <PlatformMark platform={platform} size="sm" />
                    <span className="sr-only">{t(`publishing.platforms.${platform}`)}</span>
                  </span>
                ))}
              </>
            ) : (
              <span className="text-xs text-subtle">{t('directory.card.noPlatforms')}</span>
            )}
          </div>
        </div>
      </Link>
    </li>
  );
}

/** Spec 3 Brand card in the brand directory: a link to the brand's public profile. */
export function BrandCardLink({ brand }: { brand: Brand }) {
  const { t } = useTranslation();
  const name = brand.company_name ?? (brand.owner_name || t('directory.brand.unnamed'));
  return (
    <li data-testid="brand-card" data-id={brand.id} className="min-w-0">
      <Link to={`/brands/${brand.id}`} className={cardClass}>
        <div className="flex items-center gap-3">
          <BrandLogo brand={brand} className="size-12 text-sm" />
          <CardTitle
            name={name}
            testId="brand-name"
            verified={brand.verification_status === 'verified'}
            icon={Building2}
            detail={brand.industry}
            missing={t('directory.brand.noIndustry')}
          />
        </div>
        {brand.headquarters_location && (
          <p className="-mt-1 flex items-center gap-1 text-xs text-muted">
            <MapPin className="size-3.5 shrink-0" aria-hidden />
            <span dir="auto" className="min-w-0 truncate">
              {brand.headquarters_location}
            </span>
          </p>
        )}
        {brand.company_description && (
          <p dir="auto" className="line-clamp-2 text-sm leading-relaxed text-muted">
            {brand.company_description}
          </p>
        )}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 text-xs">
          {brand.budget_range ? (
            <span className="inline-flex items-center gap-1 font-medium text-fg" data-testid="brand-budget">
              <Wallet className="size-3.5 text-accent" aria-hidden />
              <span dir="auto">{brand.budget_range}</span>
            </span>
          ) : (
            <span className="inline-flex items-center gap-1 text-subtle" data-testid="brand-budget-empty">
              <Wallet className="size-3.5" aria-hidden />
              {t('directory.brand.noBudget')}
            </span>
          )}
          <span className="inline-flex items-center gap-1 text-muted" data-testid="brand-active-campaigns">
            <Megaphone className="size-3.5" aria-hidden />
            {t('directory.brand.activeCampaigns', { count: brand.activeCampaigns })}
          </span>
        </div>
      </Link>
    </li>
  );
}
