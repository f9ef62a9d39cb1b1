import { useTranslation } from 'react-i18next';
import { ASSET_SORTS, type AssetSort } from '../../../common/api/assets.ts';
import { SelectField } from '../../ui/controls.tsx';
import { FilterChips, SearchBox } from '../../ui/directory-parts.tsx';

/** The Library's type filters, each the asset types it lists (persona images and 4K upscales are images). */
export const TYPE_FILTERS = {
  all: undefined,
  images: 'image|enhancement|persona',
  videos: 'video|video_enhancement',
  audio: 'audio',
} as const;
type TypeFilter = keyof typeof TYPE_FILTERS;
export const TYPE_FILTER_IDS = Object.keys(TYPE_FILTERS) as TypeFilter[];

/** Search by prompt, sort, and the type chips; the values live in the URL (LibraryView). */
export function LibraryToolbar({
  text,
  onText,
  searching,
  sort,
  onSort,
  type,
  onType,
}: {
  text: string;
  onText: (text: string) => void;
  searching: boolean;
  sort: AssetSort;
  onSort: (sort: AssetSort) => void;
  type: TypeFilter;
  onType: (type: TypeFilter) => void;
}) {
  const { t } = useTranslation();
  return (
    <search aria-label={t('library.toolbar')} className="block space-y-3" data-testid="library-toolbar">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchBox
          value={text}
          onChange={onText}
          label={t('library.search')}
          placeholder={t('library.searchPlaceholder')}
          clearLabel={t('library.clearSearch')}
          busy={searching}
          testId="library-search"
        />
        <SelectField
          variant="inline"
          label={t('library.sort')}
          value={sort}
          onChange={onSort}
          options={ASSET_SORTS.map((value) => ({ value, label: t(`library.sorts.${value}`) }))}
          testId="library-sort"
        />
      </div>
      <FilterChips
        value={type}
        onChange={onType}
        label={t('library.type')}
        testIdPrefix="library-type"
        options={TYPE_FILTER_IDS.map((value) => ({ value, label: t(`library.types.${value}`) }))}
      />
    </search>
  );
}
