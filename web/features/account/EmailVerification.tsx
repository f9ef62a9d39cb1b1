import { MailWarning } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { CodeInput } from '../../ui/CodeInput.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ResendCodeButton, useEmailVerification } from '../../ui/useEmailVerification.tsx';

const V = MESSAGES.verification;

function verifyError(error: unknown): string {
  if (error instanceof ApiError && !error.isNetwork && error.status < 500)
    return translateMessage(error.message || V.invalidCode);
  return translateMessage(error instanceof ApiError && error.isNetwork ? V.network : V.invalidCode);
}

function resendError(error: unknown): string {
  return error instanceof ApiError && error.status === 429
    ? translateMessage(error.message)
    : translateMessage(V.sendFailed);
}

/** Spec 4 Email verification inside the Profile tab: six boxes, auto-submit, countdown and resend. */
export function EmailVerification({ email }: { email: string }) {
  const { t } = useTranslation();
  const verification = useEmailVerification({ email, verifyError, resendError });
  const { state, notice, boxes } = verification;

  return (
    <Section
      title={t('account.verify.title')}
      description={t('account.verify.body', { email })}
      testId="email-verification"
    >
      <div className="max-w-sm space-y-4">
        <div className="flex items-center gap-2 text-sm text-warning">
          <MailWarning className="size-4" aria-hidden />
          {t('account.verify.unverified')}
        </div>
        <CodeInput {...boxes} />
        <div aria-live="polite" className="min-h-6">
          {state === 'verifying' && (
            <span className="flex items-center gap-2 text-sm text-muted">
              <Spinner className="size-4" />
              {t('auth.verify.verifying')}
            </span>
          )}
          {notice && state !== 'verifying' && <FormMessage kind={notice.kind}>{notice.text}</FormMessage>}
        </div>
        <ResendCodeButton verification={verification} testId="account-resend-code" />
      </div>
    </Section>
  );
}
