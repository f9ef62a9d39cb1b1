import '../../i18n/en-features.ts';
import { Building2, CalendarDays, Globe, MapPin, Target, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { BrandPublicProfile } from '../../../common/api/directory.ts';
import { useSession } from '../../api/session.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { BrandLogo, StatusBadge, VerifiedBadge } from '../../ui/directory-parts.tsx';
import { useBrandProfile } from './api.ts';
import { FactRow, ProfileShell, Section } from './ProfileShell.tsx';
import { EditOwnProfile, ExternalAnchor, hostLabel, Stat } from './parts.tsx';

function BrandProfile({ brand }: { brand: BrandPublicProfile }) {
  const { t } = useTranslation();
  const date = useFormatDate();
  const name = brand.company_name ?? (brand.owner_name || t('directory.brand.unnamed'));
  const texts = [
    { key: 'about', title: t('profiles.brand.about'), value: brand.company_description },
    { key: 'audience', title: t('profiles.brand.targetAudience'), value: brand.target_audience },
    { key: 'objectives', title: t('profiles.brand.objectives'), value: brand.marketing_objectives },
  ].filter((entry) => entry.value);

  return (
    <div className="mt-6 space-y-4" data-testid="brand-profile" data-id={brand.id}>
      <section className="relative overflow-hidden rounded-2xl border border-line bg-surface">
        <div className="h-24 bg-brand-gradient opacity-80 sm:h-32" aria-hidden />
        <div className="flex flex-col gap-4 px-5 pb-5 sm:flex-row sm:items-end">
          <BrandLogo brand={brand} className="-mt-12 size-24 border-4 border-surface text-2xl" />
          <div className="min-w-0 flex-1">
            <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight sm:text-2xl">
              <span dir="auto" className="truncate" data-testid="profile-name">
                {name}
              </span>
              {brand.verification_status === 'verified' && <VerifiedBadge className="[&>svg]:size-5" />}
            </h1>
            <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted">
              {brand.industry && (
                <span className="inline-flex items-center gap-1" data-testid="profile-industry">
                  <Building2 className="size-4" aria-hidden />
                  <span dir="auto">{brand.industry}</span>
                </span>
              )}
              {brand.headquarters_location && (
                <span className="inline-flex items-center gap-1">
                  <MapPin className="size-4" aria-hidden />
                  <span dir="auto">{brand.headquarters_location}</span>
                </span>
              )}
              <span className="inline-flex items-center gap-1">
                <CalendarDays className="size-4" aria-hidden />
                {t('profiles.memberSince', { date: date(brand.created_at) })}
              </span>
            </div>
          </div>
          <div className="flex items-center gap-2">
            {brand.verification_status !== 'verified' && <StatusBadge status={brand.verification_status} />}
            {brand.is_own && <EditOwnProfile />}
          </div>
        </div>
      </section>

      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Stat
          label={t('profiles.brand.activeCampaigns')}
          value={String(brand.activeCampaigns)}
          testId="profile-active-campaigns"
        />
        {brand.budget_range && (
          <Stat label={t('profiles.brand.budget')} value={brand.budget_range} testId="profile-budget" />
        )}
        {brand.company_size && (
          <Stat label={t('profiles.brand.size')} value={brand.company_size} testId="profile-size" />
        )}
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        <div className="space-y-4 md:col-span-2">
          {texts.length > 0 ? (
            texts.map((entry) => (
              <Section key={entry.key} title={entry.title} testId={`profile-${entry.key}`}>
                <p dir="auto" className="whitespace-pre-line text-sm leading-relaxed text-fg/90">
                  {entry.value}
                </p>
              </Section>
            ))
          ) : (
            <Section title={t('profiles.brand.about')} testId="profile-about">
              <p className="text-sm text-subtle">{t('profiles.brand.noDescription')}</p>
            </Section>
          )}
        </div>
        <Section title={t('profiles.details')}>
          <dl className="-my-2 divide-y divide-line">
            <FactRow icon={<Globe className="size-4" aria-hidden />} label={t('profiles.website')}>
              {brand.company_website && (
                <ExternalAnchor href={brand.company_website}>{hostLabel(brand.company_website)}</ExternalAnchor>
              )}
            </FactRow>
            <FactRow icon={<MapPin className="size-4" aria-hidden />} label={t('profiles.brand.headquarters')}>
              {brand.headquarters_location}
            </FactRow>
            <FactRow icon={<Users className="size-4" aria-hidden />} label={t('profiles.brand.size')}>
              {brand.company_size}
            </FactRow>
            <FactRow icon={<Target className="size-4" aria-hidden />} label={t('profiles.brand.industry')}>
              {brand.industry}
            </FactRow>
          </dl>
          {!brand.company_website && !brand.headquarters_location && !brand.company_size && !brand.industry && (
            <p className="text-sm text-subtle">{t('profiles.noDetails')}</p>
          )}
        </Section>
      </div>
    </div>
  );
}

/** /brands/:id — a brand's public profile (any signed-in user). */
export default function BrandProfilePage() {
  const { id = '' } = useParams();
  const signedIn = Boolean(useSession((s) => s.token));
  const query = useBrandProfile(id, signedIn);
  return (
    <ProfileShell
      title={query.data ? (query.data.company_name ?? query.data.owner_name) : null}
      signedIn={signedIn}
      query={query}
    >
      {query.data && <BrandProfile brand={query.data} />}
    </ProfileShell>
  );
}
