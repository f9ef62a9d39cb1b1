import { HardDrive } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminStorage, StorageTopUser } from '../../../common/api/admin.ts';
import { numberLocale, useFormatStorage } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { ColumnHeads } from '../../ui/ColumnHeads.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAdminStorage } from './api.ts';

const cell = 'px-3 py-2 max-sm:px-1 max-sm:py-0.5';

function UserRow({ user }: { user: StorageTopUser }) {
  const { t, i18n } = useTranslation();
  const size = useFormatStorage();
  return (
    <tr
      data-testid="admin-storage-user"
      data-user={user.userId}
      className="align-top max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-2"
    >
      <th scope="row" className={cn(cell, 'text-start font-medium text-fg max-sm:order-first max-sm:col-span-2')}>
        {user.name}
        <p className="text-xs font-normal text-muted" dir="ltr">
          {user.email}
        </p>
      </th>
      <td className={cn(cell, 'text-xs')}>
        <span className="sm:hidden text-muted">{t('admin.storage.account')}: </span>
        {t(`admin.storage.roles.${user.role}`, { defaultValue: user.role })}
        {' · '}
        <span className={user.isVerified ? 'text-muted' : 'text-warning'}>
          {user.isVerified ? t('admin.storage.verified') : t('admin.storage.unverified')}
        </span>
      </td>
      <td className={cn(cell, 'tabular-nums')}>
        <span className="sm:hidden text-muted">{t('admin.storage.files')}: </span>
        {new Intl.NumberFormat(numberLocale(i18n.language)).format(user.objects)}
      </td>
      <td className={cn(cell, 'font-medium tabular-nums')} data-testid="admin-storage-user-bytes">
        <span className="sm:hidden font-normal text-muted">{t('admin.storage.stored')}: </span>
        {size(user.usedBytes)}
      </td>
    </tr>
  );
}

function Totals({ data }: { data: AdminStorage }) {
  const { t } = useTranslation();
  const size = useFormatStorage();
  const share = data.budgetBytes ? Math.min(100, Math.round((data.usedBytes / data.budgetBytes) * 100)) : null;
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-3" data-testid="admin-storage-totals">
      <div className="rounded-xl border border-line p-3">
        <dt className="text-xs text-muted">{t('admin.storage.used')}</dt>
        <dd className="font-semibold tabular-nums" data-testid="admin-storage-used">
          {size(data.usedBytes)}
        </dd>
        <dd className="text-xs text-muted">{t('admin.storage.objects', { count: data.objects })}</dd>
      </div>
      <div className="rounded-xl border border-line p-3">
        <dt className="text-xs text-muted">{t('admin.storage.budget')}</dt>
        <dd className="font-semibold tabular-nums" data-testid="admin-storage-budget">
          {data.budgetBytes ? size(data.budgetBytes) : t('admin.storage.noBudget')}
        </dd>
        {share !== null && <dd className="text-xs text-muted">{t('admin.storage.budgetShare', { percent: share })}</dd>}
        <dd className="text-xs text-muted">{t('admin.storage.userQuota', { size: size(data.userQuotaBytes) })}</dd>
      </div>
      <div className="rounded-xl border border-line p-3">
        <dt className="text-xs text-muted">{t('admin.storage.disk')}</dt>
        <dd className="font-semibold tabular-nums" data-testid="admin-storage-disk">
          {data.disk
            ? t('admin.storage.diskFree', { free: size(data.disk.freeBytes), total: size(data.disk.totalBytes) })
            : t('admin.storage.noDisk')}
        </dd>
        {data.disk && (
          <dd className="text-xs text-muted">{t('admin.storage.reserve', { size: size(data.disk.reserveBytes) })}</dd>
        )}
      </div>
    </dl>
  );
}

/**
 * The studio's storage on the admin Workers view (issue 27): bytes stored against STORAGE_BUDGET_GB, the free
 * disk against its reserve, whether new writes are refused, and the users storing the most.
 */
export default function AdminStorageView() {
  const { t } = useTranslation();
  const query = useAdminStorage();
  const data = query.data?.data;
  return (
    <section
      className="mt-6 space-y-3 rounded-2xl border border-line bg-surface p-4"
      aria-labelledby="admin-storage-title"
      data-testid="admin-storage-view"
    >
      <h2 id="admin-storage-title" className="flex items-center gap-2 text-sm font-semibold">
        <HardDrive className="size-4 text-accent" aria-hidden />
        {t('admin.storage.heading')}
      </h2>
      <p className="text-xs text-muted">{t('admin.storage.intro')}</p>
      {query.isPending && (
        <div className="flex justify-center py-10" data-testid="admin-storage-loading">
          <Spinner className="size-6" label={t('admin.storage.loading')} />
        </div>
      )}
      {query.isError && !data && (
        <div role="alert" className="flex flex-col items-start gap-2 text-sm text-danger">
          {t('admin.storage.failed')}
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common.retry')}
          </Button>
        </div>
      )}
      {data && (
        <>
          <p
            role="status"
            className={cn('text-xs font-medium', data.full ? 'text-danger' : 'text-success')}
            data-testid="admin-storage-summary"
          >
            {data.full ? t('admin.storage.full') : t('admin.storage.room')}
          </p>
          <Totals data={data} />
          <h3 className="pt-2 text-xs font-semibold text-muted">{t('admin.storage.topUsers')}</h3>
          {data.topUsers.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted" data-testid="admin-storage-empty">
              {t('admin.storage.empty')}
            </p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm max-sm:block" data-testid="admin-storage-table">
                <ColumnHeads
                  labels={[
                    t('admin.storage.user'),
                    t('admin.storage.account'),
                    t('admin.storage.files'),
                    t('admin.storage.stored'),
                  ]}
                />
                <tbody className="divide-y divide-line max-sm:block">
                  {data.topUsers.map((user) => (
                    <UserRow key={user.userId} user={user} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
