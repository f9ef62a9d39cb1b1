import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CAMPAIGN_LIMITS } from '../../../common/api/campaigns.constants.ts';
import { applyBody } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { fieldErrorsOf } from '../../api/client.ts';
import { useFormatEuros } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { FormMessage, TextAreaField, TextField } from '../../ui/Field.tsx';
import { useApply } from './api.ts';
import { campaignMessage, errorText } from './messages.ts';

/** The campaign application modal: a message to the brand and the creator's rate (euros). */
export function ApplyDialog({
  campaign,
  onClose,
}: {
  campaign: { id: string; title: string; budget: number | null };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const apply = useApply(campaign.id);
  const [message, setMessage] = useState('');
  const [rate, setRate] = useState('');
  const [errors, setErrors] = useState<{ message?: string; rate?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = applyBody.safeParse({ message, rate: rate.trim() === '' ? undefined : Number(rate) });
    if (!parsed.success) {
      const found: { message?: string; rate?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'message' || field === 'rate') && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    apply.mutate(parsed.data, {
      onSuccess: () => {
        toast.success(campaignMessage(MESSAGES.campaigns.applied));
        onClose();
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields.message || fields.rate) setErrors({ message: fields.message, rate: fields.rate });
        else setFailure(errorText(error, MESSAGES.generic.internal));
      },
    });
  };

  return (
    <DialogShell
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('campaigns.apply.title')}
      description={t('campaigns.apply.description', { title: campaign.title, budget: euros(campaign.budget ?? 0) })}
      testId="apply-dialog"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextAreaField
          id="apply-message"
          label={t('campaigns.apply.message')}
          placeholder={t('campaigns.apply.messagePlaceholder')}
          value={message}
          maxLength={CAMPAIGN_LIMITS.applicationMessageLength}
          onChange={(e) => setMessage(e.target.value)}
          error={errors.message ? campaignMessage(errors.message) : undefined}
          data-testid="apply-message"
        />
        <TextField
          id="apply-rate"
          label={t('campaigns.apply.rate')}
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          error={errors.rate ? campaignMessage(errors.rate) : undefined}
          hint={t('campaigns.apply.rateHint')}
          data-testid="apply-rate"
        />
        {failure && <FormMessage>{failure}</FormMessage>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={apply.isPending}>
            {t('campaigns.cancel')}
          </Button>
          <Button type="submit" loading={apply.isPending} data-testid="apply-submit">
            {t('campaigns.apply.submit')}
          </Button>
        </div>
      </form>
    </DialogShell>
  );
}
