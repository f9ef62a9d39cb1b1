import { ArrowDownLeft, ArrowUpRight, ReceiptText } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { numberLocale, useFormatDate } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { LoadError, Loading } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useCreditHistory } from '../billing/api.ts';

const COLUMNS = ['type', 'source', 'amount', 'balanceAfter', 'date'] as const;
const toneOf = (type: 'addition' | 'deduction') => (type === 'addition' ? 'text-success' : 'text-danger');

/** Spec 2.6 Transactions: the Complete Transaction History, newest first, loading more near the end. */
export function TransactionsTab() {
  const { t, i18n } = useTranslation();
  const history = useCreditHistory();
  const date = useFormatDate();
  const time = (iso: string) =>
    new Intl.DateTimeFormat(numberLocale(i18n.language), { timeStyle: 'short' }).format(new Date(iso));
  const sentinel = useRef<HTMLDivElement>(null);
  const count = (n: number) => new Intl.NumberFormat(numberLocale(i18n.language)).format(n);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const sourceLabel = (source: string) => t(`account.transactions.sources.${source}`, { defaultValue: source });
  const generationLabel = (type: string) => t(`account.transactions.generation.${type}`, { defaultValue: type });
  const signedAmount = (row: { type: 'addition' | 'deduction'; amount: number }) =>
    `${row.type === 'addition' ? '+' : '−'}${count(Math.abs(row.amount))}`;

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '200px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const rows = history.data?.pages.flatMap((page) => page.transactions) ?? [];
  const total = history.data?.pages[0]?.pagination.total ?? 0;

  return (
    <div className="space-y-5" data-testid="account-transactions">
      <div>
        <h2 className="text-xl font-semibold tracking-tight">{t('account.transactions.title')}</h2>
        {history.data && (
          <p className="mt-1 text-sm text-muted">
            {t('account.transactions.count', { count: total, formatted: count(total) })}
          </p>
        )}
      </div>
      {history.isPending ? (
        <Loading testId="transactions-loading" />
      ) : history.isError ? (
        <LoadError message={translateMessage(history.error.message)} onRetry={() => history.refetch()} />
      ) : rows.length === 0 ? (
        <div
          className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong px-6 py-14 text-center"
          data-testid="transactions-empty"
        >
          <span className="mb-3 grid size-11 place-items-center rounded-xl bg-accent-soft text-accent">
            <ReceiptText className="size-5" aria-hidden />
          </span>
          <p className="font-medium">{t('account.transactions.emptyTitle')}</p>
          <p className="mt-1 text-sm text-muted">{t('account.transactions.emptyBody')}</p>
        </div>
      ) : (
        <>
          {/*
            Table where the dialog's content area is wide enough, stacked cards below (phones, and tablets where
            the tab list takes its share). Fixed column widths keep the amount, balance and date whole; the
            description is the column that gives way.
          */}
          <div className="hidden overflow-x-auto rounded-2xl border border-line lg:block">
            <table className="w-full min-w-[40rem] table-fixed text-sm" data-testid="transactions-table">
              <colgroup>
                <col />
                <col className="w-32" />
                <col className="w-20" />
                <col className="w-28" />
                <col className="w-36" />
              </colgroup>
              <thead className="bg-surface-2 text-xs text-muted">
                <tr>
                  {COLUMNS.map((column, index) => (
                    <th
                      key={column}
                      scope="col"
                      className={cn(
                        'whitespace-nowrap py-2.5 font-medium',
                        column === 'amount' ? 'px-3' : 'px-4',
                        index < 2 ? 'text-start' : 'text-end',
                      )}
                    >
                      {t(`account.transactions.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-line bg-surface">
                {rows.map((row) => (
                  <tr key={row.id} data-testid="transaction-row" data-type={row.type}>
                    <td className="px-4 py-3 align-top">
                      <TypeLabel type={row.type} />
                      {row.description !== sourceLabel(row.source) && (
                        <div
                          dir="auto"
                          className="mt-0.5 truncate text-xs text-subtle rtl:text-right"
                          title={row.description}
                        >
                          {row.description}
                        </div>
                      )}
                    </td>
                    <td className="px-4 py-3 align-top">
                      <div className="break-words">{sourceLabel(row.source)}</div>
                      {row.generationType && (
                        <div className="truncate text-xs text-subtle">{generationLabel(row.generationType)}</div>
                      )}
                    </td>
                    <td className={cn('px-3 py-3 text-end align-top font-semibold tabular-nums', toneOf(row.type))}>
                      <bdi dir="ltr">{signedAmount(row)}</bdi>
                    </td>
                    <td className="px-4 py-3 text-end align-top tabular-nums">{count(row.balanceAfter)}</td>
                    <td className="px-4 py-3 text-end align-top text-muted" data-testid="transaction-date">
                      <div className="whitespace-nowrap">{date(row.createdAt)}</div>
                      <div className="whitespace-nowrap text-xs text-subtle">{time(row.createdAt)}</div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-2 lg:hidden">
            {rows.map((row) => (
              <li
                key={row.id}
                className="rounded-xl border border-line bg-surface p-3.5"
                data-testid="transaction-card"
              >
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <TypeLabel type={row.type} />
                    {row.description !== sourceLabel(row.source) && (
                      <div dir="auto" className="mt-0.5 truncate text-xs text-subtle rtl:text-right">
                        {row.description}
                      </div>
                    )}
                  </div>
                  <div className={cn('shrink-0 font-semibold tabular-nums', toneOf(row.type))}>
                    <bdi dir="ltr">{signedAmount(row)}</bdi>
                  </div>
                </div>
                <div className="mt-2 flex flex-wrap justify-between gap-x-3 gap-y-1 text-xs text-muted">
                  <span>
                    {sourceLabel(row.source)}
                    {row.generationType ? ` · ${generationLabel(row.generationType)}` : ''}
                  </span>
                  <span>{t('account.transactions.balanceAfterShort', { balance: count(row.balanceAfter) })}</span>
                  <span className="w-full" data-testid="transaction-date">
                    {date(row.createdAt, true)}
                  </span>
                </div>
              </li>
            ))}
          </ul>
          <div ref={sentinel} className="flex justify-center py-2">
            {isFetchingNextPage ? (
              <Spinner className="size-5" />
            ) : hasNextPage ? (
              <Button variant="secondary" size="sm" onClick={() => fetchNextPage()}>
                {t('account.transactions.loadMore')}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}

function TypeLabel({ type }: { type: 'addition' | 'deduction' }) {
  const { t } = useTranslation();
  const Icon = type === 'addition' ? ArrowDownLeft : ArrowUpRight;
  return (
    <span className="inline-flex items-center gap-1.5 font-medium">
      <Icon className={cn('size-4', toneOf(type))} aria-hidden />
      {t(`account.transactions.types.${type}`)}
    </span>
  );
}
