// The profile tab's avatar card: upload, pick from the assets, remove.
import { ExternalLink } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { AVATAR } from '../../../common/api/account.constants.ts';
import type { User } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Section } from '../../ui/Section.tsx';
import { profileHref, UserAvatar } from '../../ui/UserAvatar.tsx';
import { serverMessage } from '../billing/errors.ts';
import { useUploadAvatar } from './api.ts';
import { ImageFileButton } from './ImageFileButton.tsx';

const M = MESSAGES.account;
const AVATAR_MIME = new Set(AVATAR.types.map((type) => `image/${type}`));

export function AvatarCard({ user }: { user: User }) {
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
