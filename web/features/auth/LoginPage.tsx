import '../../i18n/en-features.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, MailCheck, ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { TWO_FACTOR } from '../../../common/api/account.constants.ts';
import type { User } from '../../../common/api/auth.ts';
import { loginBody } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CodeInput, useCodeEntry } from '../../ui/CodeInput.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { usePasswordLogin, useTwoFactorLogin } from '../account/api.ts';
import { AuthSubmitButton, EmailField, LeaveButton } from './AuthFields.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { authErrorMessage, fieldError } from './errors.ts';

/**
 * The second step when two-factor is on: a 6-digit code from the app, or one recovery code. Or, `byEmail`,
 * after many failed log-ins of the account: the 6-digit code just mailed to it.
 */
function TwoFactorStep({
  challengeToken,
  byEmail,
  onDone,
  onRestart,
}: {
  challengeToken: string;
  byEmail: boolean;
  onDone: (user: User) => void;
  onRestart: (message?: string) => void;
}) {
  const { t } = useTranslation();
  const login = useTwoFactorLogin();
  const [useRecovery, setUseRecovery] = useState(false);
  const [recovery, setRecovery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const entry = useCodeEntry({
    length: TWO_FACTOR.digits,
    onComplete: (code) => send(code),
    onEdit: () => setError(null),
  });

  const send = (code: string) => {
    if (login.isPending) return;
    setError(null);
    login.mutate(
      { challengeToken, code },
      {
        onSuccess: (reply) => onDone(reply.data.user),
        onError: (err) => {
          const message = err instanceof ApiError ? err.message : '';
          // An expired or exhausted challenge cannot be retried: start again from the password.
          if (message === MESSAGES.account.challengeExpired || message === MESSAGES.account.challengeTooManyTries)
            return onRestart(translateMessage(message));
          entry.retry();
          setError(authErrorMessage(err));
        },
      },
    );
  };

  const submitRecovery = (event: FormEvent) => {
    event.preventDefault();
    if (recovery.trim().length < TWO_FACTOR.digits)
      return setError(translateMessage(MESSAGES.account.twoFactorCodeFormat));
    send(recovery.trim());
  };

  return (
    <div className="space-y-5" data-testid={byEmail ? 'login-email-code' : 'login-two-factor'}>
      <div className="flex items-start gap-3 rounded-xl border border-line bg-surface p-4">
        <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent">
          {byEmail ? <MailCheck className="size-5" aria-hidden /> : <ShieldCheck className="size-5" aria-hidden />}
        </span>
        <p className="text-sm text-muted" role={byEmail ? 'status' : undefined}>
          {byEmail
            ? translateMessage(MESSAGES.auth.loginCodeMailed)
            : useRecovery
              ? t('account.login2fa.recoveryIntro')
              : t('account.login2fa.intro')}
        </p>
      </div>
      {error && <FormMessage>{error}</FormMessage>}
      {useRecovery ? (
        <form onSubmit={submitRecovery} noValidate className="space-y-4">
          <TextField
            id="login-recovery-code"
            label={t('account.login2fa.recoveryLabel')}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            className="font-mono"
            value={recovery}
            maxLength={32}
            onChange={(e) => setRecovery(e.target.value)}
          />
          <Button
            type="submit"
            size="lg"
            className="w-full"
            loading={login.isPending}
            data-testid="login-two-factor-submit"
          >
            {t('account.login2fa.verify')}
          </Button>
        </form>
      ) : (
        <div className="space-y-4">
          <CodeInput {...entry.input} disabled={login.isPending} invalid={error !== null} />
          <Button
            size="lg"
            className="w-full"
            loading={login.isPending}
            disabled={!entry.complete}
            onClick={() => send(entry.code)}
            data-testid="login-two-factor-submit"
          >
            {t('account.login2fa.verify')}
          </Button>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <LeaveButton icon={ArrowLeft} onClick={() => onRestart()}>
          {t('account.login2fa.back')}
        </LeaveButton>
        {!byEmail && (
          <button
            type="button"
            data-testid="login-use-recovery"
            onClick={() => {
              setUseRecovery((v) => !v);
              setError(null);
            }}
            className="font-medium text-accent hover:underline"
          >
            {useRecovery ? t('account.login2fa.useApp') : t('account.login2fa.useRecovery')}
          </button>
        )}
      </div>
    </div>
  );
}

/** Only same-app dashboard paths are followed after log-in. */
function safeReturnPath(from: unknown): string {
  return typeof from === 'string' && from.startsWith('/dashboard') ? from : '/dashboard';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const login = usePasswordLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<{ token: string; byEmail: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(loginBody), defaultValues: { email: '', password: '' } });

  const enter = (user: User) => {
    if (!user.is_verified) navigate('/auth/verify', { replace: true, state: { email: user.email } });
    else navigate(safeReturnPath((location.state as { from?: unknown } | null)?.from), { replace: true });
  };

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    login.mutate(values, {
      onSuccess: (reply) => {
        if ('data' in reply) enter(reply.data.user);
        else setChallenge({ token: reply.challengeToken, byEmail: 'requiresEmailCode' in reply });
      },
      onError: (error) => setFormError(authErrorMessage(error)),
    });
  });

  return (
    <AuthLayout
      title={
        challenge
          ? t(challenge.byEmail ? 'auth.login.emailCodeTitle' : 'account.login2fa.title')
          : t('auth.login.title')
      }
      subtitle={
        challenge
          ? t(challenge.byEmail ? 'auth.login.emailCodeSubtitle' : 'account.login2fa.subtitle')
          : t('auth.login.subtitle')
      }
      footer={
        <>
          {t('auth.login.noAccount')}{' '}
          <Link to="/auth/register" className="font-medium text-accent hover:underline">
            {t('auth.register.cta')}
          </Link>
        </>
      }
    >
      {challenge ? (
        <TwoFactorStep
          challengeToken={challenge.token}
          byEmail={challenge.byEmail}
          onDone={enter}
          onRestart={(message) => {
            setChallenge(null);
            setFormError(message ?? null);
          }}
        />
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="login-form">
          {formError && <FormMessage>{formError}</FormMessage>}
          <EmailField id="login-email" error={fieldError(errors.email?.message)} {...register('email')} />
          <PasswordField
            id="login-password"
            label={t('auth.fields.password')}
            autoComplete="current-password"
            error={fieldError(errors.password?.message)}
            {...register('password')}
          />
          <p className="text-end text-sm">
            <Link
              to="/auth/forgot-password"
              className="font-medium text-accent hover:underline"
              data-testid="login-forgot"
            >
              {t('auth.login.forgot')}
            </Link>
          </p>
          <AuthSubmitButton pending={login.isPending} testId="login-submit">
            {t('auth.login.submit')}
          </AuthSubmitButton>
        </form>
      )}
    </AuthLayout>
  );
}
