// The profile tab's card with the user's own details.
import { useTranslation } from 'react-i18next';
import type { User } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { SelectField } from '../../ui/controls.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { useSaveUserProfile } from './api.ts';
import { str, timezoneOptions } from './forms.tsx';
import { ProfileForm, urlError, useProfileForm } from './ProfileForm.tsx';

/** The user's own fields; with a role profile below it the shared bio/location/website stay there. */
export function UserDetailsForm({ user, full }: { user: User; full: boolean }) {
  const { t } = useTranslation();
  const save = useSaveUserProfile();
  const fromUser = (u: User) => ({
    first_name: u.first_name,
    last_name: u.last_name,
    phone: str(u.phone),
    bio: str(u.bio),
    location: str(u.location),
    website: str(u.website),
    timezone: u.timezone,
  });
  const form = useProfileForm(fromUser(user), fromUser);
  const { values, set, errors, field } = form;

  const submit = () => {
    const problems: typeof errors = {
      first_name: values.first_name.trim() ? undefined : translateMessage(MESSAGES.validation.firstNameRequired),
      last_name: values.last_name.trim() ? undefined : translateMessage(MESSAGES.validation.lastNameRequired),
      website: full ? urlError(values.website) : undefined,
    };
    if (Object.values(problems).some(Boolean)) return form.setErrors(problems);
    const body = full
      ? values
      : { first_name: values.first_name, last_name: values.last_name, phone: values.phone, timezone: values.timezone };
    save.mutate(body, form.saved);
  };

  const zones = timezoneOptions(values.timezone);
  return (
    <ProfileForm
      title={t('account.profile.detailsTitle')}
      testId="user-profile-form"
      saveTestId="user-profile-save"
      form={form}
      saving={save.isPending}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="profile-first-name"
          label={t('account.profile.firstName')}
          {...field('first_name')}
          autoComplete="given-name"
          maxLength={80}
        />
        <TextField
          id="profile-last-name"
          label={t('account.profile.lastName')}
          {...field('last_name')}
          autoComplete="family-name"
          maxLength={80}
        />
        <TextField
          id="profile-phone"
          label={t('account.profile.phone')}
          type="tel"
          dir="ltr"
          {...field('phone')}
          autoComplete="tel"
          maxLength={40}
        />
        <SelectField
          variant="form"
          label={t('account.profile.timezone')}
          value={values.timezone}
          onChange={set('timezone')}
          options={zones.map((z) => ({ value: z, label: z }))}
          error={errors.timezone}
          testId="profile-timezone"
        />
        {full && (
          <>
            <TextField
              id="profile-location"
              label={t('account.profile.location')}
              {...field('location')}
              maxLength={120}
            />
            <TextField
              id="profile-website"
              label={t('account.profile.website')}
              type="url"
              dir="ltr"
              placeholder="https://"
              {...field('website')}
            />
          </>
        )}
      </div>
      {full && (
        <TextAreaField
          id="profile-bio"
          label={t('account.profile.bio')}
          {...field('bio')}
          maxLength={2000}
          className="min-h-24"
        />
      )}
    </ProfileForm>
  );
}
