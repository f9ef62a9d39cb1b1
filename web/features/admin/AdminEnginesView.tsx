import { Cpu } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminEngineModel } from '../../../common/api/engines.ts';
import { vendorName } from '../../../common/rules/engines.ts';
import { ColumnHeads } from '../../ui/ColumnHeads.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAdminEngines } from './api.ts';

function EngineRow({ model }: { model: AdminEngineModel }) {
  const { t, i18n } = useTranslation();
  const time = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const call = model.lastCall;
  return (
    <tr
      data-testid="admin-engine-row"
      data-model={model.model}
      data-kind={model.kind}
      data-engine={model.engine}
      data-available={String(model.available)}
      className="align-top max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-2"
    >
      <td className="px-3 py-2 text-muted max-sm:px-1 max-sm:py-0.5">{t(`admin.engines.kinds.${model.kind}`)}</td>
      <th
        scope="row"
        className="px-3 py-2 text-start font-medium text-fg max-sm:order-first max-sm:col-span-2 max-sm:px-1 max-sm:py-0.5"
      >
        <span dir="ltr">{model.name}</span>
        <code className="ms-1.5 text-xs font-normal text-muted" dir="ltr">
          {model.model}
        </code>
      </th>
      <td className="whitespace-nowrap px-3 py-2 max-sm:px-1 max-sm:py-0.5" data-testid="admin-engine-engine">
        {model.engineKind === 'local' ? t('admin.engines.local') : (vendorName(model.engine) ?? model.engine)}
      </td>
      <td className="px-3 py-2 max-sm:px-1 max-sm:py-0.5" data-testid="admin-engine-status">
        {model.available ? (
          <span className="text-success">{t('admin.engines.available')}</span>
        ) : (
          <>
            <span className="font-medium text-danger">{t('admin.engines.unavailable')}</span>
            <p className="text-xs text-muted">{model.unavailableReason}</p>
          </>
        )}
        {model.enabledBy.length > 0 && model.engineKind === 'local' && (
          <p className="text-xs text-muted" dir="ltr">
            {t('admin.engines.setVariable', { variables: model.enabledBy.join(', ') })}
          </p>
        )}
      </td>
      <td
        className="px-3 py-2 text-xs max-sm:px-1 max-sm:py-0.5"
        data-testid="admin-engine-last-call"
        data-outcome={call?.outcome ?? 'none'}
      >
        {!call ? (
          <span className="text-muted">{t('admin.engines.noCall')}</span>
        ) : call.outcome === 'ok' ? (
          <span className="text-success">{t('admin.engines.ok', { time: time(call.at) })}</span>
        ) : (
          <span className="text-danger">
            {t('admin.engines.failedAt', { time: time(call.at), message: call.message ?? '' })}
          </span>
        )}
      </td>
    </tr>
  );
}

/** Dashboard view adminEngines: every model, the engine serving it and how that engine's last call ended. */
export default function AdminEnginesView() {
  const { t } = useTranslation();
  const query = useAdminEngines();
  const data = query.data;
  return (
    <section
      className="mt-6 space-y-3 rounded-2xl border border-line bg-surface p-4"
      aria-labelledby="admin-engines-title"
      data-testid="admin-engines-view"
    >
      <h2 id="admin-engines-title" className="flex items-center gap-2 text-sm font-semibold">
        <Cpu className="size-4 text-accent" aria-hidden />
        {t('admin.engines.heading')}
      </h2>
      <p className="text-xs text-muted">{t('admin.engines.intro')}</p>
      {data && (
        <p className="text-xs text-muted" data-testid="admin-engines-local">
          {data.localEngines ? t('admin.engines.localOn') : t('admin.engines.localOff')}
        </p>
      )}
      {query.isPending && (
        <div className="flex justify-center py-10" data-testid="admin-engines-loading">
          <Spinner className="size-6" label={t('admin.engines.loading')} />
        </div>
      )}
      {query.isError && (
        <p role="alert" className="text-sm text-danger">
          {t('admin.engines.failed')}
        </p>
      )}
      {data && (
        <div className="overflow-x-auto">
          <table className="w-full text-sm max-sm:block" data-testid="admin-engines-table">
            <ColumnHeads
              labels={[
                t('admin.engines.kind'),
                t('admin.engines.model'),
                t('admin.engines.engine'),
                t('admin.engines.status'),
                t('admin.engines.lastCall'),
              ]}
            />
            <tbody className="divide-y divide-line max-sm:block">
              {data.models.map((model) => (
                <EngineRow key={`${model.kind}:${model.model}`} model={model} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
