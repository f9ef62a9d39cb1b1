import { FolderOpen, Loader2, RefreshCw, WifiOff } from 'lucide-react';
import { Tooltip } from 'radix-ui';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ASSETS_LOAD_MORE_WITHIN_PX } from '../../../common/api/generation.constants.ts';
import { appendUniqueById } from '../../../common/rules/studio.ts';
import { type Asset, type AssetSearch, useAssets } from '../../api/assets.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { engineOf } from '../../ui/EngineBadge.tsx';
import { AssetCard, type CardSelection } from './AssetCard.tsx';
import { MediaViewer } from './MediaViewer.tsx';

const gridClass = 'grid grid-cols-2 gap-2.5 sm:grid-cols-3 sm:gap-3 lg:grid-cols-4 xl:grid-cols-5';

export function AssetSkeletons({ count = 10 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <li key={i} className="aspect-square animate-pulse rounded-xl bg-surface-3" aria-hidden />
      ))}
    </>
  );
}

/** Flattens loaded pages, skipping ids already listed (offset pages shift when new media arrives). */
export function uniqueAssets(pages: ReadonlyArray<{ data: Asset[] }> | undefined): Asset[] {
  return (pages ?? []).reduce<Asset[]>((list, page) => appendUniqueById(list, page.data), []);
}

/**
 * Calls `onNear` whenever the sentinel comes within 200 px of the bottom of the viewport. Re-observing after
 * each page means a screen that is still not full keeps loading.
 */
function useLoadMore(onNear: () => void, enabled: boolean, pageCount: number) {
  const sentinel = useRef<HTMLDivElement>(null);
  const callback = useRef(onNear);
  callback.current = onNear;
  // biome-ignore lint/correctness/useExhaustiveDependencies: pageCount re-arms the observer after each page
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !enabled) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && callback.current(),
      {
        rootMargin: `0px 0px ${ASSETS_LOAD_MORE_WITHIN_PX}px 0px`,
      },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, pageCount]);
  return sentinel;
}

/** What the Library adds to the grid: a checkbox per card, and what to show when its filters match nothing. */
interface GridSelection {
  selectionOf: (asset: Asset) => CardSelection;
  /** Shown instead of the empty state when a filter or search is set. */
  noMatch?: ReactNode;
}

/**
 * "Your Media Assets": the user's library, 35 a page with infinite scroll. `type` filters it (e.g. 'image'),
 * `search` searches and sorts it; `selection` gives each card a checkbox (the Library view).
 */
export function AssetsGrid({
  type,
  search,
  selection,
  className,
}: {
  type?: string;
  search?: AssetSearch;
  selection?: GridSelection;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const query = useAssets(type, search);
  const assets = useMemo(() => uniqueAssets(query.data?.pages), [query.data]);
  const total = query.data?.pages.at(-1)?.pagination.total;
  const [viewing, setViewing] = useState<number | null>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError } = query;
  const sentinel = useLoadMore(
    () => {
      if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
    },
    Boolean(hasNextPage) && !isFetchNextPageError,
    query.data?.pages.length ?? 0,
  );

  // Keep the viewer on a valid item when the list shrinks (delete).
  useEffect(() => {
    if (viewing !== null && viewing >= assets.length) setViewing(assets.length > 0 ? assets.length - 1 : null);
  }, [assets.length, viewing]);

  const count = new Intl.NumberFormat(i18n.language === 'ar' ? 'ar-u-nu-latn' : 'en').format(total ?? 0);

  return (
    <section
      data-testid="assets-grid"
      aria-labelledby="assets-grid-title"
      aria-busy={query.isFetching || undefined}
      className={cn('space-y-4', className)}
    >
      <div className="flex items-center gap-3">
        <h2 id="assets-grid-title" className="text-base font-semibold tracking-tight">
          {t('assets.title')}
        </h2>
        {total !== undefined && (
          <span className="rounded-full bg-surface-3 px-2 py-0.5 text-xs font-medium tabular-nums text-muted">
            {count}
          </span>
        )}
        <button
          type="button"
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
          className="ms-auto grid size-8 place-items-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-fg disabled:opacity-50"
          aria-label={t('assets.refresh')}
          title={t('assets.refresh')}
          data-testid="assets-refresh"
        >
          <RefreshCw className={cn('size-4', query.isFetching && 'animate-spin')} aria-hidden />
        </button>
      </div>

      {query.isPending ? (
        <ul className={gridClass} aria-label={t('common.loading')} data-testid="assets-loading">
          <AssetSkeletons />
        </ul>
      ) : query.isError && assets.length === 0 ? (
        <div
          role="alert"
          data-testid="assets-error"
          className="flex flex-col items-center rounded-2xl border border-danger/30 bg-danger-soft px-6 py-10 text-center"
        >
          <WifiOff className="mb-3 size-7 text-danger" aria-hidden />
          <p className="text-sm font-medium text-fg">{t('assets.loadFailed')}</p>
          <p className="mt-1 text-xs text-muted">{localizeMessage(query.error.message)}</p>
          <Button variant="secondary" size="sm" className="mt-4" onClick={() => void query.refetch()}>
            <RefreshCw className="size-4" aria-hidden />
            {t('common.retry')}
          </Button>
        </div>
      ) : assets.length === 0 && selection?.noMatch ? (
        selection.noMatch
      ) : assets.length === 0 ? (
        <div
          data-testid="assets-empty"
          className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center"
        >
          <span className="mb-3 grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
            <FolderOpen className="size-6" aria-hidden />
          </span>
          <p className="text-sm font-medium">{t('assets.emptyTitle')}</p>
          <p className="mt-1 max-w-sm text-xs leading-relaxed text-muted">{t('assets.emptyBody')}</p>
        </div>
      ) : (
        <Tooltip.Provider delayDuration={300}>
          <ul className={gridClass}>
            {assets.map((asset, index) => (
              <AssetCard
                key={asset.id}
                asset={asset}
                onOpen={() => setViewing(index)}
                selection={selection?.selectionOf(asset)}
              />
            ))}
            {isFetchingNextPage && <AssetSkeletons count={5} />}
          </ul>
        </Tooltip.Provider>
      )}

      {isFetchNextPageError && (
        <div role="alert" className="flex items-center justify-center gap-3 text-sm text-danger">
          {t('assets.loadMoreFailed')}
          <Button variant="secondary" size="sm" onClick={() => void fetchNextPage()}>
            {t('common.retry')}
          </Button>
        </div>
      )}
      {hasNextPage && !isFetchNextPageError && (
        <div ref={sentinel} className="flex justify-center py-2">
          {isFetchingNextPage ? (
            <Loader2 className="size-5 animate-spin text-accent" aria-label={t('common.loading')} />
          ) : (
            <Button variant="ghost" size="sm" onClick={() => void fetchNextPage()} data-testid="assets-load-more">
              {t('assets.loadMore')}
            </Button>
          )}
        </div>
      )}

      <MediaViewer
        items={assets.map((a) => ({
          id: a.id,
          url: a.url,
          type: a.type,
          prompt: a.prompt,
          engine: engineOf(a.metadata),
        }))}
        index={viewing}
        onIndexChange={setViewing}
        onClose={() => setViewing(null)}
      />
    </section>
  );
}
