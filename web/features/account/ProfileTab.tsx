import { Building2, Camera, ExternalLink, FolderOpen, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  AVATAR,
  BRAND_LOGO,
  SOCIAL_LINK_PLATFORMS,
  type SocialLinkPlatform,
} from '../../../common/api/account.constants.ts';
import { type BrandProfile, type CreatorProfile, isHttpUrl } from '../../../common/api/account.ts';
import type { User } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { SelectField } from '../../ui/controls.tsx';
import { FormMessage, TextAreaField, TextField } from '../../ui/Field.tsx';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { profileHref, UserAvatar } from '../../ui/UserAvatar.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { serverMessage } from '../billing/errors.ts';
import {
  useBrandProfile,
  useCreatorProfile,
  useSaveBrandProfile,
  useSaveCreatorProfile,
  useSaveUserProfile,
  useSetBrandLogo,
  useUploadAvatar,
} from './api.ts';
import { EmailVerification } from './EmailVerification.tsx';
import { splitList, str, timezoneOptions, useDraft } from './forms.tsx';

const M = MESSAGES.account;
const AVATAR_MIME = new Set(AVATAR.types.map((type) => `image/${type}`));

function urlError(value: string): string | undefined {
  return value.trim() && !isHttpUrl(value.trim()) ? translateMessage(M.urlInvalid) : undefined;
}

/** A button that opens the file picker for one image (the input itself is hidden, `${testId}-input` in tests). */
function ImageFileButton(props: {
  types: readonly string[];
  label: string;
  testId: string;
  buttonTestId: string;
  loading: boolean;
  onFiles: (files: FileList | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={props.types.map((type) => `image/${type}`).join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-label={props.label}
        data-testid={`${props.testId}-input`}
        onChange={(event) => {
          props.onFiles(event.target.files);
          event.target.value = '';
        }}
      />
      <Button
        variant="secondary"
        onClick={() => input.current?.click()}
        loading={props.loading}
        data-testid={props.buttonTestId}
      >
        {!props.loading && <Camera className="size-4" aria-hidden />}
        {props.label}
      </Button>
    </>
  );
}

function AvatarCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const upload = useUploadAvatar();
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const choose = (files: FileList | null) => {
    setError(null);
    if (!files || files.length === 0) return;
    if (files.length > 1) return setError(translateMessage(M.avatarOneFile));
    const file = files[0];
    if (!AVATAR_MIME.has(file.type)) return setError(translateMessage(M.avatarNotImage));
    if (file.size > AVATAR.maxMb * 1024 * 1024)
      return setError(translateMessage(MESSAGES.upload.tooLarge(AVATAR.maxMb)));
    setPreview(URL.createObjectURL(file));
    upload.mutate(file, {
      onSuccess: () => {
        toast.success(translateMessage(M.avatarUpdated));
        setPreview(null);
      },
      onError: (err) => {
        setPreview(null);
        setError(serverMessage(err, M.avatarFailed));
        toast.error(translateMessage(M.avatarFailed));
      },
    });
  };

  const profile = profileHref(user);
  return (
    <Section
      title={t('account.profile.avatarTitle')}
      description={t('account.profile.avatarHint', { mb: AVATAR.maxMb })}
      testId="avatar-card"
    >
      <div className="flex flex-wrap items-center gap-4">
        <div className="relative">
          {preview ? (
            <img
              src={preview}
              alt=""
              className="size-20 rounded-full object-cover opacity-70"
              data-testid="avatar-preview"
            />
          ) : (
            <UserAvatar user={user} className="size-20 text-xl" />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <ImageFileButton
            types={AVATAR.types}
            label={t('account.profile.changePhoto')}
            testId="avatar"
            buttonTestId="avatar-change"
            loading={upload.isPending}
            onFiles={choose}
          />
          {profile && (
            <Link to={profile} className={buttonClass('ghost')}>
              <ExternalLink className="size-4" aria-hidden />
              {t('account.profile.viewPublic')}
            </Link>
          )}
        </div>
      </div>
      {error && (
        <div className="mt-3">
          <FormMessage>{error}</FormMessage>
        </div>
      )}
    </Section>
  );
}

/**
 * A profile form's draft (forms.tsx useDraft) with its form-level error, the text-field props of each
 * value, and what a save does: take the saved values and toast, or show the server's field errors.
 */
function useProfileForm<T extends Record<string, string>, Saved>(initial: T, valuesOf: (saved: Saved) => T) {
  const form = useDraft(initial);
  const [formError, setFormError] = useState<string | null>(null);
  const field = (name: keyof T) => ({
    value: form.values[name] ?? '',
    onChange: (e: { target: { value: string } }) => form.set(name)(e.target.value),
    error: form.errors[name],
  });
  const saved = {
    onSuccess: (next: Saved) => {
      form.reset(valuesOf(next));
      toast.success(translateMessage(M.profileSaved));
    },
    onError: (err: unknown) => {
      if (!form.showServerErrors(err)) setFormError(serverMessage(err, MESSAGES.generic.internal));
    },
  };
  return { ...form, formError, setFormError, field, saved };
}

/** A profile card: the form with its error on top and Save (enabled once something changed) at the end. */
function ProfileForm({
  title,
  description,
  testId,
  saveTestId,
  form,
  saving,
  onSubmit,
  children,
}: {
  title: string;
  description?: string;
  testId: string;
  saveTestId: string;
  form: { formError: string | null; setFormError: (error: string | null) => void; dirty: boolean };
  saving: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.setFormError(null);
    onSubmit();
  };
  return (
    <Section title={title} description={description} testId={testId}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {form.formError && <FormMessage>{form.formError}</FormMessage>}
        {children}
        <div className="flex justify-end">
          <Button type="submit" loading={saving} disabled={!form.dirty} data-testid={saveTestId}>
            {t('account.common.save')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

/** The user's own fields; with a role profile below it the shared bio/location/website stay there. */
function UserDetailsForm({ user, full }: { user: User; full: boolean }) {
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

function CreatorProfileForm({ profile }: { profile: CreatorProfile }) {
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

const BRAND_TEXT = [
  'companyName',
  'industry',
  'companyWebsite',
  'budgetRange',
  'companySize',
  'headquartersLocation',
] as const;
const BRAND_LONG = ['companyDescription', 'targetAudience', 'marketingObjectives'] as const;

function brandValues(p: BrandProfile) {
  return Object.fromEntries([...BRAND_TEXT, ...BRAND_LONG].map((key) => [key, str(p[key])])) as Record<string, string>;
}

function BrandProfileForm({ profile }: { profile: BrandProfile }) {
  const { t } = useTranslation();
  const save = useSaveBrandProfile();
  const form = useProfileForm(brandValues(profile), brandValues);
  const { values, field } = form;

  const submit = () => {
    const websiteError = urlError(values.companyWebsite);
    if (websiteError) return form.setErrors({ companyWebsite: websiteError });
    save.mutate(values, form.saved);
  };

  return (
    <ProfileForm
      title={t('account.profile.brandTitle')}
      description={t(`account.profile.brandStatus.${profile.verificationStatus}`)}
      testId="brand-profile-form"
      saveTestId="brand-profile-save"
      form={form}
      saving={save.isPending}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {BRAND_TEXT.map((key) => (
          <TextField
            key={key}
            id={`brand-${key}`}
            label={t(`account.profile.brand.${key}`)}
            {...field(key)}
            maxLength={key === 'companyWebsite' ? 2048 : 120}
            {...(key === 'companyWebsite' ? { type: 'url', dir: 'ltr', placeholder: 'https://' } : {})}
          />
        ))}
      </div>
      {BRAND_LONG.map((key) => (
        <TextAreaField
          key={key}
          id={`brand-${key}`}
          label={t(`account.profile.brand.${key}`)}
          {...field(key)}
          maxLength={2000}
          className="min-h-24"
        />
      ))}
    </ProfileForm>
  );
}

const LOGO_MIME = new Set(BRAND_LOGO.types.map((type) => `image/${type}`));

/**
 * The brand logo: uploaded here or picked from the brand's own media library, never typed as a URL (every
 * creator's and admin's browser loads it; issue 27). The server re-encodes it and stores it publicly.
 */
function BrandLogoCard({ profile }: { profile: BrandProfile }) {
  const { t } = useTranslation();
  const setLogo = useSetBrandLogo();
  const save = useSaveBrandProfile();
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const apply = (source: File | string) => {
    setError(null);
    setLogo.mutate(source, {
      onSuccess: () => toast.success(translateMessage(M.logoUpdated)),
      onError: (err) => setError(serverMessage(err, M.logoFailed)),
    });
  };
  const choose = (files: FileList | null) => {
    setError(null);
    if (!files || files.length === 0) return;
    if (files.length > 1) return setError(translateMessage(M.avatarOneFile));
    const file = files[0];
    if (!LOGO_MIME.has(file.type)) return setError(translateMessage(M.logoNotImage));
    if (file.size > BRAND_LOGO.maxMb * 1024 * 1024)
      return setError(translateMessage(MESSAGES.upload.tooLarge(BRAND_LOGO.maxMb)));
    apply(file);
  };
  const remove = () =>
    save.mutate(
      { logoUrl: null },
      {
        onSuccess: () => toast.success(translateMessage(M.logoRemoved)),
        onError: (err) => setError(serverMessage(err, M.logoFailed)),
      },
    );

  return (
    <Section
      title={t('account.profile.logoTitle')}
      description={t('account.profile.logoHint', { mb: BRAND_LOGO.maxMb })}
      testId="brand-logo-card"
    >
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex size-20 items-center justify-center overflow-hidden rounded-lg border border-border bg-surface-2">
          {profile.logoUrl ? (
            <img
              src={profile.logoUrl}
              alt={t('account.profile.logoAlt')}
              className="size-full object-contain"
              data-testid="brand-logo-image"
            />
          ) : (
            <Building2 className="size-8 text-subtle" aria-hidden />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <ImageFileButton
            types={BRAND_LOGO.types}
            label={t('account.profile.logoUpload')}
            testId="brand-logo"
            buttonTestId="brand-logo-upload"
            loading={setLogo.isPending}
            onFiles={choose}
          />
          <Button variant="secondary" onClick={() => setPicking(true)} data-testid="brand-logo-pick">
            <FolderOpen className="size-4" aria-hidden />
            {t('account.profile.logoPick')}
          </Button>
          {profile.logoUrl && (
            <Button variant="ghost" onClick={remove} loading={save.isPending} data-testid="brand-logo-remove">
              {!save.isPending && <Trash2 className="size-4" aria-hidden />}
              {t('account.profile.logoRemove')}
            </Button>
          )}
        </div>
      </div>
      {error && (
        <div className="mt-3">
          <FormMessage>{error}</FormMessage>
        </div>
      )}
      <AssetPicker
        open={picking}
        onOpenChange={setPicking}
        kind="image"
        max={1}
        onPick={([asset]) => {
          if (asset) apply(asset.url);
        }}
      />
    </Section>
  );
}

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
