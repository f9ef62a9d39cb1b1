import { Clapperboard, Megaphone, ScanFace, WandSparkles } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../ui/Logo.tsx';
import { SettingsControl } from '../../ui/SettingsControl.tsx';

const HIGHLIGHTS = [
  { id: 'studio', icon: WandSparkles },
  { id: 'personas', icon: ScanFace },
  { id: 'video', icon: Clapperboard },
  { id: 'campaigns', icon: Megaphone },
] as const;

/** Split layout for the auth pages: brand panel on large screens, the form card everywhere. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();

  useEffect(() => {
    document.title = `${title} · GenPro Studio`;
  }, [title]);

  return (
    <div className="flex min-h-dvh">
      <aside className="relative hidden w-[44%] max-w-xl shrink-0 overflow-hidden border-e border-line bg-surface lg:flex lg:flex-col">
        <div className="pointer-events-none absolute inset-0" aria-hidden>
          <div className="absolute -top-32 -start-24 size-[28rem] rounded-full bg-violet-600/25 blur-3xl" />
          <div className="absolute bottom-0 end-[-6rem] size-[22rem] rounded-full bg-cyan-500/15 blur-3xl" />
          <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(127_127_127/0.07)_1px,transparent_1px),linear-gradient(to_bottom,rgb(127_127_127/0.07)_1px,transparent_1px)] bg-[size:40px_40px] [mask-image:radial-gradient(ellipse_at_center,black_30%,transparent_75%)]" />
        </div>
        <div className="relative flex flex-1 flex-col p-10">
          <Logo />
          <div className="mt-auto">
            <h2 className="max-w-sm text-3xl font-semibold leading-tight tracking-tight">{t('auth.panel.title')}</h2>
            <p className="mt-3 max-w-sm text-sm leading-relaxed text-muted">{t('auth.panel.body')}</p>
            <ul className="mt-8 grid max-w-md grid-cols-2 gap-3">
              {HIGHLIGHTS.map(({ id, icon: Icon }) => (
                <li
                  key={id}
                  className="flex items-center gap-2.5 rounded-xl border border-line bg-surface-2/70 p-3 text-sm"
                >
                  <Icon className="size-4 shrink-0 text-accent" aria-hidden />
                  {t(`auth.panel.highlights.${id}`)}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-16 items-center justify-between gap-3 px-4 sm:px-6">
          <Logo className="lg:invisible" compactOnMobile />
          <SettingsControl />
        </header>
        <main className="flex flex-1 items-start justify-center px-4 pt-4 pb-12 sm:items-center sm:px-6">
          <div className="w-full max-w-[26rem]">
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            {subtitle && <div className="mt-1.5 text-sm text-muted">{subtitle}</div>}
            <div className="mt-7">{children}</div>
            {footer && <div className="mt-6 text-center text-sm text-muted">{footer}</div>}
          </div>
        </main>
      </div>
    </div>
  );
}
