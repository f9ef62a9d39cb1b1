import { BadgeCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import {
  ADMIN_VERIFICATION_FILTERS,
  type AdminVerificationFilter,
  BRAND_SORTS,
  type BrandSort,
} from '../../../common/rules/directory.ts';
import { FilterChips, useDebounced } from '../../ui/directory-parts.tsx';
import { PagedResults, SearchSortToolbar } from '../../ui/PagedList.tsx';
import { AdminBrandCard } from './AdminBrandCard.tsx';
import { AuditLogPanel } from './AuditLogPanel.tsx';
import { useAdminBrands } from './api.ts';

/** Dashboard view adminBrands (Brands Management): every brand, to verify, reject or delete. */
export default function AdminBrandsView() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<BrandSort>('newest');
  const [status, setStatus] = useState<AdminVerificationFilter>('all');
  const search = useDebounced(text.trim());
  const query = useAdminBrands({ search, sort, status });
  const brands = query.data?.pages.flatMap((page) => page.data) ?? [];
  const counts = query.data?.pages[0]?.counts;
  const filtered = search !== '' || status !== 'all';

  return (
    <div className="mt-6 space-y-6">
      <section className="space-y-4" data-testid="admin-brands-view">
        <SearchSortToolbar
          query={query}
          text={text}
          onText={setText}
          searchLabel={t('admin.brands.search')}
          searchPlaceholder={t('admin.brands.searchPlaceholder')}
          searchTestId="admin-search"
          sort={sort}
          onSort={setSort}
          sortOptions={BRAND_SORTS.map((value) => ({ value, label: t(`directory.brandSorts.${value}`) }))}
          sortTestId="admin-sort"
        />
        <FilterChips
          value={status}
          onChange={setStatus}
          label={t('admin.statusFilter')}
          options={ADMIN_VERIFICATION_FILTERS.map((value) => ({
            value,
            label: counts
              ? t('admin.withCount', { label: t(`admin.brandFilters.${value}`), count: counts[value] })
              : t(`admin.brandFilters.${value}`),
          }))}
          testIdPrefix="admin-status-filter"
        />

        <PagedResults
          query={query}
          count={brands.length}
          loadingTestId="admin-loading"
          emptyIcon={BadgeCheck}
          emptyTestId="admin-empty"
          emptyMessage={filtered ? MESSAGES.directory.noBrands : MESSAGES.directory.noBrandsYet}
        >
          <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2" data-testid="admin-brand-list">
            {brands.map((brand) => (
              <AdminBrandCard key={brand.id} brand={brand} />
            ))}
          </ul>
        </PagedResults>
      </section>
      <AuditLogPanel />
    </div>
  );
}
