import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { marketMessage } from '../i18n/market-messages.ts';
import { SelectField } from './controls.tsx';
import { EmptyState, ErrorState, LoadingState, SearchBox, Toolbar } from './directory-parts.tsx';
import { ListFooter } from './ListFooter.tsx';

/** What the directory and admin lists read from their infinite query. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: Error | null;
  refetch: () => Promise<unknown>;
  fetchNextPage: () => Promise<unknown>;
}

/** The search box and sort select above a directory or admin list. */
export function SearchSortToolbar<S extends string>({
  query,
  text,
  onText,
  searchLabel,
  searchPlaceholder,
  searchTestId,
  sort,
  onSort,
  sortOptions,
  sortTestId,
}: {
  query: ListQuery;
  text: string;
  onText: (value: string) => void;
  searchLabel: string;
  searchPlaceholder: string;
  searchTestId: string;
  sort: S;
  onSort: (value: S) => void;
  sortOptions: ReadonlyArray<{ value: S; label: string }>;
  sortTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <Toolbar>
      <SearchBox
        value={text}
        onChange={onText}
        label={searchLabel}
        placeholder={searchPlaceholder}
        busy={query.isFetching && !query.isPending && !query.isFetchingNextPage}
        testId={searchTestId}
      />
      <SelectField
        variant="inline"
        value={sort}
        onChange={onSort}
        label={t('directory.sortBy')}
        options={sortOptions}
        testId={sortTestId}
      />
    </Toolbar>
  );
}

/**
 * A paged list's states: loading, the error when nothing could be shown, the empty message (a message code),
 * else the list itself with "Load more" under it.
 */
export function PagedResults({
  query,
  count,
  loadingTestId,
  emptyIcon,
  emptyTestId,
  emptyMessage,
  children,
}: {
  query: ListQuery;
  count: number;
  loadingTestId: string;
  emptyIcon: LucideIcon;
  emptyTestId: string;
  emptyMessage: string;
  children: ReactNode;
}) {
  if (query.isPending) return <LoadingState testId={loadingTestId} />;
  if (query.isError && count === 0) {
    return (
      <ErrorState
        message={marketMessage(query.error?.message ?? '')}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (count === 0) return <EmptyState icon={emptyIcon} testId={emptyTestId} message={marketMessage(emptyMessage)} />;
  return (
    <>
      {children}
      <ListFooter query={query} />
    </>
  );
}
