import { Coins, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { PRICES } from '../../../common/constants.ts';
import { buttonClass } from '../../ui/Button.tsx';
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
 * "Add Credits": the balance and what each generation costs. Buying credits belongs to the Billing tab of the
 * account dialog, a later release; this dialog says so rather than pretending to sell anything.
 */
export function CreditsDialog({
  open,
  onOpenChange,
  balance,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  balance: number | null;
}) {
  const { t } = useTranslation();
  const creditsText = useCreditsText();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid="credits-dialog"
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl"
        >
          <div className="flex items-center gap-3 border-b border-line px-5 py-4">
            <span className="grid size-9 place-items-center rounded-xl bg-accent-soft text-accent">
              <Coins className="size-5" aria-hidden />
            </span>
            <Dialog.Title className="flex-1 text-base font-semibold">{t('studio.creditsDialog.title')}</Dialog.Title>
            <Dialog.Close
              className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              aria-label={t('common.close')}
            >
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="space-y-4 overflow-y-auto px-5 py-4">
            <div className="flex items-center justify-between rounded-xl border border-line bg-surface-2 px-4 py-3">
              <span className="text-sm text-muted">{t('studio.price.balance')}</span>
              <span className="text-lg font-semibold tabular-nums" data-testid="credits-dialog-balance">
                {balance === null ? '—' : creditsText(balance)}
              </span>
            </div>
            <Dialog.Description className="text-sm leading-relaxed text-muted">
              {t('studio.creditsDialog.body')}
            </Dialog.Description>
            <table className="w-full text-sm">
              <caption className="sr-only">{t('studio.creditsDialog.pricesCaption')}</caption>
              <tbody className="divide-y divide-line">
                {PRICE_ROWS.map((row) => (
                  <tr key={row.key}>
                    <th scope="row" className="py-2 text-start font-normal text-fg">
                      {t(`studio.creditsDialog.prices.${row.key}`)}
                    </th>
                    <td className="py-2 text-end font-medium tabular-nums">
                      {row.per
                        ? t('studio.creditsDialog.perImage', { credits: creditsText(row.credits) })
                        : creditsText(row.credits)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex justify-end border-t border-line px-5 py-3">
            <Dialog.Close className={buttonClass('secondary', 'sm')}>{t('common.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
