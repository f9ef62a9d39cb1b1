import { useTranslation } from 'react-i18next';
import type { User } from '../../../common/api/auth.ts';
import { translateMessage } from '../../i18n/index.ts';
import { LoadError, Loading } from '../../ui/Section.tsx';
import { AvatarCard } from './AvatarCard.tsx';
import { useBrandProfile, useCreatorProfile } from './api.ts';
import { BrandLogoCard, BrandProfileForm } from './BrandProfileForm.tsx';
import { CreatorProfileForm } from './CreatorProfileForm.tsx';
import { EmailVerification } from './EmailVerification.tsx';
import { UserDetailsForm } from './UserDetailsForm.tsx';

function RoleProfile({ role }: { role: 'creator' | 'brand' }) {
  const creator = useCreatorProfile(role === 'creator');
  const brand = useBrandProfile(role === 'brand');
  const query = role === 'creator' ? creator : brand;
  if (query.isPending) return <Loading testId="role-profile-loading" />;
  if (query.isError)
    return <LoadError message={translateMessage(query.error.message)} onRetry={() => query.refetch()} />;
  return role === 'creator' && creator.data ? (
    <CreatorProfileForm profile={creator.data} />
  ) : brand.data ? (
    <>
      <BrandLogoCard profile={brand.data} />
      <BrandProfileForm profile={brand.data} />
    </>
  ) : null;
}

export function ProfileTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const roleProfile = user.role === 'creator' || user.role === 'brand' ? user.role : null;
  return (
    <div className="space-y-5" data-testid="account-profile">
      <h2 className="text-xl font-semibold tracking-tight">{t('account.tabs.profile')}</h2>
      {!user.is_verified && <EmailVerification email={user.email} />}
      <AvatarCard user={user} />
      <UserDetailsForm user={user} full={roleProfile === null} />
      {roleProfile && <RoleProfile role={roleProfile} />}
    </div>
  );
}
