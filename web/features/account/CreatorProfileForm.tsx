// The creator profile card of the profile tab.
import { useTranslation } from 'react-i18next';
import { SOCIAL_LINK_PLATFORMS, type SocialLinkPlatform } from '../../../common/api/account.constants.ts';
import type { CreatorProfile } from '../../../common/api/account.ts';
import { SelectField } from '../../ui/controls.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { useSaveCreatorProfile } from './api.ts';
import { splitList, str } from './forms.tsx';
import { ProfileForm, urlError, useProfileForm } from './ProfileForm.tsx';

function creatorValues(p: CreatorProfile) {
  const links = Object.fromEntries(
    SOCIAL_LINK_PLATFORMS.map((platform) => [`link_${platform}`, str(p.socialLinks[platform])]),
  );
  return {
    displayName: str(p.displayName),
    bio: str(p.bio),
    location: str(p.location),
    website: str(p.website),
    primaryPlatform: str(p.primaryPlatform),
    skills: p.skills.join(', '),
    niches: p.niches.join(', '),
    startingRate: p.startingRate === null ? '' : String(p.startingRate),
    ...links,
  } as Record<string, string>;
}

export function CreatorProfileForm({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation();
  const save = useSaveCreatorProfile();
  const form = useProfileForm(creatorValues(profile), creatorValues);
  const { values, set, field } = form;

  const submit = () => {
    const problems: Record<string, string | undefined> = { website: urlError(values.website) };
    for (const platform of SOCIAL_LINK_PLATFORMS)
      problems[`link_${platform}`] = urlError(values[`link_${platform}`] ?? '');
    const rate = values.startingRate.trim();
    if (rate && !(Number(rate) >= 0)) problems.startingRate = t('account.profile.rateInvalid');
    if (Object.values(problems).some(Boolean)) return form.setErrors(problems);
    const socialLinks: Partial<Record<SocialLinkPlatform, string>> = {};
    for (const platform of SOCIAL_LINK_PLATFORMS) {
      const link = values[`link_${platform}`]?.trim();
      if (link) socialLinks[platform] = link;
    }
    save.mutate(
      {
        displayName: values.displayName,
        bio: values.bio,
        location: values.location,
        website: values.website,
        primaryPlatform: (values.primaryPlatform || null) as SocialLinkPlatform | null,
        skills: splitList(values.skills),
        niches: splitList(values.niches),
        socialLinks,
        startingRate: rate ? Math.round(Number(rate) * 100) / 100 : null,
      },
      form.saved,
    );
  };

  return (
    <ProfileForm
      title={t('account.profile.creatorTitle')}
      description={profile.isVerified ? t('account.profile.verifiedCreator') : t('account.profile.creatorHint')}
      testId="creator-profile-form"
      saveTestId="creator-profile-save"
      form={form}
      saving={save.isPending}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="creator-display-name"
          label={t('account.profile.displayName')}
          maxLength={80}
          {...field('displayName')}
        />
        <SelectField
          variant="form"
          label={t('account.profile.primaryPlatform')}
          value={values.primaryPlatform}
          onChange={set('primaryPlatform')}
          options={[
            { value: '', label: t('account.profile.none') },
            ...SOCIAL_LINK_PLATFORMS.map((p) => ({ value: p, label: t(`account.platforms.${p}`) })),
          ]}
        />
        <TextField id="creator-location" label={t('account.profile.location')} maxLength={120} {...field('location')} />
        <TextField
          id="creator-website"
          label={t('account.profile.website')}
          type="url"
          dir="ltr"
          placeholder="https://"
          {...field('website')}
        />
        <TextField
          id="creator-skills"
          label={t('account.profile.skills')}
          hint={t('account.profile.commaHint')}
          {...field('skills')}
        />
        <TextField
          id="creator-niches"
          label={t('account.profile.niches')}
          hint={t('account.profile.commaHint')}
          {...field('niches')}
        />
        <TextField
          id="creator-rate"
          label={t('account.profile.startingRate')}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          dir="ltr"
          {...field('startingRate')}
        />
      </div>
      <TextAreaField
        id="creator-bio"
        label={t('account.profile.bio')}
        maxLength={2000}
        className="min-h-24"
        {...field('bio')}
      />
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-medium">{t('account.profile.socialLinks')}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {SOCIAL_LINK_PLATFORMS.map((platform) => (
            <TextField
              key={platform}
              id={`creator-link-${platform}`}
              label={t(`account.platforms.${platform}`)}
              type="url"
              dir="ltr"
              placeholder="https://"
              {...field(`link_${platform}`)}
            />
          ))}
        </div>
      </fieldset>
    </ProfileForm>
  );
}
