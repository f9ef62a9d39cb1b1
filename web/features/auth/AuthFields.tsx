import { ArrowRight, type LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/Field.tsx';

/** The email field of the log-in and sign-up forms. */
export function EmailField(props: Omit<ComponentProps<typeof TextField>, 'label' | 'type'>) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.fields.email')}
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder="you@studio.com"
      {...props}
    />
  );
}

/** A form's full-width submit button with the forward arrow (hidden while it runs). */
export function AuthSubmitButton({
  pending,
  testId,
  children,
}: {
  pending: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" size="lg" className="w-full" loading={pending} data-testid={testId}>
      {children}
      {!pending && <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden />}
    </Button>
  );
}

/** A quiet way back or out (its arrow-like icon turns with the reading direction). */
export function LeaveButton({
  icon: Icon,
  onClick,
  disabled,
  children,
}: {
  icon: LucideIcon;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="inline-flex items-center gap-1.5 text-muted hover:text-fg"
    >
      <Icon className="size-4 rtl:-scale-x-100" aria-hidden />
      {children}
    </button>
  );
}
