import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { loginBody } from '../../../common/api/auth.ts';
import { useLogin } from '../../api/auth.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { authErrorMessage } from './errors.ts';
import { PasswordField } from './PasswordField.tsx';

/** Only same-app dashboard paths are followed after log-in. */
function safeReturnPath(from: unknown): string {
  return typeof from === 'string' && from.startsWith('/dashboard') ? from : '/dashboard';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const login = useLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(loginBody), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    login.mutate(values, {
      onSuccess: ({ data: { user } }) => {
        if (!user.is_verified) navigate('/auth/verify', { replace: true, state: { email: user.email } });
        else navigate(safeReturnPath((location.state as { from?: unknown } | null)?.from), { replace: true });
      },
      onError: (error) => setFormError(authErrorMessage(error)),
    });
  });

  const fieldError = (message?: string) => (message ? translateMessage(message) : undefined);

  return (
    <AuthLayout
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          {t('auth.login.noAccount')}{' '}
          <Link to="/auth/register" className="font-medium text-accent hover:underline">
            {t('auth.register.cta')}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="login-form">
        {formError && <FormMessage>{formError}</FormMessage>}
        <TextField
          id="login-email"
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@studio.com"
          error={fieldError(errors.email?.message)}
          {...register('email')}
        />
        <PasswordField
          id="login-password"
          label={t('auth.fields.password')}
          autoComplete="current-password"
          error={fieldError(errors.password?.message)}
          {...register('password')}
        />
        <Button type="submit" size="lg" className="w-full" loading={login.isPending} data-testid="login-submit">
          {t('auth.login.submit')}
          {!login.isPending && <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden />}
        </Button>
      </form>
    </AuthLayout>
  );
}
