import { zodResolver } from '@hookform/resolvers/zod';
import { ChevronDown, CircleCheck, Clock, LifeBuoy, Mail, Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { SUPPORT_EMAIL } from '../../../common/api/auth.constants.ts';
import { useSession } from '../../api/session.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass, TextAreaField, TextField } from '../../ui/Field.tsx';
import { PublicHeader } from '../../ui/PublicHeader.tsx';

const TOPICS = ['approval', 'account', 'billing', 'technical', 'other'] as const;

// Messages are i18n keys, translated when shown.
const contactSchema = z.object({
  name: z.string().trim().min(1, 'contact.errors.name').max(120),
  email: z.email('contact.errors.email'),
  topic: z.enum(TOPICS),
  message: z.string().trim().min(10, 'contact.errors.message').max(5000),
});
type ContactValues = z.infer<typeof contactSchema>;

function mailtoHref(values: ContactValues, topicLabel: string): string {
  const subject = `[GenPro Studio] ${topicLabel}`;
  const body = `${values.message}\n\n— ${values.name} <${values.email}>`;
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export default function ContactPage() {
  const { t } = useTranslation();
  const storedUser = useSession((s) => s.storedUser);
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(contactSchema),
    defaultValues: {
      name: storedUser ? `${storedUser.first_name} ${storedUser.last_name}`.trim() : '',
      email: storedUser?.email ?? '',
      topic: storedUser?.user_status === 'regular_user' ? 'approval' : 'account',
      message: '',
    } satisfies ContactValues,
  });

  useEffect(() => {
    document.title = `${t('contact.title')} · GenPro Studio`;
  }, [t]);

  const onSubmit = handleSubmit((values) => {
    const href = mailtoHref(values, t(`contact.topics.${values.topic}`));
    setSent(href);
    window.location.href = href;
  });

  const err = (message?: string) => (message ? t(message) : undefined);

  return (
    <div className="min-h-dvh">
      <PublicHeader />
      <main className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1fr_1.4fr] md:py-16">
        <div>
          <span className="grid size-11 place-items-center rounded-xl bg-accent-soft text-accent">
            <LifeBuoy className="size-5" aria-hidden />
          </span>
          <h1 className="mt-5 text-3xl font-semibold tracking-tight" data-testid="page-title">
            {t('contact.title')}
          </h1>
          <p className="mt-3 leading-relaxed text-muted">{t('contact.subtitle')}</p>
          <ul className="mt-8 space-y-4 text-sm">
            <li className="flex items-start gap-3">
              <Mail className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden />
              <div>
                <div className="font-medium">{t('contact.emailUs')}</div>
                <a
                  href={`mailto:${SUPPORT_EMAIL}`}
                  className="text-accent hover:underline"
                  dir="ltr"
                  data-testid="support-email"
                >
                  {SUPPORT_EMAIL}
                </a>
              </div>
            </li>
            <li className="flex items-start gap-3">
              <Clock className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden />
              <div>
                <div className="font-medium">{t('contact.responseTitle')}</div>
                <div className="text-muted">{t('contact.responseBody')}</div>
              </div>
            </li>
          </ul>
        </div>

        <div className="rounded-2xl border border-line bg-surface p-5 sm:p-7">
          {sent ? (
            <div className="py-6 text-center" role="status" data-testid="contact-success">
              <CircleCheck className="mx-auto size-10 text-success" aria-hidden />
              <h2 className="mt-4 text-lg font-semibold">{t('contact.sentTitle')}</h2>
              <p className="mx-auto mt-2 max-w-sm text-sm leading-relaxed text-muted">
                {t('contact.sentBody', { email: SUPPORT_EMAIL })}
              </p>
              <div className="mt-6 flex flex-col justify-center gap-2.5 sm:flex-row">
                <a href={sent} className={buttonClass('secondary')}>
                  <Mail className="size-4" aria-hidden />
                  {t('contact.openAgain')}
                </a>
                <Button
                  variant="ghost"
                  onClick={() => {
                    setSent(null);
                    reset();
                  }}
                >
                  {t('contact.another')}
                </Button>
              </div>
              <Link to="/dashboard" className="mt-6 inline-block text-sm text-accent hover:underline">
                {t('contact.backToDashboard')}
              </Link>
            </div>
          ) : (
            <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="contact-form">
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  id="contact-name"
                  label={t('contact.fields.name')}
                  autoComplete="name"
                  error={err(errors.name?.message)}
                  {...register('name')}
                />
                <TextField
                  id="contact-email"
                  label={t('auth.fields.email')}
                  type="email"
                  autoComplete="email"
                  error={err(errors.email?.message)}
                  {...register('email')}
                />
              </div>
              <div className="space-y-1.5">
                <label htmlFor="contact-topic" className="text-sm font-medium">
                  {t('contact.fields.topic')}
                </label>
                <div className="relative">
                  <select
                    id="contact-topic"
                    className={cn(inputClass, 'h-11 appearance-none pe-9')}
                    {...register('topic')}
                  >
                    {TOPICS.map((topic) => (
                      <option key={topic} value={topic}>
                        {t(`contact.topics.${topic}`)}
                      </option>
                    ))}
                  </select>
                  <ChevronDown
                    className="pointer-events-none absolute end-3 top-1/2 size-4 -translate-y-1/2 text-subtle"
                    aria-hidden
                  />
                </div>
              </div>
              <TextAreaField
                id="contact-message"
                label={t('contact.fields.message')}
                placeholder={t('contact.messagePlaceholder')}
                error={err(errors.message?.message)}
                {...register('message')}
              />
              <p className="text-xs leading-relaxed text-subtle">{t('contact.mailNote', { email: SUPPORT_EMAIL })}</p>
              <Button type="submit" size="lg" className="w-full" data-testid="contact-submit">
                <Send className="size-4 rtl:-scale-x-100" aria-hidden />
                {t('contact.submit')}
              </Button>
            </form>
          )}
        </div>
      </main>
    </div>
  );
}
