import '../../i18n/en-features.ts';
import {
  ArrowRight,
  AudioLines,
  Building2,
  CalendarClock,
  Check,
  Clapperboard,
  Image,
  Layers,
  Megaphone,
  MessagesSquare,
  ScanFace,
  Sparkles,
  WandSparkles,
} from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TRIAL_DAYS, WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import { useSession } from '../../api/session.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { LogoMark } from '../../ui/Logo.tsx';
import { PublicHeader } from '../../ui/PublicHeader.tsx';
import { ChatPanel } from '../chat/ChatView.tsx';

const FEATURES = [
  { id: 'studio', icon: WandSparkles },
  { id: 'personas', icon: ScanFace },
  { id: 'video', icon: Clapperboard },
  { id: 'campaigns', icon: Megaphone },
  { id: 'publish', icon: CalendarClock },
  { id: 'chat', icon: MessagesSquare },
] as const;

const AUDIENCES = [
  { id: 'creators', icon: Sparkles, points: ['one', 'two', 'three'] },
  { id: 'brands', icon: Building2, points: ['one', 'two', 'three'] },
] as const;

/** A stylised studio window: tool rail, generated frames and a prompt bar. Decorative only. */
function StudioPreview() {
  const { t } = useTranslation();
  const frames = [
    'from-violet-500 via-fuchsia-500 to-orange-400',
    'from-cyan-400 via-sky-600 to-indigo-800',
    'from-amber-300 via-rose-500 to-purple-800',
    'from-emerald-400 via-teal-600 to-slate-900',
  ];
  return (
    <div className="relative" aria-hidden>
      <div className="absolute -inset-6 rounded-[2rem] bg-brand-gradient opacity-20 blur-3xl" />
      <div className="relative overflow-hidden rounded-2xl border border-line bg-surface shadow-2xl shadow-black/30">
        <div className="flex h-9 items-center gap-1.5 border-b border-line bg-surface-2 px-3">
          <span className="size-2.5 rounded-full bg-red-400/80" />
          <span className="size-2.5 rounded-full bg-amber-400/80" />
          <span className="size-2.5 rounded-full bg-emerald-400/80" />
          <span className="ms-3 truncate text-xs text-subtle">{t('home.preview.file')}</span>
        </div>
        <div className="flex">
          <div className="hidden flex-col gap-2 border-e border-line p-2 sm:flex">
            {[Image, Clapperboard, AudioLines, ScanFace, Layers].map((Icon, i) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: static decoration
                key={i}
                className={`grid size-8 place-items-center rounded-lg ${i === 0 ? 'bg-accent-soft text-accent' : 'text-subtle'}`}
              >
                <Icon className="size-4" />
              </span>
            ))}
          </div>
          <div className="min-w-0 flex-1 p-3 sm:p-4">
            <div className="grid grid-cols-2 gap-2.5 sm:gap-3">
              {frames.map((gradient, i) => (
                <div
                  key={gradient}
                  className={`relative aspect-[4/3] overflow-hidden rounded-xl bg-gradient-to-br ${gradient}`}
                >
                  <div className="absolute inset-x-0 bottom-0 h-1/2 bg-gradient-to-t from-black/50 to-transparent" />
                  <div className="absolute bottom-0 left-1/2 h-[38%] w-[34%] -translate-x-1/2 rounded-t-[45%] bg-black/35" />
                  <div className="absolute bottom-[40%] left-1/2 aspect-square w-[17%] -translate-x-1/2 rounded-full bg-black/35" />
                  {i === 0 && (
                    <span className="absolute start-2 top-2 rounded-md bg-black/45 px-1.5 py-0.5 text-xs font-medium text-white">
                      4K
                    </span>
                  )}
                </div>
              ))}
            </div>
            <div className="mt-3 flex items-center gap-2 rounded-xl border border-line bg-surface-2 p-1.5 ps-3">
              <Sparkles className="size-4 shrink-0 text-accent" />
              <span className="flex-1 truncate text-xs text-muted">{t('home.preview.prompt')}</span>
              <span className="rounded-lg bg-accent px-2.5 py-1.5 text-xs font-medium text-accent-fg">
                {t('home.preview.generate')}
              </span>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

/** The chat assistant, open to everyone: the chat call answers visitors who are not signed in from the help pages. */
function AssistantSection() {
  const { t } = useTranslation();
  return (
    <section
      id="assistant"
      className="border-t border-line"
      aria-labelledby="assistant-title"
      data-testid="home-assistant"
    >
      <div className="mx-auto grid max-w-6xl items-start gap-8 px-4 py-16 sm:px-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)] lg:gap-12 lg:py-24">
        <div className="min-w-0">
          <span className="grid size-10 place-items-center rounded-xl bg-accent-soft text-accent">
            <MessagesSquare className="size-5" aria-hidden />
          </span>
          <h2 id="assistant-title" className="mt-4 text-2xl font-semibold tracking-tight sm:text-3xl">
            {t('chat.public.title')}
          </h2>
          <p className="mt-3 max-w-md leading-relaxed text-muted">{t('chat.public.body')}</p>
        </div>
        <ChatPanel testId="home-chat" className="h-[34rem] max-h-[85dvh]" />
      </div>
    </section>
  );
}

export default function HomePage() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);

  useEffect(() => {
    document.title = `GenPro Studio · ${t('home.tagline')}`;
  }, [t]);

  return (
    <div className="min-h-dvh overflow-x-hidden">
      <PublicHeader />

      <main>
        <section className="relative">
          <div className="pointer-events-none absolute inset-0 -z-10 overflow-hidden" aria-hidden>
            <div className="absolute -top-40 start-1/2 size-[40rem] -translate-x-1/2 rounded-full bg-violet-600/20 blur-3xl rtl:translate-x-1/2" />
            <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(127_127_127/0.06)_1px,transparent_1px),linear-gradient(to_bottom,rgb(127_127_127/0.06)_1px,transparent_1px)] bg-[size:48px_48px] [mask-image:radial-gradient(ellipse_at_top,black_20%,transparent_70%)]" />
          </div>
          <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 pt-14 pb-16 sm:px-6 md:pt-20 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:pb-24">
            <div className="min-w-0">
              <span className="inline-flex items-center gap-2 rounded-full border border-line bg-surface/70 px-3 py-1 text-xs font-medium text-muted">
                <span className="size-1.5 rounded-full bg-emerald-400" />
                {t('home.badge')}
              </span>
              <h1 className="mt-5 text-4xl font-semibold leading-[1.08] tracking-tight sm:text-5xl lg:text-[3.5rem]">
                {t('home.title.before')} <span className="text-brand-gradient">{t('home.title.highlight')}</span>
              </h1>
              <p className="mt-5 max-w-xl text-base leading-relaxed text-muted sm:text-lg">{t('home.subtitle')}</p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                {token ? (
                  <Link to="/dashboard" className={buttonClass('primary', 'lg')} data-testid="home-cta-dashboard">
                    {t('home.openDashboard')}
                    <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden />
                  </Link>
                ) : (
                  <>
                    <Link to="/auth/register" className={buttonClass('primary', 'lg')} data-testid="home-cta-register">
                      {t('home.ctaPrimary')}
                      <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden />
                    </Link>
                    <Link to="/auth/login" className={buttonClass('secondary', 'lg')} data-testid="home-cta-login">
                      {t('auth.login.submit')}
                    </Link>
                  </>
                )}
              </div>
              <p className="mt-4 text-xs text-subtle">
                {t('home.trial', { days: TRIAL_DAYS, credits: WELCOME_CREDITS })}
              </p>
            </div>
            <StudioPreview />
          </div>
        </section>

        <section className="border-t border-line bg-surface/40" aria-labelledby="features-title">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-24">
            <h2 id="features-title" className="max-w-2xl text-2xl font-semibold tracking-tight sm:text-3xl">
              {t('home.features.title')}
            </h2>
            <p className="mt-3 max-w-2xl text-muted">{t('home.features.subtitle')}</p>
            <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map(({ id, icon: Icon }) => (
                <li
                  key={id}
                  className="group rounded-2xl border border-line bg-surface p-5 transition-colors hover:border-line-strong"
                >
                  <span className="grid size-10 place-items-center rounded-xl bg-accent-soft text-accent transition-transform group-hover:scale-105">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <h3 className="mt-4 font-semibold">{t(`home.features.items.${id}.title`)}</h3>
                  <p className="mt-1.5 text-sm leading-relaxed text-muted">{t(`home.features.items.${id}.body`)}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <AssistantSection />

        <section className="border-t border-line" aria-labelledby="audiences-title">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-24">
            <h2 id="audiences-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
              {t('home.audiences.title')}
            </h2>
            <div className="mt-10 grid gap-4 md:grid-cols-2">
              {AUDIENCES.map(({ id, icon: Icon, points }) => (
                <div key={id} className="rounded-2xl border border-line bg-surface p-6 sm:p-8">
                  <div className="flex items-center gap-3">
                    <span className="grid size-10 place-items-center rounded-xl bg-brand-gradient text-white">
                      <Icon className="size-5" aria-hidden />
                    </span>
                    <h3 className="text-lg font-semibold">{t(`home.audiences.${id}.title`)}</h3>
                  </div>
                  <ul className="mt-5 space-y-3">
                    {points.map((point) => (
                      <li key={point} className="flex gap-3 text-sm text-muted">
                        <Check className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden />
                        {t(`home.audiences.${id}.${point}`)}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          </div>
        </section>

        <section className="border-t border-line">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
            <div className="relative overflow-hidden rounded-3xl border border-line bg-surface px-6 py-12 text-center sm:px-12">
              <div className="pointer-events-none absolute inset-0 bg-brand-gradient opacity-[0.12]" aria-hidden />
              <h2 className="relative text-2xl font-semibold tracking-tight sm:text-3xl">{t('home.final.title')}</h2>
              <p className="relative mx-auto mt-3 max-w-xl text-muted">{t('home.final.body')}</p>
              <Link
                to={token ? '/dashboard' : '/auth/register'}
                className={buttonClass('primary', 'lg', 'relative mt-8')}
              >
                {token ? t('home.openDashboard') : t('home.ctaPrimary')}
                <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden />
              </Link>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-line">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-subtle sm:flex-row sm:px-6">
          <div className="flex items-center gap-2">
            <LogoMark className="size-6" />
            <span>© {new Date().getFullYear()} GenPro Studio</span>
          </div>
          <nav className="flex gap-5" aria-label={t('home.footerNav')}>
            <Link to="/contact" className="hover:text-fg">
              {t('nav.contactSupport')}
            </Link>
            <Link to="/auth/login" className="hover:text-fg">
              {t('auth.login.submit')}
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
