import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { BRAND_SORTS, type BrandSort } from '../../../common/rules/directory.ts';
import { useDebounced } from '../../ui/directory-parts.tsx';
import { PagedResults, SearchSortToolbar } from '../../ui/PagedList.tsx';
import { useBrands } from './api.ts';
import { BrandCardLink, directoryGridClass } from './cards.tsx';

/** Dashboard view brands: the brand directory with search and sorts. The dashboard gates unapproved creators. */
export default function BrandsView() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<BrandSort>('newest');
  const search = useDebounced(text.trim());
  const query = useBrands({ search, sort });
  const brands = query.data?.pages.flatMap((page) => page.data) ?? [];
  const total = query.data?.pages[0]?.pagination.total ?? 0;

  return (
    <section className="mt-6 space-y-4" data-testid="brands-view">
      <SearchSortToolbar
        query={query}
        text={text}
        onText={setText}
        searchLabel={t('directory.brands.search')}
        searchPlaceholder={t('directory.brands.searchPlaceholder')}
        searchTestId="brands-search"
        sort={sort}
        onSort={setSort}
        sortOptions={BRAND_SORTS.map((value) => ({ value, label: t(`directory.brandSorts.${value}`) }))}
        sortTestId="brands-sort"
      />

      <PagedResults
        query={query}
        count={brands.length}
        loadingTestId="brands-loading"
        emptyIcon={Building2}
        emptyTestId="brands-empty"
        emptyMessage={search ? MESSAGES.directory.noBrands : MESSAGES.directory.noBrandsYet}
      >
        <p className="text-xs text-muted" aria-live="polite" data-testid="brands-count">
          {t('directory.brands.count', { count: total })}
        </p>
        <ul className={directoryGridClass} data-testid="brand-list">
          {brands.map((brand) => (
            <BrandCardLink key={brand.id} brand={brand} />
          ))}
        </ul>
      </PagedResults>
    </section>
  );
}
