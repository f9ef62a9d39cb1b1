import { History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../common/api/admin.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { marketMessage } from '../../i18n/market-messages.ts';
import { Button } from '../../ui/Button.tsx';
import { LoadingState } from '../../ui/directory-parts.tsx';
import { ListFooter } from '../../ui/ListFooter.tsx';
import { useAuditLog } from './api.ts';

// First-strong isolates keep an email or a date in one piece inside a right-to-left sentence.
const isolate = (text: string) => `\u2068${text}\u2069`;

const str = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** Who or what an entry is about: the name or email the server kept in its details, else the id. */
function targetLabel(entry: AuditEntry): string {
  const d = entry.details;
  return str(d.email) ?? str(d.name) ?? str(d.companyName) ?? str(d.company_name) ?? entry.target_id;
}

function Entry({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const date = useFormatDate();
  const creatorType = str(entry.details.creatorType) ?? str(entry.details.creator_type);
  return (
    <li className="flex flex-col gap-0.5 py-2.5" data-testid="audit-entry" data-action={entry.action}>
      <p className="text-sm text-fg">
        <span className="font-medium">{t(`admin.audit.actions.${entry.action}`, entry.action)}</span>{' '}
        <bdi className="break-all text-muted" data-testid="audit-target">
          {targetLabel(entry)}
        </bdi>
        {creatorType && (
          <span className="ms-1.5 rounded-full bg-surface-3 px-2 py-0.5 text-xs text-muted">
            {t(`admin.creatorTypes.${creatorType}`, creatorType)}
          </span>
        )}
      </p>
      <p className="text-xs text-subtle">
        {t('admin.audit.by', { email: isolate(entry.admin_email), date: isolate(date(entry.created_at, true)) })}
      </p>
    </li>
  );
}

/** Every admin action, newest first. */
export function AuditLogPanel() {
  const { t } = useTranslation();
  const query = useAuditLog();
  const entries = query.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section
      aria-labelledby="audit-log-title"
      className="rounded-2xl border border-line bg-surface p-4"
      data-testid="audit-log"
    >
      <h2 id="audit-log-title" className="flex items-center gap-2 text-sm font-semibold">
        <History className="size-4 text-accent" aria-hidden />
        {t('admin.audit.title')}
      </h2>
      {query.isPending ? (
        <LoadingState testId="audit-loading" />
      ) : query.isError && entries.length === 0 ? (
        <div role="alert" className="mt-3 flex flex-col items-start gap-2 text-sm text-danger">
          {marketMessage(query.error.message)}
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common.retry')}
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <p className="mt-3 text-sm text-muted" data-testid="audit-empty">
          {t('admin.audit.empty')}
        </p>
      ) : (
        <>
          <ul className="mt-1 divide-y divide-line">
            {entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ul>
          <ListFooter query={query} />
        </>
      )}
    </section>
  );
}
