import { CircleCheck, LogOut, MailCheck } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { EMAIL_CODE } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useMe } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { translateMessage } from '../../i18n/index.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { CodeInput } from '../../ui/CodeInput.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ResendCodeButton, useEmailVerification } from '../../ui/useEmailVerification.tsx';
import { useSignOut } from '../../ui/useSignOut.ts';
import { LeaveButton } from './AuthFields.tsx';
import { AuthLayout } from './AuthLayout.tsx';

function verifyErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return translateMessage(MESSAGES.verification.network);
    if (error.status >= 500) return translateMessage(MESSAGES.verification.invalidCode);
    return translateMessage(error.message || MESSAGES.verification.invalidCode);
  }
  return translateMessage(MESSAGES.verification.network);
}

function resendErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return translateMessage(MESSAGES.verification.network);
    if (error.status === 429 || (error.status >= 400 && error.status < 500)) return translateMessage(error.message);
  }
  return translateMessage(MESSAGES.verification.sendFailed);
}

export default function VerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const token = useSession((s) => s.token);
  const storedUser = useSession((s) => s.storedUser);
  const me = useMe();
  const { signOut, pending: signingOut } = useSignOut();

  const routeState = location.state as { email?: string; codeSent?: boolean } | null;
  const email = routeState?.email || params.get('email') || me.data?.user.email || storedUser?.email || '';
  // Signed out with an email: a sign-up waiting for its code (the account is created when the code is given).
  const signUp = !token && Boolean(routeState?.email || params.get('email'));

  const verification = useEmailVerification({
    email,
    signUp,
    autoFocus: true,
    onVerified: () => navigate('/dashboard', { replace: true }),
    verifyError: verifyErrorMessage,
    resendError: resendErrorMessage,
  });
  const { state, notice, startCooldown, boxes } = verification;

  // A code was sent with the registration: the resend cooldown starts now.
  useEffect(() => {
    if (routeState?.codeSent) startCooldown(EMAIL_CODE.resendCooldownSeconds);
  }, [routeState?.codeSent, startCooldown]);

  useEffect(() => {
    document.title = `${t('auth.verify.title')} · GenPro Studio`;
  }, [t]);

  if (!token && !signUp && state !== 'success') {
    return (
      <AuthLayout title={t('auth.verify.title')} subtitle={t('auth.verify.loginFirst')}>
        <Link to="/auth/login" className={buttonClass('primary', 'lg', 'w-full')}>
          {t('auth.login.submit')}
        </Link>
      </AuthLayout>
    );
  }
  if (me.data?.user.is_verified && state === 'input') return <Navigate to="/dashboard" replace />;

  return (
    <AuthLayout
      title={t('auth.verify.title')}
      subtitle={
        email ? (
          <>
            {t('auth.verify.sentTo')}{' '}
            <span className="font-medium text-fg" dir="ltr" data-testid="verify-email">
              {email}
            </span>
          </>
        ) : (
          t('auth.verify.sentToYou')
        )
      }
      footer={
        signUp ? (
          <Link to="/auth/register" className="font-medium text-accent hover:underline">
            {t('auth.verify.differentEmail')}
          </Link>
        ) : (
          <LeaveButton icon={LogOut} onClick={signOut} disabled={signingOut}>
            {t('auth.verify.differentAccount')}
          </LeaveButton>
        )
      }
    >
      {signUp && state !== 'success' && (
        <div className="mb-4" data-testid="register-sent">
          <FormMessage kind="info">{translateMessage(MESSAGES.auth.registrationCodeSent)}</FormMessage>
        </div>
      )}
      <div
        className="rounded-2xl border border-line bg-surface p-5 sm:p-6"
        data-testid="verify-panel"
        data-state={state}
      >
        <div className="mb-5 flex items-center gap-3">
          <span className="grid size-10 place-items-center rounded-xl bg-accent-soft text-accent">
            {state === 'success' ? (
              <CircleCheck className="size-5" aria-hidden />
            ) : (
              <MailCheck className="size-5" aria-hidden />
            )}
          </span>
          <p className="text-sm text-muted">{t('auth.verify.instructions', { length: EMAIL_CODE.length })}</p>
        </div>

        <CodeInput {...boxes} />

        <div className="mt-4 min-h-6" aria-live="polite">
          {state === 'verifying' && (
            <div className="flex items-center gap-2 text-sm text-muted" data-testid="verify-status">
              <Spinner className="size-4" />
              {t('auth.verify.verifying')}
            </div>
          )}
          {state === 'success' && (
            <div className="flex items-center gap-2 text-sm text-success" data-testid="verify-status">
              <CircleCheck className="size-4" aria-hidden />
              {translateMessage(MESSAGES.verification.verified)}
            </div>
          )}
          {notice && state !== 'verifying' && state !== 'success' && (
            <FormMessage kind={notice.kind}>{notice.text}</FormMessage>
          )}
        </div>

        <div className="mt-5 flex flex-col items-stretch gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
          <span className="text-sm text-muted">{t('auth.verify.noCode')}</span>
          <ResendCodeButton verification={verification} testId="resend-button" />
        </div>
      </div>
    </AuthLayout>
  );
}
