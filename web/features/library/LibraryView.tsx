import { SearchX } from 'lucide-react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ASSET_SORTS, type AssetSort } from '../../../common/api/assets.ts';
import { type Asset, useAssets, useDeleteAssets } from '../../api/assets.ts';
import { Button } from '../../ui/Button.tsx';
import { useDebounced } from '../../ui/directory-parts.tsx';
import { useSearchChoice } from '../../ui/useSearchChoice.ts';
import { AssetsGrid, uniqueAssets } from '../assets/AssetsGrid.tsx';
import { LibraryToolbar, TYPE_FILTER_IDS, TYPE_FILTERS } from './LibraryToolbar.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { handOff, type UseInTarget, usableFor } from './useIn.ts';

/** The search words kept in the URL (`?q=`), written 300 ms after the last key. */
function useSearchText(): [text: string, setText: (text: string) => void, q: string] {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const q = useDebounced(text.trim());
  useEffect(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [q, setParams]);
  return [text, setText, q];
}

function NoMatch({ onClear }: { onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="library-no-match"
      className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center"
    >
      <SearchX className="mb-3 size-7 text-subtle" aria-hidden />
      <p className="text-sm font-medium">{t('library.noMatchTitle')}</p>
      <p className="mt-1 text-xs text-muted">{t('library.noMatchBody')}</p>
      <Button variant="secondary" size="sm" className="mt-4" onClick={onClear} data-testid="library-clear-filters">
        {t('library.clearFilters')}
      </Button>
    </div>
  );
}

/** Keys typed into a text field keep their meaning there (Ctrl+A selects the text). */
const isTyping = (target: EventTarget) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(target.type)));

/**
 * The Library view (issue 29 point 9): every asset of the user, filtered by type, searched by prompt and sorted
 * (all kept in the URL); select several (checkbox per card, Select all, Ctrl+A, Esc) to delete them or use them
 * in the studio, on the canvas or in a post.
 */
export default function LibraryView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [typeFilter, setTypeFilter] = useSearchChoice('type', TYPE_FILTER_IDS, 'all');
  const [sort, setSort] = useSearchChoice<AssetSort>('sort', ASSET_SORTS, 'newest');
  const [text, setText, q] = useSearchText();
  const type = TYPE_FILTERS[typeFilter];
  const search = useMemo(() => ({ q, sort }), [q, sort]);
  const query = useAssets(type, search);
  const assets = useMemo(() => uniqueAssets(query.data?.pages), [query.data]);
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const remove = useDeleteAssets();
  const root = useRef<HTMLDivElement>(null);

  // A new filter shows other media: the selection starts again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared when the list's query changes
  useEffect(() => setSelectedIds(new Set()), [type, q, sort]);

  const selected = useMemo(() => assets.filter((asset) => selectedIds.has(asset.id)), [assets, selectedIds]);
  const toggle = (id: string) =>
    setSelectedIds((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const selectAll = () => setSelectedIds(new Set(assets.map((asset) => asset.id)));
  const clear = () => setSelectedIds(new Set());

  const onKeyDown = (event: KeyboardEvent) => {
    if (!root.current?.contains(event.target as Node) || isTyping(event.target)) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      selectAll();
    } else if (event.key === 'Escape' && selected.length > 0) {
      clear();
    }
  };

  const useIn = (target: UseInTarget) => {
    const count = usableFor(target, selected).length;
    navigate(handOff(target, selected));
    toast.success(t(`library.handedOff.${target}`, { count }));
  };

  const deleteSelected = async () => {
    const { deleted, failed } = await remove.mutateAsync(selected.map((asset) => asset.id));
    if (deleted.length > 0) toast.success(t('library.deleted', { count: deleted.length }));
    if (failed.length > 0) toast.error(t('library.deleteFailed', { count: failed.length }));
    setSelectedIds(new Set(failed.map((f) => f.id)));
  };

  const selectionOf = (asset: Asset) => ({
    selected: selectedIds.has(asset.id),
    active: selected.length > 0,
    onToggle: () => toggle(asset.id),
  });
  const filtered = Boolean(type || q);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard shortcuts for the controls inside
    <div ref={root} className="mt-6 space-y-5" data-testid="library" onKeyDown={onKeyDown}>
      <LibraryToolbar
        text={text}
        onText={setText}
        searching={query.isFetching && !query.isPending}
        sort={sort}
        onSort={setSort}
        type={typeFilter}
        onType={setTypeFilter}
      />
      <p className="sr-only">{t('library.keyboardHint')}</p>
      <AssetsGrid
        type={type}
        search={search}
        selection={{
          selectionOf,
          noMatch: filtered ? (
            <NoMatch
              onClear={() => {
                setText('');
                setTypeFilter('all');
              }}
            />
          ) : undefined,
        }}
      />
      {selected.length > 0 && (
        <SelectionBar
          selected={selected}
          loadedCount={assets.length}
          onSelectAll={selectAll}
          onClear={clear}
          onUseIn={useIn}
          onDelete={deleteSelected}
          deleting={remove.isPending}
        />
      )}
    </div>
  );
}
