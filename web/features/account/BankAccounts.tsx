import { BadgeCheck, Landmark, Plus, Star, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { BANK_ACCOUNT_LIMITS, IBAN_MAX_LENGTH } from '../../../common/api/account.constants.ts';
import type { BankAccount } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  bicError,
  type IbanError,
  ibanError,
  normalizeBic,
  normalizeIban,
} from '../../../common/rules/bank-accounts.ts';
import { ApiError, fieldErrorsOf } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { LoadError, Loading, Mono, Section } from '../../ui/Section.tsx';
import { serverMessage } from '../billing/errors.ts';
import { useBankAccountMutations, useBankAccounts } from './api.ts';

const M = MESSAGES.account;
const EMPTY = { accountHolderName: '', bankName: '', iban: '', bicSwift: '' };

/** IBAN as typed: upper case without spaces (the electronic form the server checks), at most 34 characters. */
const normaliseIban = (value: string) => normalizeIban(value).slice(0, IBAN_MAX_LENGTH);

/**
 * Whether to show the IBAN refusal yet: once the field was left, or as soon as typing can no longer fix it
 * by adding characters (wrong check digits at full length, longer than the country allows).
 */
function ibanErrorVisible(error: IbanError, iban: string, left: boolean): boolean {
  if (left) return true;
  if (error.key === 'ibanChecksum' || error.key === 'ibanTooLong') return true;
  return error.key === 'ibanLength' && iban.length > Number(error.params.length);
}

function AddBankAccount({ role, onDone }: { role: 'creator' | 'brand'; onDone: () => void }) {
  const { t } = useTranslation();
  const { add } = useBankAccountMutations(role);
  const [values, setValues] = useState(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof typeof EMPTY, string>>>({});
  const [left, setLeft] = useState<Partial<Record<'iban' | 'bicSwift', boolean>>>({});
  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setFieldErrors((e) => ({ ...e, [field]: undefined }));
  };
  // The same checks and messages as the server (common/rules/bank-accounts.ts); the server still checks.
  const ibanProblem = ibanError(values.iban);
  const bic = normalizeBic(values.bicSwift);
  const bicProblem = bic ? bicError(bic) : null;
  const valid = values.accountHolderName.trim() !== '' && !ibanProblem && !bicProblem;
  const ibanMessage =
    fieldErrors.iban ??
    (ibanProblem && ibanErrorVisible(ibanProblem, values.iban, left.iban === true)
      ? t(`messages.account.${ibanProblem.key}`, { ...ibanProblem.params, defaultValue: ibanProblem.message })
      : undefined);
  const bicMessage = fieldErrors.bicSwift ?? (bicProblem && left.bicSwift ? translateMessage(bicProblem) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || add.isPending) return;
    setFormError(null);
    add.mutate(values, {
      onSuccess: (reply) => {
        toast.success(translateMessage(reply.message || M.bankAccountAdded));
        setValues(EMPTY);
        onDone();
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        const raw = error instanceof ApiError ? error.message : '';
        const message = serverMessage(error, MESSAGES.generic.internal);
        // Show the server's refusal under the field it is about (its messages name IBAN or BIC).
        if (fields.iban || /IBAN/.test(raw)) setFieldErrors({ iban: translateMessage(fields.iban ?? raw) });
        else if (fields.bicSwift || /BIC/.test(raw))
          setFieldErrors({ bicSwift: translateMessage(fields.bicSwift ?? raw) });
        else if (fields.accountHolderName)
          setFieldErrors({ accountHolderName: translateMessage(fields.accountHolderName) });
        else setFormError(message);
      },
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded-xl border border-line bg-surface-2/50 p-4"
      data-testid="bank-account-form"
    >
      {formError && <FormMessage>{formError}</FormMessage>}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="bank-holder"
          label={t('account.bank.holder')}
          required
          value={values.accountHolderName}
          onChange={(e) => set('accountHolderName')(e.target.value)}
          maxLength={BANK_ACCOUNT_LIMITS.holderName}
          autoComplete="name"
          error={fieldErrors.accountHolderName}
        />
        <TextField
          id="bank-name"
          label={t('account.bank.bankName')}
          value={values.bankName}
          onChange={(e) => set('bankName')(e.target.value)}
          maxLength={BANK_ACCOUNT_LIMITS.bankName}
        />
        <TextField
          id="bank-iban"
          label={t('account.bank.iban')}
          required
          dir="ltr"
          autoComplete="off"
          spellCheck={false}
          className="font-mono uppercase"
          placeholder="DE89370400440532013000"
          value={values.iban}
          onChange={(e) => set('iban')(normaliseIban(e.target.value))}
          onBlur={() => setLeft((l) => ({ ...l, iban: true }))}
          error={ibanMessage}
          hint={t('account.bank.ibanHint', { max: IBAN_MAX_LENGTH })}
        />
        <TextField
          id="bank-bic"
          label={t('account.bank.bic')}
          dir="ltr"
          autoComplete="off"
          spellCheck={false}
          className="font-mono uppercase"
          placeholder="DEUTDEFF"
          value={values.bicSwift}
          maxLength={11}
          onChange={(e) => set('bicSwift')(e.target.value.toUpperCase())}
          onBlur={() => setLeft((l) => ({ ...l, bicSwift: true }))}
          error={bicMessage}
        />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onDone}>
          {t('account.common.cancel')}
        </Button>
        <Button type="submit" disabled={!valid} loading={add.isPending} data-testid="bank-account-add">
          {t('account.bank.add')}
        </Button>
      </div>
    </form>
  );
}

function AccountRow({
  account,
  role,
  onDelete,
}: {
  account: BankAccount;
  role: 'creator' | 'brand';
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { makePrimary } = useBankAccountMutations(role);
  return (
    <li
      className="flex flex-wrap items-center gap-3 px-3.5 py-3"
      data-testid="bank-account-row"
      data-primary={account.is_primary || undefined}
    >
      <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-surface-3 text-muted">
        <Landmark className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="truncate font-medium">{account.accountHolderName}</span>
          {account.is_primary && (
            <span className="inline-flex items-center gap-1 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent">
              <Star className="size-3" aria-hidden />
              {t('account.bank.primary')}
            </span>
          )}
          {account.is_verified && (
            <BadgeCheck className="size-4 text-success" aria-label={t('account.bank.verified')} />
          )}
        </div>
        <div className="text-xs text-muted">
          <Mono>{account.iban}</Mono>
          {account.bankName ? ` · ${account.bankName}` : ''}
          {account.bicSwift ? (
            <>
              {' · '}
              <Mono>{account.bicSwift}</Mono>
            </>
          ) : null}
        </div>
      </div>
      <div className="flex gap-1">
        {!account.is_primary && (
          <Button
            variant="ghost"
            size="sm"
            loading={makePrimary.isPending}
            onClick={() =>
              makePrimary.mutate(account.id, {
                onSuccess: (reply) => toast.success(translateMessage(reply.message || M.primaryUpdated)),
                onError: (error) => toast.error(serverMessage(error, MESSAGES.generic.internal)),
              })
            }
            data-testid="bank-make-primary"
          >
            {t('account.bank.makePrimary')}
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={onDelete}
          aria-label={t('account.bank.delete')}
          title={t('account.bank.delete')}
          data-testid="bank-delete"
          className="text-danger hover:bg-danger-soft hover:text-danger"
        >
          <Trash2 className="size-4" aria-hidden />
        </Button>
      </div>
    </li>
  );
}

export function BankAccounts({ role }: { role: 'creator' | 'brand' }) {
  const { t } = useTranslation();
  const accounts = useBankAccounts(role);
  const { remove } = useBankAccountMutations(role);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<BankAccount | null>(null);

  return (
    <Section
      title={t('account.bank.title')}
      description={t('account.bank.hint')}
      testId="bank-accounts"
      actions={
        !adding && (
          <Button variant="secondary" size="sm" onClick={() => setAdding(true)} data-testid="bank-account-new">
            <Plus className="size-4" aria-hidden />
            {t('account.bank.new')}
          </Button>
        )
      }
    >
      <div className="space-y-4">
        {adding && <AddBankAccount role={role} onDone={() => setAdding(false)} />}
        {accounts.isPending ? (
          <Loading />
        ) : accounts.isError ? (
          <LoadError message={translateMessage(accounts.error.message)} onRetry={() => accounts.refetch()} />
        ) : accounts.data.length === 0 ? (
          !adding && <p className="py-3 text-center text-sm text-muted">{t('account.bank.empty')}</p>
        ) : (
          <ul className="divide-y divide-line rounded-xl border border-line">
            {accounts.data.map((account) => (
              <AccountRow key={account.id} account={account} role={role} onDelete={() => setDeleting(account)} />
            ))}
          </ul>
        )}
      </div>
      <ConfirmPopup
        size="md"
        layerClassName="z-[70]"
        cancelLabel={t('account.common.cancel')}
        confirmTestId="bank-delete-dialog-confirm"
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('account.bank.deleteTitle')}
        body={deleting ? t('account.bank.deleteBody', { iban: deleting.iban }) : ''}
        confirmLabel={t('account.bank.delete')}
        pending={remove.isPending}
        testId="bank-delete-dialog"
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: (reply) => {
              toast.success(translateMessage(reply.message || M.bankAccountDeleted));
              setDeleting(null);
            },
            onError: (error) => {
              toast.error(serverMessage(error, MESSAGES.generic.internal));
              setDeleting(null);
            },
          });
        }}
      />
    </Section>
  );
}
