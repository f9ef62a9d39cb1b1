// The brand profile card and the brand logo card of the profile tab.
import { Building2, FolderOpen, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { BRAND_LOGO } from '../../../common/api/account.constants.ts';
import type { BrandProfile } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { FormMessage, TextAreaField, TextField } from '../../ui/Field.tsx';
import { Section } from '../../ui/Section.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { serverMessage } from '../billing/errors.ts';
import { useSaveBrandProfile, useSetBrandLogo } from './api.ts';
import { str } from './forms.tsx';
import { ImageFileButton } from './ImageFileButton.tsx';
import { ProfileForm, urlError, useProfileForm } from './ProfileForm.tsx';

const M = MESSAGES.account;

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

export function BrandProfileForm({ profile }: { profile: BrandProfile }) {
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
export function BrandLogoCard({ profile }: { profile: BrandProfile }) {
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
