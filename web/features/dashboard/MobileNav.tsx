import { ChevronRight, Ellipsis, LifeBuoy, LogOut, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DashboardView } from '../../../common/api/app.constants.ts';
import type { User } from '../../../common/api/auth.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { LanguageSelect, ThemeSelect } from '../../ui/SettingsControl.tsx';
import { UserAvatar } from '../../ui/UserAvatar.tsx';
import { CreditBalance } from './CreditBalance.tsx';
import { VIEW_ICONS, viewHref } from './viewMeta.ts';

interface MobileNavProps {
  user: User;
  credits: number;
  tabs: readonly DashboardView[];
  menuViews: readonly DashboardView[];
  active: DashboardView;
  menuOpen: boolean;
  onMenuOpenChange: (open: boolean) => void;
  onSignOut: () => void;
  signingOut: boolean;
  onOpenAccount: (tab: 'profile' | 'billing') => void;
}

/** Mobile (< 768 px): bottom tab bar plus a full-screen "More" menu. */
export function MobileNav({
  user,
  credits,
  tabs,
  menuViews,
  active,
  menuOpen,
  onMenuOpenChange,
  onSignOut,
  signingOut,
  onOpenAccount,
}: MobileNavProps) {
  const { t } = useTranslation();
  const moreActive = menuViews.includes(active);
  const fullName = `${user.first_name} ${user.last_name}`.trim();
  const close = () => onMenuOpenChange(false);

  const profileCard = (
    <>
      <UserAvatar user={user} className="size-11 text-sm" />
      <span className="min-w-0 flex-1 leading-tight">
        <span className="block truncate font-medium">{fullName}</span>
        <span className="block truncate text-xs text-subtle">{user.email}</span>
      </span>
      <ChevronRight className="size-4 text-subtle rtl:-scale-x-100" aria-hidden />
    </>
  );

  return (
    <Dialog.Root open={menuOpen} onOpenChange={onMenuOpenChange}>
      <nav
        data-testid="mobile-tabbar"
        aria-label={t('nav.main')}
        className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface/95 pb-safe backdrop-blur-md"
      >
        <ul className="grid h-16" style={{ gridTemplateColumns: `repeat(${tabs.length + 1}, minmax(0, 1fr))` }}>
          {tabs.map((view) => {
            const Icon = VIEW_ICONS[view];
            const isActive = view === active;
            return (
              <li key={view}>
                <Link
                  to={viewHref(view)}
                  data-testid={`nav-${view}`}
                  aria-current={isActive ? 'page' : undefined}
                  className={cn(
                    'relative flex h-full flex-col items-center justify-center gap-1 px-0.5 text-xs font-medium transition-colors',
                    isActive ? 'text-accent' : 'text-muted hover:text-fg',
                  )}
                >
                  {isActive && <span className="absolute inset-x-4 top-0 h-0.5 rounded-full bg-accent" aria-hidden />}
                  <Icon className="size-5" aria-hidden />
                  <span className="max-w-full truncate">{t(`views.${view}.short`)}</span>
                </Link>
              </li>
            );
          })}
          <li>
            <Dialog.Trigger asChild>
              <button
                type="button"
                data-testid="mobile-menu-button"
                aria-label={t('nav.more')}
                className={cn(
                  'relative flex h-full w-full flex-col items-center justify-center gap-1 text-xs font-medium transition-colors',
                  moreActive ? 'text-accent' : 'text-muted hover:text-fg',
                )}
              >
                {moreActive && <span className="absolute inset-x-4 top-0 h-0.5 rounded-full bg-accent" aria-hidden />}
                <Ellipsis className="size-5" aria-hidden />
                <span>{t('nav.more')}</span>
              </button>
            </Dialog.Trigger>
          </li>
        </ul>
      </nav>

      <Dialog.Portal>
        <Dialog.Content
          data-testid="mobile-menu"
          aria-describedby={undefined}
          className="fixed inset-0 z-50 flex flex-col bg-bg text-fg"
        >
          <div className="flex h-14 shrink-0 items-center justify-between border-b border-line px-4">
            <Dialog.Title className="text-base font-semibold">{t('nav.menu')}</Dialog.Title>
            <Dialog.Close asChild>
              <button
                type="button"
                aria-label={t('common.close')}
                data-testid="mobile-menu-close"
                className="grid size-9 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              >
                <X className="size-5" aria-hidden />
              </button>
            </Dialog.Close>
          </div>

          <div className="flex-1 space-y-6 overflow-y-auto px-4 py-5">
            <section className="space-y-3" aria-label={t('nav.profile')}>
              <button
                type="button"
                onClick={() => {
                  close();
                  onOpenAccount('profile');
                }}
                data-testid="mobile-profile"
                aria-label={`${fullName} · ${t('account.entry.profile')}`}
                className="flex w-full items-center gap-3 rounded-xl border border-line bg-surface p-3 text-start transition-colors hover:border-line-strong"
              >
                {profileCard}
              </button>
              <CreditBalance
                credits={credits}
                testId="credit-balance"
                onClick={() => {
                  close();
                  onOpenAccount('billing');
                }}
              />
            </section>

            {menuViews.length > 0 && (
              <section>
                <h2 className="mb-2 px-1 text-xs font-semibold uppercase tracking-wider text-subtle">
                  {t('nav.moreViews')}
                </h2>
                <ul className="overflow-hidden rounded-xl border border-line bg-surface">
                  {menuViews.map((view) => {
                    const Icon = VIEW_ICONS[view];
                    const isActive = view === active;
                    return (
                      <li key={view} className="border-b border-line last:border-b-0">
                        <Link
                          to={viewHref(view)}
                          onClick={close}
                          data-testid={`nav-${view}`}
                          aria-current={isActive ? 'page' : undefined}
                          className={cn(
                            'flex h-12 items-center gap-3 px-3.5 text-sm font-medium transition-colors',
                            isActive ? 'bg-accent-soft text-fg' : 'hover:bg-surface-2',
                          )}
                        >
                          <Icon className={cn('size-5', isActive ? 'text-accent' : 'text-subtle')} aria-hidden />
                          <span className="flex-1">{t(`views.${view}.title`)}</span>
                          <ChevronRight className="size-4 text-subtle rtl:-scale-x-100" aria-hidden />
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </section>
            )}

            <section>
              <h2 className="mb-2 px-1 text-xs font-semibold uppercase tracking-wider text-subtle">
                {t('settings.title')}
              </h2>
              <div className="grid grid-cols-2 gap-2">
                <ThemeSelect />
                <LanguageSelect />
              </div>
            </section>

            <Link
              to="/contact"
              onClick={close}
              className="flex h-11 items-center gap-3 rounded-xl px-3.5 text-sm text-muted hover:bg-surface-2 hover:text-fg"
            >
              <LifeBuoy className="size-5" aria-hidden />
              {t('nav.contactSupport')}
            </Link>
          </div>

          <div className="shrink-0 border-t border-line p-4 pb-safe">
            <Button
              variant="secondary"
              size="lg"
              className="mb-1 w-full text-danger hover:text-danger"
              onClick={onSignOut}
              loading={signingOut}
              data-testid="logout-button"
            >
              <LogOut className="size-5 rtl:-scale-x-100" aria-hidden />
              {t('nav.logout')}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
