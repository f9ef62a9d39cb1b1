import { Building2, type LucideIcon, MapPin, Megaphone, TrendingUp, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BrandCard as Brand, CreatorCard as Creator } from '../../../common/api/directory.ts';
import { creatorRateDisplay, nicheDisplay } from '../../../common/rules/directory.ts';
import { cn } from '../../ui/cn.ts';
import { useFormatEuros } from '../billing/format.ts';
import { Avatar, BrandLogo, TagChips, VerifiedBadge } from './parts.tsx';

const cardClass = cn(
  'group flex h-full flex-col gap-3 rounded-2xl border border-line bg-surface p-4 text-start transition-colors',
  'hover:border-line-strong hover:bg-surface-2',
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
);

/** A card's name with its verified badge, and one detail line under it with its icon. */
function CardTitle({
  name,
  testId,
  verified,
  icon: Icon,
  detail,
}: {
  name: string;
  testId: string;
  verified: boolean;
  icon: LucideIcon;
  detail: string | null | undefined;
}) {
  return (
    <div className="min-w-0 flex-1">
      <p className="flex items-center gap-1.5">
        <span dir="auto" className="min-w-0 truncate text-sm font-semibold text-fg" data-testid={testId}>
          {name}
        </span>
        {verified && <VerifiedBadge />}
      </p>
      {detail && (
        <p className="mt-0.5 flex items-center gap-1 text-xs text-muted">
          <Icon className="size-3.5 shrink-0" aria-hidden />
          <span dir="auto" className="min-w-0 truncate">
            {detail}
          </span>
        </p>
      )}
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

/** What the card shows as its figure: the starting rate, else the engagement rate, else nothing. */
function CreatorRate({ creator }: { creator: Pick<Creator, 'pricing' | 'stats'> }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const percent = usePercent();
  const rate = creatorRateDisplay(creator);
  if (!rate) return null;
  return rate.kind === 'rate' ? (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-fg" data-testid="creator-rate">
      <Wallet className="size-3.5 text-accent" aria-hidden />
      {t('directory.card.from', { amount: euros(rate.amount) })}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-fg" data-testid="creator-engagement">
      <TrendingUp className="size-3.5 text-accent" aria-hidden />
      {t('directory.card.engagement', { value: percent(rate.percent) })}
    </span>
  );
}

/** Spec 3 Creator card in the community view: a link to the creator's public profile. */
export function CreatorCardLink({ creator }: { creator: Creator }) {
  const niches = nicheDisplay(creator.niches);
  return (
    <li data-testid="creator-card" data-id={creator.id}>
      <Link to={`/creators/${creator.id}`} className={cardClass}>
        <div className="flex items-center gap-3">
          <Avatar url={creator.avatar} name={creator.displayName} className="size-12 text-sm" />
          <CardTitle
            name={creator.displayName}
            testId="creator-name"
            verified={creator.isVerified}
            icon={MapPin}
            detail={creator.location}
          />
        </div>
        {creator.bio && (
          <p dir="auto" className="line-clamp-2 text-sm leading-relaxed text-muted">
            {creator.bio}
          </p>
        )}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2">
          <TagChips shown={niches.shown} rest={niches.more} testId="creator-niches" />
          <CreatorRate creator={creator} />
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
    <li data-testid="brand-card" data-id={brand.id}>
      <Link to={`/brands/${brand.id}`} className={cardClass}>
        <div className="flex items-center gap-3">
          <BrandLogo brand={brand} className="size-12 text-sm" />
          <CardTitle
            name={name}
            testId="brand-name"
            verified={brand.verification_status === 'verified'}
            icon={Building2}
            detail={brand.industry}
          />
        </div>
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
            <span />
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
