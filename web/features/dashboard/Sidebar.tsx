import { LogOut, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DashboardView } from '../../../common/api/app.constants.ts';
import type { User } from '../../../common/api/auth.ts';
import { cn } from '../../ui/cn.ts';
import { Logo } from '../../ui/Logo.tsx';
import { UserAvatar } from '../../ui/UserAvatar.tsx';
import { CreditBalance } from './CreditBalance.tsx';
import { NAV_SECTIONS, VIEW_ICONS, viewHref } from './viewMeta.ts';

interface SidebarProps {
  user: User;
  credits: number;
  views: readonly DashboardView[];
  active: DashboardView;
  collapsed: boolean;
  onToggle: () => void;
  onSignOut: () => void;
  signingOut: boolean;
  onOpenAccount: (tab: 'profile' | 'billing') => void;
}

export function Sidebar({
  user,
  credits,
  views,
  active,
  collapsed,
  onToggle,
  onSignOut,
  signingOut,
  onOpenAccount,
}: SidebarProps) {
  const { t } = useTranslation();
  const fullName = `${user.first_name} ${user.last_name}`.trim();
  const ToggleIcon = collapsed ? PanelLeftOpen : PanelLeftClose;

  const userRow = (
    <>
      <UserAvatar user={user} />
      {!collapsed && (
        <span className="min-w-0 flex-1 text-start leading-tight">
          <span className="block truncate text-sm font-medium text-fg">{fullName}</span>
          <span className="block truncate text-xs text-subtle">{t(`roles.${user.role}`)}</span>
        </span>
      )}
    </>
  );

  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      aria-label={t('nav.sidebar')}
      className={cn(
        'sticky top-0 flex h-dvh shrink-0 flex-col border-e border-line bg-surface transition-[width] duration-200',
        collapsed ? 'w-[72px]' : 'w-64',
      )}
    >
      <div className={cn('flex h-14 items-center border-b border-line px-3', collapsed ? 'justify-center' : 'gap-2')}>
        {!collapsed && <Logo to={viewHref('creators')} className="min-w-0 flex-1 px-1" />}
        <button
          type="button"
          data-testid="sidebar-toggle"
          onClick={onToggle}
          aria-expanded={!collapsed}
          aria-label={collapsed ? t('nav.expandSidebar') : t('nav.collapseSidebar')}
          title={collapsed ? t('nav.expandSidebar') : t('nav.collapseSidebar')}
          className="grid size-9 place-items-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-fg"
        >
          <ToggleIcon className="size-[18px] rtl:-scale-x-100" aria-hidden />
        </button>
      </div>

      <nav className="flex-1 overflow-y-auto overflow-x-hidden px-3 py-4" aria-label={t('nav.main')}>
        {NAV_SECTIONS.map((section) => {
          const items = section.views.filter((view) => views.includes(view));
          if (items.length === 0) return null;
          return (
            <div key={section.id} className="mb-5 last:mb-0">
              {collapsed ? (
                <div className="mx-auto mb-2 h-px w-6 bg-line" aria-hidden />
              ) : (
                <div className="mb-1.5 px-2.5 text-xs font-semibold uppercase tracking-wider text-subtle">
                  {t(`nav.sections.${section.id}`)}
                </div>
              )}
              <ul className="space-y-0.5">
                {items.map((view) => {
                  const Icon = VIEW_ICONS[view];
                  const isActive = view === active;
                  const label = t(`views.${view}.title`);
                  return (
                    <li key={view}>
                      <Link
                        to={viewHref(view)}
                        data-testid={`nav-${view}`}
                        aria-current={isActive ? 'page' : undefined}
                        title={collapsed ? label : undefined}
                        aria-label={collapsed ? label : undefined}
                        className={cn(
                          'group relative flex h-9 items-center gap-3 rounded-lg px-2.5 text-sm font-medium transition-colors',
                          collapsed && 'justify-center px-0',
                          isActive ? 'bg-accent-soft text-fg' : 'text-muted hover:bg-surface-2 hover:text-fg',
                        )}
                      >
                        {isActive && (
                          <span className="absolute inset-y-2 start-0 w-0.5 rounded-full bg-accent" aria-hidden />
                        )}
                        <Icon
                          className={cn(
                            'size-[18px] shrink-0',
                            isActive ? 'text-accent' : 'text-subtle group-hover:text-fg',
                          )}
                          aria-hidden
                        />
                        {!collapsed && <span className="truncate">{label}</span>}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </nav>

      <div className="space-y-2 border-t border-line p-3">
        {collapsed ? (
          <div className="flex justify-center py-1">
            <CreditBalance
              credits={credits}
              testId="credit-balance"
              variant="icon"
              onClick={() => onOpenAccount('billing')}
            />
          </div>
        ) : (
          <CreditBalance credits={credits} testId="credit-balance" onClick={() => onOpenAccount('billing')} />
        )}
        <div className={cn('flex items-center gap-1', collapsed && 'flex-col')}>
          <button
            type="button"
            data-testid="account-open"
            onClick={() => onOpenAccount('profile')}
            className={cn(
              'flex min-w-0 flex-1 items-center gap-2.5 rounded-lg p-1.5 transition-colors hover:bg-surface-2',
              collapsed && 'justify-center',
            )}
            title={collapsed ? fullName : t('account.entry.profile')}
            aria-label={collapsed ? `${fullName} · ${t('account.entry.profile')}` : undefined}
          >
            {userRow}
          </button>
          <button
            type="button"
            data-testid="logout-button"
            onClick={onSignOut}
            disabled={signingOut}
            aria-label={t('nav.logout')}
            title={t('nav.logout')}
            className="grid size-9 shrink-0 place-items-center rounded-lg text-muted transition-colors hover:bg-danger-soft hover:text-danger disabled:opacity-50"
          >
            <LogOut className="size-[18px] rtl:-scale-x-100" aria-hidden />
          </button>
        </div>
      </div>
    </aside>
  );
}
