import { UserCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import {
  ADMIN_CREATOR_SORTS,
  ADMIN_STATUS_FILTERS,
  type AdminCreatorSort,
  type AdminStatusFilter,
} from '../../../common/rules/directory.ts';
import { FilterChips, useDebounced } from '../../ui/directory-parts.tsx';
import { PagedResults, SearchSortToolbar } from '../../ui/PagedList.tsx';
import { AdminCreatorCard } from './AdminCreatorCard.tsx';
import { AuditLogPanel } from './AuditLogPanel.tsx';
import { useAdminCreators } from './api.ts';

/** Dashboard view adminCreators (Creators Community): every creator, to approve, reject or delete. */
export default function AdminCreatorsView() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<AdminCreatorSort>('newest');
  const [status, setStatus] = useState<AdminStatusFilter>('all');
  const search = useDebounced(text.trim());
  const query = useAdminCreators({ search, sort, status });
  const creators = query.data?.pages.flatMap((page) => page.data) ?? [];
  const counts = query.data?.pages[0]?.counts;

  return (
    <div className="mt-6 space-y-6">
      <section className="space-y-4" data-testid="admin-creators-view">
        <SearchSortToolbar
          query={query}
          text={text}
          onText={setText}
          searchLabel={t('admin.creators.search')}
          searchPlaceholder={t('admin.creators.searchPlaceholder')}
          searchTestId="admin-search"
          sort={sort}
          onSort={setSort}
          sortOptions={ADMIN_CREATOR_SORTS.map((value) => ({ value, label: t(`admin.sorts.${value}`) }))}
          sortTestId="admin-sort"
        />
        <FilterChips
          value={status}
          onChange={setStatus}
          label={t('admin.statusFilter')}
          options={ADMIN_STATUS_FILTERS.map((value) => ({
            value,
            label: counts
              ? t('admin.withCount', { label: t(`admin.filters.${value}`), count: counts[value] })
              : t(`admin.filters.${value}`),
          }))}
          testIdPrefix="admin-status-filter"
        />

        <PagedResults
          query={query}
          count={creators.length}
          loadingTestId="admin-loading"
          emptyIcon={UserCheck}
          emptyTestId="admin-empty"
          emptyMessage={MESSAGES.directory.noCreators}
        >
          <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2" data-testid="admin-creator-list">
            {creators.map((creator) => (
              <AdminCreatorCard key={creator.id} creator={creator} />
            ))}
          </ul>
        </PagedResults>
      </section>
      <AuditLogPanel />
    </div>
  );
}
