import { UsersRound } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router';
import { MESSAGES } from '../../../common/messages.ts';
import {
  COMMUNITY_CATEGORIES,
  type CommunityCategory,
  CREATOR_SORTS,
  type CreatorSort,
} from '../../../common/rules/directory.ts';
import type { DashboardContext } from '../../api/auth.ts';
import { ApprovalGate } from '../../ui/ApprovalBanner.tsx';
import { FilterChips, useDebounced } from '../../ui/directory-parts.tsx';
import { isUnapprovedCreator } from '../../ui/navigation.ts';
import { PagedResults, SearchSortToolbar } from '../../ui/PagedList.tsx';
import { useCreators } from './api.ts';
import { CreatorCardLink, directoryGridClass } from './cards.tsx';

/**
 * Dashboard view community: the directory of approved creators with category chips, a search over name,
 * bio, niches, skills and location, and sorts. Lists are fetched only for approved creators, brands and admins.
 */
export default function CommunityView() {
  const { t } = useTranslation();
  const { user } = useOutletContext<DashboardContext>();
  const allowed = !isUnapprovedCreator(user);
  const [text, setText] = useState('');
  const [category, setCategory] = useState<CommunityCategory>('all');
  const [sort, setSort] = useState<CreatorSort>('newest');
  const search = useDebounced(text.trim());
  const query = useCreators({ search, category, sort }, allowed);

  if (!allowed) return <ApprovalGate />;

  const creators = query.data?.pages.flatMap((page) => page.data) ?? [];
  const total = query.data?.pages[0]?.pagination.total ?? 0;

  return (
    <section className="mt-6 space-y-4" data-testid="community-view">
      <SearchSortToolbar
        query={query}
        text={text}
        onText={setText}
        searchLabel={t('directory.community.search')}
        searchPlaceholder={t('directory.community.searchPlaceholder')}
        searchTestId="community-search"
        sort={sort}
        onSort={setSort}
        sortOptions={CREATOR_SORTS.map((value) => ({ value, label: t(`directory.creatorSorts.${value}`) }))}
        sortTestId="community-sort"
      />
      <FilterChips
        value={category}
        onChange={setCategory}
        label={t('directory.community.categories')}
        options={COMMUNITY_CATEGORIES.map((value) => ({ value, label: t(`directory.categories.${value}`) }))}
        testIdPrefix="community-category"
      />

      <PagedResults
        query={query}
        count={creators.length}
        loadingTestId="community-loading"
        emptyIcon={UsersRound}
        emptyTestId="community-empty"
        emptyMessage={search ? MESSAGES.directory.noVerifiedCreators : MESSAGES.directory.noCreators}
      >
        <p className="text-xs text-muted" aria-live="polite" data-testid="community-count">
          {t('directory.community.count', { count: total })}
        </p>
        <ul className={directoryGridClass} data-testid="creator-list">
          {creators.map((creator) => (
            <CreatorCardLink key={creator.id} creator={creator} />
          ))}
        </ul>
      </PagedResults>
    </section>
  );
}
