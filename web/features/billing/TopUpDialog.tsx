import { Check, Coins, RefreshCw, Sparkles } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { numberLocale, useFormatEuros } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { DialogCloseButton } from '../../ui/DialogTitleBar.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useBuyPackage, usePackages } from './api.ts';
import { CreditBadge } from './CreditBadge.tsx';
import { purchaseErrorMessage } from './errors.ts';
import { preselectedPackage, suggestedCredits } from './topup.ts';

interface TopUpDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  balance: number | null;
  /** Credits missing for what the user wanted to do: the dialog then suggests a package that covers it. */
  shortfall?: number;
  /** Extra content below the packages (the studio adds its price list). */
  children?: ReactNode;
}

/** Spec 2.5: the balance with its badge, the packages (one Most Popular) and the purchase through checkout. */
export function TopUpDialog({ open, onOpenChange, balance, shortfall, children }: TopUpDialogProps) {
  const { t, i18n } = useTranslation();
  const packages = usePackages(open);
  const buy = useBuyPackage();
  const euros = useFormatEuros();
  const [selected, setSelected] = useState<string | null>(null);
  const count = (n: number) => new Intl.NumberFormat(numberLocale(i18n.language)).format(n);
  const short = shortfall !== undefined && shortfall > 0 ? shortfall : undefined;

  const list = packages.data ?? [];
  const suggestion = short === undefined ? undefined : preselectedPackage(list, short);
  const chosen = list.find((p) => p.id === selected) ?? preselectedPackage(list, short);

  // Every opening starts from the suggested (or popular) package.
  useEffect(() => {
    if (open) setSelected(null);
  }, [open]);

  const purchase = () => {
    if (!chosen || buy.isPending) return;
    buy.mutate(chosen.id);
  };
  // After a successful reply the browser is leaving for the checkout page: keep the button busy.
  const leaving = buy.isSuccess;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) buy.reset();
        onOpenChange(next);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid="topup-dialog"
          className="fixed inset-x-0 bottom-0 z-[60] flex max-h-[92dvh] flex-col rounded-t-2xl border border-line bg-surface shadow-2xl sm:inset-auto sm:top-1/2 sm:left-1/2 sm:max-h-[calc(100dvh-2rem)] sm:w-[calc(100vw-2rem)] sm:max-w-xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl"
        >
          <div className="flex items-center gap-3 border-b border-line px-5 py-4">
            <span className="grid size-9 place-items-center rounded-xl bg-accent-soft text-accent">
              <Coins className="size-5" aria-hidden />
            </span>
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-base font-semibold">{t('billing.topup.title')}</Dialog.Title>
              <Dialog.Description className="text-xs text-muted">{t('billing.topup.subtitle')}</Dialog.Description>
            </div>
            <DialogCloseButton />
          </div>

          <div className="space-y-4 overflow-y-auto px-5 py-4">
            <div className="flex items-center justify-between gap-3 rounded-xl border border-line bg-surface-2 px-4 py-3">
              <div>
                <div className="text-xs text-muted">{t('billing.topup.balance')}</div>
                <div className="text-xl font-semibold tabular-nums" data-testid="topup-balance">
                  {balance === null ? '—' : t('billing.credits', { count: balance, formatted: count(balance) })}
                </div>
              </div>
              {balance !== null && <CreditBadge credits={balance} />}
            </div>

            {short !== undefined && (
              <div
                className="flex items-start gap-2 rounded-lg border border-warning/30 bg-warning-soft px-3.5 py-2.5 text-sm"
                data-testid="topup-shortfall"
              >
                <Sparkles className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
                <p>
                  {t('billing.topup.shortfall', {
                    missing: count(Math.ceil(short)),
                    suggested: count(suggestedCredits(short)),
                  })}
                </p>
              </div>
            )}

            {packages.isPending ? (
              <div className="flex justify-center py-10" data-testid="topup-loading">
                <Spinner className="size-6" label={t('common.loading')} />
              </div>
            ) : packages.isError ? (
              <div className="space-y-3">
                <FormMessage>{translateMessage(MESSAGES.payments.genericError)}</FormMessage>
                <Button variant="secondary" size="sm" onClick={() => packages.refetch()}>
                  <RefreshCw className="size-4" aria-hidden />
                  {t('common.retry')}
                </Button>
              </div>
            ) : list.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted">{t('billing.topup.noPackages')}</p>
            ) : (
              <fieldset>
                <legend className="mb-2 text-sm font-medium">{t('billing.topup.choose')}</legend>
                <div className="grid gap-2.5 sm:grid-cols-2">
                  {list.map((pkg) => {
                    const isChosen = chosen?.id === pkg.id;
                    return (
                      <label
                        key={pkg.id}
                        data-testid={`topup-package-${pkg.id}`}
                        data-popular={pkg.popular || undefined}
                        className={cn(
                          'relative flex cursor-pointer flex-col gap-1 rounded-xl border bg-surface-2 p-3.5 transition-colors',
                          'has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent/30',
                          isChosen ? 'border-accent bg-accent-soft' : 'border-line hover:border-line-strong',
                        )}
                      >
                        <input
                          type="radio"
                          name="topup-package"
                          value={pkg.id}
                          checked={isChosen}
                          onChange={() => setSelected(pkg.id)}
                          className="sr-only"
                        />
                        <div className="flex flex-wrap items-center gap-1.5">
                          <span className="font-semibold">{pkg.displayName}</span>
                          {pkg.popular && (
                            <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-accent-fg">
                              {t('billing.topup.popular')}
                            </span>
                          )}
                          {suggestion?.id === pkg.id && (
                            <span className="rounded-full border border-warning/40 bg-warning-soft px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-warning">
                              {t('billing.topup.suggested')}
                            </span>
                          )}
                          {isChosen && <Check className="ms-auto size-4 text-accent" aria-hidden />}
                        </div>
                        <div className="text-lg font-semibold tabular-nums">
                          {t('billing.credits', { count: pkg.credits, formatted: count(pkg.credits) })}
                        </div>
                        <div className="text-sm font-medium text-fg tabular-nums">{euros(pkg.amount)}</div>
                        {pkg.description && <p className="text-xs leading-snug text-muted">{pkg.description}</p>}
                      </label>
                    );
                  })}
                </div>
              </fieldset>
            )}

            {buy.isError && <FormMessage>{purchaseErrorMessage(buy.error)}</FormMessage>}
            {children}
          </div>

          <div className="flex flex-col-reverse gap-2 border-t border-line px-5 py-3 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary">{t('billing.cancel')}</Button>
            </Dialog.Close>
            <Button
              data-testid="topup-purchase"
              onClick={purchase}
              disabled={!chosen}
              loading={buy.isPending || leaving}
            >
              {chosen ? t('billing.topup.buy', { price: euros(chosen.amount) }) : t('billing.topup.buyNone')}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
