import { CircleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { marketMessage } from '../i18n/market-messages.ts';
import { Button } from './Button.tsx';

interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: Error | null;
  fetchNextPage: () => Promise<unknown>;
}

/** "Load more" under a paged list, with the error of a failed next page and a retry. */
export function ListFooter({ query }: { query: PagedQuery }) {
  const { t } = useTranslation();
  if (!query.hasNextPage) return null;
  return (
    <div className="flex flex-col items-center gap-2 pt-2">
      {query.isFetchNextPageError && query.error && (
        <p role="alert" className="flex items-center gap-1.5 text-sm text-danger">
          <CircleAlert className="size-4" aria-hidden />
          {marketMessage(query.error.message)}
        </p>
      )}
      <Button
        variant="secondary"
        onClick={() => void query.fetchNextPage()}
        loading={query.isFetchingNextPage}
        data-testid="load-more"
      >
        {query.isFetchNextPageError ? t('common.retry') : t('directory.loadMore')}
      </Button>
    </div>
  );
}
