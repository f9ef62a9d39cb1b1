// The dashboard's top bar (breadcrumb, then the settings on desktop or the credit balance on phones) and the open
// view's heading (its icon, title and description).
import { useTranslation } from 'react-i18next';
import type { DashboardView } from '../../../common/api/app.constants.ts';
import { LogoMark } from '../../ui/Logo.tsx';
import { SettingsControl } from '../../ui/SettingsControl.tsx';
import { CreditBalance } from './CreditBalance.tsx';
import { VIEW_ICONS } from './viewMeta.ts';

export function DashboardHeader({
  title,
  isDesktop,
  credits,
  onOpenBilling,
}: {
  title: string;
  isDesktop: boolean;
  credits: number;
  onOpenBilling: () => void;
}) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-3 border-b border-line bg-bg/85 px-4 backdrop-blur-md md:px-8">
      {!isDesktop && <LogoMark className="size-7" />}
      <nav aria-label={t('nav.breadcrumb')} className="flex min-w-0 items-center gap-2 text-sm">
        <span className="hidden text-subtle sm:inline">{t('nav.dashboard')}</span>
        <span className="hidden text-line-strong sm:inline" aria-hidden>
          /
        </span>
        <span className="truncate font-medium">{title}</span>
      </nav>
      <div className="ms-auto flex items-center gap-2">
        {isDesktop ? <SettingsControl /> : <CreditBalance credits={credits} variant="pill" onClick={onOpenBilling} />}
      </div>
    </header>
  );
}

export function ViewHeading({ view, title }: { view: DashboardView; title: string }) {
  const { t } = useTranslation();
  const Icon = VIEW_ICONS[view];
  return (
    <div className="flex items-start gap-4">
      <span className="grid size-11 shrink-0 place-items-center rounded-xl border border-line bg-surface text-accent">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="min-w-0">
        <h1 data-testid="view-title" className="text-xl font-semibold tracking-tight md:text-2xl">
          {title}
        </h1>
        <p data-testid="view-description" className="mt-1 text-sm text-muted">
          {t(`views.${view}.description`)}
        </p>
      </div>
    </div>
  );
}
