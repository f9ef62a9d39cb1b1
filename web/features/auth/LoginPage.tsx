import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
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
import { CodeInput, type CodeInputHandle } from '../../ui/CodeInput.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { usePasswordLogin, useTwoFactorLogin } from '../account/api.ts';
import { AuthSubmitButton, EmailField, LeaveButton } from './AuthFields.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { authErrorMessage, fieldError } from './errors.ts';

const emptyDigits = () => Array.from({ length: TWO_FACTOR.digits }, () => '');

/** The second step when two-factor is on: a 6-digit code from the app, or one recovery code. */
function TwoFactorStep({
  challengeToken,
  onDone,
  onRestart,
}: {
  challengeToken: string;
  onDone: (user: User) => void;
  onRestart: (message?: string) => void;
}) {
  const { t } = useTranslation();
  const login = useTwoFactorLogin();
  const [useRecovery, setUseRecovery] = useState(false);
  const [digits, setDigits] = useState(emptyDigits);
  const [recovery, setRecovery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const boxes = useRef<CodeInputHandle>(null);

  // Focus the first box on arrival and again after a wrong code (the boxes are cleared).
  useEffect(() => {
    if (!useRecovery && (error || !login.isPending)) boxes.current?.focusFirst();
  }, [useRecovery, error, login.isPending]);

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
          setDigits(emptyDigits());
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
    <div className="space-y-5" data-testid="login-two-factor">
      <div className="flex items-start gap-3 rounded-xl border border-line bg-surface p-4">
        <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent">
          <ShieldCheck className="size-5" aria-hidden />
        </span>
        <p className="text-sm text-muted">
          {useRecovery ? t('account.login2fa.recoveryIntro') : t('account.login2fa.intro')}
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
          <CodeInput
            ref={boxes}
            length={TWO_FACTOR.digits}
            digits={digits}
            onChange={(next) => {
              setDigits(next);
              setError(null);
            }}
            onComplete={send}
            disabled={login.isPending}
            invalid={error !== null}
          />
          <Button
            size="lg"
            className="w-full"
            loading={login.isPending}
            disabled={digits.some((d) => d === '')}
            onClick={() => send(digits.join(''))}
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
  const [challenge, setChallenge] = useState<string | null>(null);
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
        if ('requiresTwoFactor' in reply) setChallenge(reply.challengeToken);
        else enter(reply.data.user);
      },
      onError: (error) => setFormError(authErrorMessage(error)),
    });
  });

  return (
    <AuthLayout
      title={challenge ? t('account.login2fa.title') : t('auth.login.title')}
      subtitle={challenge ? t('account.login2fa.subtitle') : t('auth.login.subtitle')}
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
          challengeToken={challenge}
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
          <AuthSubmitButton pending={login.isPending} testId="login-submit">
            {t('auth.login.submit')}
          </AuthSubmitButton>
        </form>
      )}
    </AuthLayout>
  );
}
