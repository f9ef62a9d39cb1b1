import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PRICES } from '../../../common/constants.ts';
import { TopUpDialog } from '../billing/TopUpDialog.tsx';
import { useCreditsText } from './format.ts';

const PRICE_ROWS: Array<{ key: string; credits: number; per?: 'image' }> = [
  { key: 'image', credits: PRICES.image, per: 'image' },
  { key: 'image4k', credits: PRICES.image4k, per: 'image' },
  { key: 'videoPro', credits: PRICES.videoPro },
  { key: 'videoStandard', credits: PRICES.videoStandard },
  { key: 'videoDream', credits: PRICES.videoDream },
  { key: 'videoRunway', credits: PRICES.videoRunway },
  { key: 'music', credits: PRICES.music },
  { key: 'voice', credits: PRICES.voice },
  { key: 'imageUpscale', credits: PRICES.imageUpscale },
  { key: 'videoEnhancement', credits: PRICES.videoEnhancement },
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
            {PRICE_ROWS.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="px-4 py-2 text-start font-normal text-fg">
                  {t(`studio.creditsDialog.prices.${row.key}`)}
                </th>
                <td className="px-4 py-2 text-end font-medium tabular-nums">
                  {row.per
                    ? t('studio.creditsDialog.perImage', { credits: creditsText(row.credits) })
                    : creditsText(row.credits)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </TopUpDialog>
  );
}
