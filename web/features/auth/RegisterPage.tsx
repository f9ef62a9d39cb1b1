import { zodResolver } from '@hookform/resolvers/zod';
import { Building2, Check, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  PASSWORD_MIN_LENGTH,
  SELF_SERVICE_ROLES,
  TRIAL_DAYS,
  WELCOME_CREDITS,
} from '../../../common/api/auth.constants.ts';
import { type RegisterBody, registerBody } from '../../../common/api/auth.ts';
import { useRegister } from '../../api/auth.ts';
import { fieldErrorsOf } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { cn } from '../../ui/cn.ts';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { AuthSubmitButton, EmailField } from './AuthFields.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { authErrorMessage, fieldError } from './errors.ts';

const ROLE_ICONS = { creator: Sparkles, brand: Building2 } as const;
const FIELDS = ['first_name', 'last_name', 'email', 'password', 'role'] as const;

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const registration = useRegister();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(registerBody),
    defaultValues: { first_name: '', last_name: '', email: '', password: '', role: 'creator' as RegisterBody['role'] },
  });
  const role = watch('role');

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    registration.mutate(values, {
      // The same answer for a new and a taken email: the verification page says a code was mailed.
      onSuccess: (reply) => {
        navigate(`/auth/verify?email=${encodeURIComponent(reply.email)}`, {
          replace: true,
          state: { email: reply.email, codeSent: true },
        });
      },
      onError: (error) => {
        setFormError(authErrorMessage(error));
        for (const [field, message] of Object.entries(fieldErrorsOf(error))) {
          if ((FIELDS as readonly string[]).includes(field)) {
            setError(field as (typeof FIELDS)[number], { message });
          }
        }
      },
    });
  });

  return (
    <AuthLayout
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <>
          {t('auth.register.haveAccount')}{' '}
          <Link to="/auth/login" className="font-medium text-accent hover:underline">
            {t('auth.login.submit')}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="register-form">
        {formError && <FormMessage>{formError}</FormMessage>}

        <fieldset>
          <legend className="mb-2 text-sm font-medium">{t('auth.register.roleLegend')}</legend>
          <div className="grid grid-cols-2 gap-3" role="radiogroup" aria-invalid={errors.role ? true : undefined}>
            {SELF_SERVICE_ROLES.map((value) => {
              const Icon = ROLE_ICONS[value];
              const selected = role === value;
              return (
                <label
                  key={value}
                  data-testid={`role-${value}`}
                  className={cn(
                    'relative flex cursor-pointer flex-col gap-2 rounded-xl border p-3.5 transition-colors',
                    'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent',
                    selected ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2 hover:border-line-strong',
                  )}
                >
                  <input type="radio" value={value} className="sr-only" {...register('role')} />
                  <span className="flex items-center justify-between">
                    <span
                      className={cn(
                        'grid size-8 place-items-center rounded-lg',
                        selected ? 'bg-accent text-accent-fg' : 'bg-surface-3 text-muted',
                      )}
                    >
                      <Icon className="size-4" aria-hidden />
                    </span>
                    <span
                      className={cn(
                        'grid size-5 place-items-center rounded-full border',
                        selected ? 'border-accent bg-accent text-accent-fg' : 'border-line-strong',
                      )}
                      aria-hidden
                    >
                      {selected && <Check className="size-3" strokeWidth={3} />}
                    </span>
                  </span>
                  <span className="text-sm font-semibold">{t(`auth.register.roles.${value}.title`)}</span>
                  <span className="text-xs leading-snug text-muted">{t(`auth.register.roles.${value}.body`)}</span>
                </label>
              );
            })}
          </div>
          {errors.role?.message && (
            <p className="mt-1.5 text-xs text-danger" role="alert">
              {translateMessage(errors.role.message)}
            </p>
          )}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="register-first-name"
            label={t('auth.fields.firstName')}
            autoComplete="given-name"
            error={fieldError(errors.first_name?.message)}
            {...register('first_name')}
          />
          <TextField
            id="register-last-name"
            label={t('auth.fields.lastName')}
            autoComplete="family-name"
            error={fieldError(errors.last_name?.message)}
            {...register('last_name')}
          />
        </div>
        <EmailField id="register-email" error={fieldError(errors.email?.message)} {...register('email')} />
        <PasswordField
          id="register-password"
          label={t('auth.fields.password')}
          autoComplete="new-password"
          hint={t('auth.register.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          error={fieldError(errors.password?.message)}
          {...register('password')}
        />
        <AuthSubmitButton pending={registration.isPending} testId="register-submit">
          {t('auth.register.submit')}
        </AuthSubmitButton>
        <p className="text-center text-xs leading-relaxed text-subtle">
          {t('auth.register.trialNote', { days: TRIAL_DAYS, credits: WELCOME_CREDITS })}
        </p>
      </form>
    </AuthLayout>
  );
}
