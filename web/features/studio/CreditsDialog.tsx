import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { EngineModelKind } from '../../../common/api/engines.ts';
import {
  AUDIO_MODEL,
  IMAGE_DEFAULTS,
  type PriceItem,
  VIDEO_DEFAULTS,
} from '../../../common/api/generation.constants.ts';
import { VIDEO_ENHANCE } from '../../../common/api/uploads.constants.ts';
import { useModelEngines } from '../../api/engines.ts';
import { useCreditsText } from '../../i18n/format.ts';
import { TopUpDialog } from '../billing/TopUpDialog.tsx';

/** Each row of the price list with the model whose engine decides it (its local preview price when local). */
const PRICE_ROWS: Array<{ key: PriceItem; kind: EngineModelKind; model: string; per?: 'image' }> = [
  { key: 'image', kind: 'image', model: IMAGE_DEFAULTS.model, per: 'image' },
  { key: 'image4k', kind: 'image', model: IMAGE_DEFAULTS.model, per: 'image' },
  { key: 'videoPro', kind: 'video', model: VIDEO_DEFAULTS.model },
  { key: 'videoStandard', kind: 'video', model: VIDEO_DEFAULTS.model },
  { key: 'videoDream', kind: 'video', model: 'seedance' },
  { key: 'videoRunway', kind: 'video', model: 'runway-gen4_turbo' },
  { key: 'music', kind: 'audio', model: AUDIO_MODEL },
  { key: 'voice', kind: 'audio', model: 'voice' },
  { key: 'imageUpscale', kind: 'upscale', model: 'realistic-skin' },
  { key: 'videoEnhancement', kind: 'upscale', model: VIDEO_ENHANCE.service },
];

/**
 * "Add Credits": the top-up dialog (balance, badge, packages, purchase through checkout) with what each
 * generation costs folded underneath. With a shortfall it suggests a package that covers it.
 */
export function CreditsDialog({
  open,
  onOpenChange,
  balance,
  shortfall,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  balance: number | null;
  shortfall?: number;
}) {
  const { t } = useTranslation();
  const creditsText = useCreditsText();
  const engines = useModelEngines();
  return (
    <TopUpDialog open={open} onOpenChange={onOpenChange} balance={balance} shortfall={shortfall}>
      <details className="group rounded-xl border border-line" data-testid="credits-dialog">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-4 py-3 text-sm font-medium">
          {t('studio.creditsDialog.pricesCaption')}
          <ChevronDown className="size-4 text-subtle transition-transform group-open:rotate-180" aria-hidden />
        </summary>
        <table className="w-full border-t border-line text-sm">
          <caption className="sr-only">{t('studio.creditsDialog.pricesCaption')}</caption>
          <tbody className="divide-y divide-line">
            {PRICE_ROWS.map((row) => {
              const engine = engines.model(row.kind, row.model);
              const credits = engine.prices[row.key];
              return (
                <tr key={row.key} data-engine-kind={engine.engineKind ?? undefined}>
                  <th scope="row" className="px-4 py-2 text-start font-normal text-fg">
                    {t(`studio.creditsDialog.prices.${row.key}`)}
                    {engine.engineKind === 'local' && (
                      <span className="ms-1 text-xs text-muted">{t('engines.localPreviewShort')}</span>
                    )}
                  </th>
                  <td className="px-4 py-2 text-end font-medium tabular-nums">
                    {row.per
                      ? t('studio.creditsDialog.perImage', { credits: creditsText(credits) })
                      : creditsText(credits)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </details>
    </TopUpDialog>
  );
}
