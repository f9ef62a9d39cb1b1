import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, CircleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_MIN_LENGTH, PASSWORD_RESET } from '../../../common/api/auth.constants.ts';
import { passwordResetConfirmBody, passwordResetRequestBody } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useConfirmPasswordReset, useRequestPasswordReset } from '../../api/auth.ts';
import { ApiError, fieldErrorsOf } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { CodeInput, useCodeEntry } from '../../ui/CodeInput.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { usePasswordLogin } from '../account/api.ts';
import { AuthSubmitButton, EmailField, LeaveButton } from './AuthFields.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { authErrorMessage, fieldError } from './errors.ts';

const confirmFields = passwordResetConfirmBody.pick({ code: true, newPassword: true });

/** Step 1: the email to send the code to. The answer is the same whether or not it has an account. */
function RequestStep({ onSent }: { onSent: (email: string) => void }) {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(passwordResetRequestBody), defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    request.mutate(values, {
      onSuccess: () => onSent(values.email),
      onError: (error) => setFormError(authErrorMessage(error)),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="forgot-request-form">
      {formError && <FormMessage>{formError}</FormMessage>}
      <p className="text-sm text-muted">{t('auth.forgot.requestIntro')}</p>
      <EmailField id="forgot-email" autoFocus error={fieldError(errors.email?.message)} {...register('email')} />
      <AuthSubmitButton pending={request.isPending} testId="forgot-request-submit">
        {t('auth.forgot.send')}
      </AuthSubmitButton>
    </form>
  );
}

/** Step 2: the mailed code and the new password; then the new password signs in. */
function ConfirmStep({ email, onRestart }: { email: string; onRestart: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirmPasswordReset();
  const resend = useRequestPasswordReset();
  const login = usePasswordLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string>(translateMessage(MESSAGES.passwordReset.requested));
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    getValues,
    setFocus,
    formState: { errors },
  } = useForm({ resolver: zodResolver(confirmFields), defaultValues: { code: '', newPassword: '' } });
  // The code is typed in the shared boxes; the form reads it from here when it is sent.
  const entry = useCodeEntry({
    length: PASSWORD_RESET.codeLength,
    onComplete: () => {
      if (!getValues('newPassword')) setFocus('newPassword');
    },
    onEdit: () => clearErrors('code'),
  });
  const codeError = fieldError(errors.code?.message);

  const signIn = (password: string) =>
    login.mutate(
      { email, password },
      {
        onSuccess: (reply) => {
          if ('data' in reply) {
            const user = reply.data.user;
            if (!user.is_verified) navigate('/auth/verify', { replace: true, state: { email: user.email } });
            else navigate('/dashboard', { replace: true });
          } else setDone(true); // A second step is owed (two-factor): the log-in page asks for it.
        },
        onError: () => setDone(true),
      },
    );

  const validateAndSend = handleSubmit((values) => {
    setFormError(null);
    confirm.mutate(
      { email, ...values },
      {
        onSuccess: () => {
          setNotice(translateMessage(MESSAGES.passwordReset.done));
          signIn(values.newPassword);
        },
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          if (fields.newPassword) setError('newPassword', { message: translateMessage(fields.newPassword) });
          if (fields.code) setError('code', { message: translateMessage(fields.code) });
          const message = error instanceof ApiError ? error.message : '';
          if (message === MESSAGES.passwordReset.invalidCode) {
            entry.retry();
            setError('code', { message: translateMessage(message) });
          }
          setFormError(authErrorMessage(error));
        },
      },
    );
  });
  const onSubmit = (event: FormEvent) => {
    setValue('code', entry.code);
    return validateAndSend(event);
  };

  const sendAgain = () => {
    setFormError(null);
    resend.mutate(
      { email },
      {
        onSuccess: () => setNotice(translateMessage(MESSAGES.passwordReset.requested)),
        onError: (error) => setFormError(authErrorMessage(error)),
      },
    );
  };

  if (done) {
    return (
      <div className="space-y-4" data-testid="forgot-done">
        <FormMessage kind="success">{translateMessage(MESSAGES.passwordReset.done)}</FormMessage>
        <Link to="/auth/login" className="font-medium text-accent hover:underline">
          {t('auth.login.submit')}
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="forgot-confirm-form">
      <FormMessage kind="info">
        {notice}{' '}
        <span className="font-medium" dir="ltr">
          {email}
        </span>
      </FormMessage>
      {formError && <FormMessage>{formError}</FormMessage>}
      <div className="space-y-1.5" data-testid="forgot-code">
        <div className="text-sm font-medium text-fg" aria-hidden>
          {t('auth.forgot.codeLabel')}
        </div>
        <CodeInput
          {...entry.input}
          label={t('auth.forgot.codeLabel')}
          describedBy={codeError ? 'forgot-code-error' : 'forgot-code-hint'}
          disabled={confirm.isPending || login.isPending}
          invalid={Boolean(codeError)}
        />
        {codeError ? (
          <p id="forgot-code-error" className="flex items-center gap-1.5 text-xs text-danger">
            <CircleAlert className="size-3.5 shrink-0" aria-hidden />
            {codeError}
          </p>
        ) : (
          <p id="forgot-code-hint" className="text-xs text-subtle">
            {t('auth.forgot.codeHint', { minutes: Math.round(PASSWORD_RESET.expiresInSeconds / 60) })}
          </p>
        )}
      </div>
      <PasswordField
        id="forgot-new-password"
        label={t('auth.forgot.newPassword')}
        autoComplete="new-password"
        hint={t('auth.register.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        error={fieldError(errors.newPassword?.message)}
        {...register('newPassword')}
      />
      <AuthSubmitButton pending={confirm.isPending || login.isPending} testId="forgot-confirm-submit">
        {t('auth.forgot.reset')}
      </AuthSubmitButton>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <LeaveButton icon={ArrowLeft} onClick={onRestart}>
          {t('auth.forgot.differentEmail')}
        </LeaveButton>
        <button
          type="button"
          onClick={sendAgain}
          disabled={resend.isPending}
          className="font-medium text-accent hover:underline disabled:opacity-60"
          data-testid="forgot-resend"
        >
          {t('auth.forgot.resend')}
        </button>
      </div>
    </form>
  );
}

/** /auth/forgot-password: a code mailed to the address, then the code and a new password. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState<string | null>(null);
  return (
    <AuthLayout
      title={t('auth.forgot.title')}
      subtitle={email ? t('auth.forgot.confirmSubtitle') : t('auth.forgot.subtitle')}
      footer={
        <>
          {t('auth.forgot.remembered')}{' '}
          <Link to="/auth/login" className="font-medium text-accent hover:underline">
            {t('auth.login.submit')}
          </Link>
        </>
      }
    >
      {email ? <ConfirmStep email={email} onRestart={() => setEmail(null)} /> : <RequestStep onSent={setEmail} />}
    </AuthLayout>
  );
}
