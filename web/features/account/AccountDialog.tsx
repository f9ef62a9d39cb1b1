import { CreditCard, History, Settings2, Share2, ShieldCheck, UserRound, X } from 'lucide-react';
import { Dialog, Tabs } from 'radix-ui';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../api/auth.ts';
import { ACCOUNT_TABS, type AccountTab } from '../../ui/account-route.ts';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { UserAvatar } from '../../ui/UserAvatar.tsx';
import { useMediaQuery } from '../../ui/useMediaQuery.ts';
import { BillingTab } from './BillingTab.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { SocialTab } from './SocialTab.tsx';
import { TransactionsTab } from './TransactionsTab.tsx';

const TAB_ICONS = {
  profile: UserRound,
  billing: CreditCard,
  transactions: History,
  social: Share2,
  security: ShieldCheck,
  settings: Settings2,
} as const;

interface AccountDialogProps {
  me: Me;
  tab: AccountTab;
  onTabChange: (tab: AccountTab) => void;
  onClose: () => void;
}

/** Spec 2.6: the full-screen Account and Settings dialog; a sheet with a scrolling tab strip on phones. */
export default function AccountDialog({ me, tab, onTabChange, onClose }: AccountDialogProps) {
  const { t } = useTranslation();
  const dir = useDir();
  const wide = useMediaQuery('(min-width: 768px)');
  const { user } = me;
  const fullName = `${user.first_name} ${user.last_name}`.trim();
  const tabRefs = useRef<Partial<Record<AccountTab, HTMLButtonElement | null>>>({});

  // On phones the strip scrolls: keep the open tab in view (also after a reload on a later tab).
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const trigger = tabRefs.current[tab];
      const strip = trigger?.parentElement;
      if (!trigger || !strip || wide) return;
      // Scroll the strip only (scrollIntoView would also move the page behind the sheet).
      const offset = trigger.offsetLeft - (strip.clientWidth - trigger.offsetWidth) / 2;
      strip.scrollTo({ left: offset });
    });
    return () => cancelAnimationFrame(frame);
  }, [tab, wide]);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Content
          data-testid="account-dialog"
          data-tab={tab}
          className="fixed inset-0 z-50 flex flex-col bg-bg text-fg"
          onOpenAutoFocus={(event) => {
            // Start keyboard users on the open tab rather than on the first field of its form.
            event.preventDefault();
            tabRefs.current[tab]?.focus({ preventScroll: true });
          }}
        >
          <header className="flex h-14 shrink-0 items-center gap-3 border-b border-line bg-surface px-4 md:h-16 md:px-6">
            <UserAvatar user={user} className="size-8 md:size-9" />
            <div className="min-w-0 flex-1 leading-tight">
              <Dialog.Title className="truncate text-base font-semibold">{t('account.title')}</Dialog.Title>
              <Dialog.Description className="truncate text-xs text-muted">
                {fullName} · <span dir="ltr">{user.email}</span>
              </Dialog.Description>
            </div>
            <Dialog.Close
              data-testid="account-close"
              className="grid size-9 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              aria-label={t('common.close')}
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </header>

          <Tabs.Root
            value={tab}
            onValueChange={(value) => onTabChange(value as AccountTab)}
            orientation={wide ? 'vertical' : 'horizontal'}
            dir={dir}
            activationMode="manual"
            className="flex min-h-0 flex-1 flex-col md:flex-row"
          >
            <Tabs.List
              aria-label={t('account.tabsLabel')}
              className={cn(
                'flex shrink-0 border-line bg-surface',
                wide
                  ? 'w-60 flex-col gap-1 border-e p-3'
                  : 'relative gap-1 overflow-x-auto border-b px-2 py-2 [scrollbar-width:none]',
              )}
            >
              {ACCOUNT_TABS.map((id) => {
                const Icon = TAB_ICONS[id];
                return (
                  <Tabs.Trigger
                    key={id}
                    value={id}
                    ref={(element) => {
                      tabRefs.current[id] = element;
                    }}
                    data-testid={`account-tab-${id}`}
                    className={cn(
                      'flex shrink-0 items-center gap-2.5 rounded-lg text-sm font-medium whitespace-nowrap transition-colors',
                      'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
                      wide ? 'h-10 px-3' : 'h-9 px-3',
                      'text-muted hover:bg-surface-2 hover:text-fg data-[state=active]:bg-accent-soft data-[state=active]:text-fg',
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden />
                    {t(`account.tabs.${id}`)}
                  </Tabs.Trigger>
                );
              })}
            </Tabs.List>

            <div className="min-h-0 flex-1 overflow-y-auto">
              <div className="mx-auto w-full max-w-3xl px-4 pt-5 pb-16 md:px-8 md:pt-8">
                <Tabs.Content value="profile" className="outline-none">
                  <ProfileTab user={user} />
                </Tabs.Content>
                <Tabs.Content value="billing" className="outline-none">
                  <BillingTab user={user} credits={me.credits} />
                </Tabs.Content>
                <Tabs.Content value="transactions" className="outline-none">
                  <TransactionsTab />
                </Tabs.Content>
                <Tabs.Content value="social" className="outline-none">
                  <SocialTab />
                </Tabs.Content>
                <Tabs.Content value="security" className="outline-none">
                  <SecurityTab />
                </Tabs.Content>
                <Tabs.Content value="settings" className="outline-none">
                  <SettingsTab creator={user.role === 'creator'} />
                </Tabs.Content>
              </div>
            </div>
          </Tabs.Root>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
