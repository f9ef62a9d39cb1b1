import '../../i18n/en-features.ts';
import { CalendarDays, Globe, MapPin, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { CreatorPublicProfile } from '../../../common/api/directory.ts';
import { abbreviateCount } from '../../../common/rules/personas.ts';
import { useSession } from '../../api/session.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { Avatar, TagChips, VerifiedBadge } from '../../ui/directory-parts.tsx';
import { usePercent } from '../directory/cards.tsx';
import { useCreatorProfile } from './api.ts';
import { FactRow, ProfileShell, Section } from './ProfileShell.tsx';
import { EditOwnProfile, ExternalAnchor, hostLabel, Stat } from './parts.tsx';

function CreatorProfile({ creator }: { creator: CreatorPublicProfile }) {
  const { t } = useTranslation();
  const date = useFormatDate();
  const euros = useFormatEuros();
  const percent = usePercent();
  const links = [
    ...Object.entries(creator.social_links).filter((entry): entry is [string, string] => Boolean(entry[1])),
    ...Object.entries(creator.other_links),
  ];
  const stats = [
    {
      label: t('profiles.creator.followers'),
      value: creator.stats.totalFollowers === null ? null : abbreviateCount(creator.stats.totalFollowers),
      missing: t('directory.card.noAccounts'),
      testId: 'profile-followers',
    },
    {
      label: t('profiles.creator.engagement'),
      value: creator.stats.avgEngagementRate === null ? null : percent(creator.stats.avgEngagementRate),
      missing: t('directory.card.noPostFigures'),
      testId: 'profile-engagement',
    },
    creator.pricing.starting_rate !== null && {
      label: t('profiles.creator.startingRate'),
      value: euros(creator.pricing.starting_rate),
      testId: 'profile-rate',
    },
  ].filter((stat) => stat !== false);

  return (
    <div className="mt-6 space-y-4" data-testid="creator-profile" data-id={creator.id}>
      <section className="relative overflow-hidden rounded-2xl border border-line bg-surface">
        <div className="h-24 bg-brand-gradient opacity-80 sm:h-32" aria-hidden />
        <div className="flex flex-col gap-4 px-5 pb-5 sm:flex-row sm:items-end">
          <Avatar
            url={creator.avatar}
            name={creator.displayName}
            className="-mt-12 size-24 border-4 border-surface text-2xl"
          />
          <div className="min-w-0 flex-1">
            <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight sm:text-2xl">
              <span dir="auto" className="truncate" data-testid="profile-name">
                {creator.displayName}
              </span>
              {creator.isVerified && <VerifiedBadge className="[&>svg]:size-5" />}
            </h1>
            <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted">
              {creator.creator_type && (
                <span className="inline-flex items-center gap-1" data-testid="profile-type">
                  <Sparkles className="size-4" aria-hidden />
                  {t(`admin.creatorTypes.${creator.creator_type}`, creator.creator_type)}
                </span>
              )}
              {creator.location && (
                <span className="inline-flex items-center gap-1">
                  <MapPin className="size-4" aria-hidden />
                  <span dir="auto">{creator.location}</span>
                </span>
              )}
              <span className="inline-flex items-center gap-1">
                <CalendarDays className="size-4" aria-hidden />
                {t('profiles.memberSince', { date: date(creator.created_at) })}
              </span>
            </div>
          </div>
          {creator.is_own && <EditOwnProfile />}
        </div>
      </section>

      {stats.length > 0 && (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {stats.map((stat) => (
            <Stat key={stat.testId} {...stat} />
          ))}
        </div>
      )}

      <div className="grid gap-4 md:grid-cols-3">
        <div className="space-y-4 md:col-span-2">
          <Section title={t('profiles.creator.about')} testId="profile-about">
            {creator.bio ? (
              <p dir="auto" className="whitespace-pre-line text-sm leading-relaxed text-fg/90">
                {creator.bio}
              </p>
            ) : (
              <p className="text-sm text-subtle">{t('profiles.creator.noBio')}</p>
            )}
          </Section>
          {(creator.niches.length > 0 || creator.skills.length > 0) && (
            <Section title={t('profiles.creator.nichesAndSkills')}>
              <div className="space-y-3">
                {creator.niches.length > 0 && (
                  <div>
                    <p className="mb-1.5 text-xs text-subtle">{t('profiles.creator.niches')}</p>
                    <TagChips shown={creator.niches} rest={0} testId="profile-niches" />
                  </div>
                )}
                {creator.skills.length > 0 && (
                  <div>
                    <p className="mb-1.5 text-xs text-subtle">{t('profiles.creator.skills')}</p>
                    <TagChips shown={creator.skills} rest={0} testId="profile-skills" />
                  </div>
                )}
              </div>
            </Section>
          )}
        </div>
        <Section title={t('profiles.links')}>
          {creator.website || links.length > 0 || creator.primary_platform ? (
            <dl className="-my-2 divide-y divide-line">
              <FactRow icon={<Globe className="size-4" aria-hidden />} label={t('profiles.website')}>
                {creator.website && (
                  <ExternalAnchor href={creator.website}>{hostLabel(creator.website)}</ExternalAnchor>
                )}
              </FactRow>
              <FactRow icon={<Sparkles className="size-4" aria-hidden />} label={t('profiles.creator.primaryPlatform')}>
                {creator.primary_platform &&
                  t(`profiles.platforms.${creator.primary_platform}`, creator.primary_platform)}
              </FactRow>
              {links.map(([platform, url]) => (
                <FactRow
                  key={platform}
                  icon={<Globe className="size-4" aria-hidden />}
                  label={t(`profiles.platforms.${platform}`, platform)}
                >
                  <ExternalAnchor href={url}>{hostLabel(url)}</ExternalAnchor>
                </FactRow>
              ))}
            </dl>
          ) : (
            <p className="text-sm text-subtle">{t('profiles.noLinks')}</p>
          )}
        </Section>
      </div>
    </div>
  );
}

/** /creators/:id — a creator's public profile (any signed-in user). */
export default function CreatorProfilePage() {
  const { id = '' } = useParams();
  const signedIn = Boolean(useSession((s) => s.token));
  const query = useCreatorProfile(id, signedIn);
  return (
    <ProfileShell title={query.data?.displayName ?? null} signedIn={signedIn} query={query}>
      {query.data && <CreatorProfile creator={query.data} />}
    </ProfileShell>
  );
}
