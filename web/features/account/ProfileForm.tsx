// A profile card's form and its state: the error on top, Save enabled once something changed, and the URL
// check its fields share.
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isHttpUrl } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Section } from '../../ui/Section.tsx';
import { serverMessage } from '../billing/errors.ts';
import { useDraft } from './forms.tsx';

const M = MESSAGES.account;

export function urlError(value: string): string | undefined {
  return value.trim() && !isHttpUrl(value.trim()) ? translateMessage(M.urlInvalid) : undefined;
}

/**
 * A profile form's draft (forms.tsx useDraft) with its form-level error, the text-field props of each
 * value, and what a save does: take the saved values and toast, or show the server's field errors.
 */
export function useProfileForm<T extends Record<string, string>, Saved>(initial: T, valuesOf: (saved: Saved) => T) {
  const form = useDraft(initial);
  const [formError, setFormError] = useState<string | null>(null);
  const field = (name: keyof T) => ({
    value: form.values[name] ?? '',
    onChange: (e: { target: { value: string } }) => form.set(name)(e.target.value),
    error: form.errors[name],
  });
  const saved = {
    onSuccess: (next: Saved) => {
      form.reset(valuesOf(next));
      toast.success(translateMessage(M.profileSaved));
    },
    onError: (err: unknown) => {
      if (!form.showServerErrors(err)) setFormError(serverMessage(err, MESSAGES.generic.internal));
    },
  };
  return { ...form, formError, setFormError, field, saved };
}

/** A profile card: the form with its error on top and Save (enabled once something changed) at the end. */
export function ProfileForm({
  title,
  description,
  testId,
  saveTestId,
  form,
  saving,
  onSubmit,
  children,
}: {
  title: string;
  description?: string;
  testId: string;
  saveTestId: string;
  form: { formError: string | null; setFormError: (error: string | null) => void; dirty: boolean };
  saving: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.setFormError(null);
    onSubmit();
  };
  return (
    <Section title={title} description={description} testId={testId}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {form.formError && <FormMessage>{form.formError}</FormMessage>}
        {children}
        <div className="flex justify-end">
          <Button type="submit" loading={saving} disabled={!form.dirty} data-testid={saveTestId}>
            {t('account.common.save')}
          </Button>
        </div>
      </form>
    </Section>
  );
}
