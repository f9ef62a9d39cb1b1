import { Copy, Download, KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { TWO_FACTOR } from '../../../common/api/account.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CodeInput, useCodeEntry } from '../../ui/CodeInput.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { Mono, Section } from '../../ui/Section.tsx';
import { serverMessage } from '../billing/errors.ts';
import { useTwoFactor } from './api.ts';

const M = MESSAGES.account;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('account.twoFactor.copied'));
    } catch {
      toast.error(t('account.twoFactor.copyFailed'));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(
      new Blob([`${TWO_FACTOR.issuer} recovery codes\n\n${text}\n`], { type: 'text/plain' }),
    );
    const link = document.createElement('a');
    link.href = url;
    link.download = 'genpro-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4" data-testid="recovery-codes">
      <FormMessage kind="success">{t('account.twoFactor.recoveryIntro')}</FormMessage>
      <ul className="grid grid-cols-2 gap-2 rounded-xl border border-line bg-surface-2 p-4 sm:grid-cols-2" dir="ltr">
        {codes.map((code) => (
          <li key={code} className="font-mono text-sm tracking-wide" data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={copy}>
          <Copy className="size-4" aria-hidden />
          {t('account.twoFactor.copy')}
        </Button>
        <Button variant="secondary" size="sm" onClick={download}>
          <Download className="size-4" aria-hidden />
          {t('account.twoFactor.download')}
        </Button>
        <Button size="sm" className="ms-auto" onClick={onDone} data-testid="recovery-done">
          {t('account.twoFactor.savedThem')}
        </Button>
      </div>
    </div>
  );
}

function EnableFlow({
  data,
  onCancel,
  onEnabled,
}: {
  data: { secret: string; qrCodeDataUrl: string };
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const { enable } = useTwoFactor();
  const [error, setError] = useState<string | null>(null);
  const entry = useCodeEntry({
    length: TWO_FACTOR.digits,
    onComplete: (code) => submit(code),
    onEdit: () => setError(null),
    autoFocus: false,
  });

  const submit = (code: string) => {
    if (enable.isPending) return;
    setError(null);
    enable.mutate(code, {
      onSuccess: (reply) => {
        toast.success(translateMessage(reply.message || M.twoFactorEnabled));
        onEnabled(reply.data.recoveryCodes);
      },
      onError: (err) => {
        entry.retry();
        setError(serverMessage(err, M.twoFactorInvalidCode));
      },
    });
  };

  return (
    <div className="space-y-5" data-testid="two-factor-setup">
      <ol className="list-decimal space-y-1 ps-5 text-sm text-muted">
        <li>{t('account.twoFactor.step1')}</li>
        <li>{t('account.twoFactor.step2')}</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img
          src={data.qrCodeDataUrl}
          alt={t('account.twoFactor.qrAlt')}
          className="size-44 shrink-0 rounded-xl bg-white p-2"
          data-testid="two-factor-qr"
        />
        <div className="min-w-0 space-y-1.5 self-stretch">
          <div className="text-sm font-medium">{t('account.twoFactor.manualKey')}</div>
          <Mono className="block rounded-lg border border-line bg-surface-2 px-3 py-2 text-sm break-all select-all">
            <span data-testid="two-factor-secret">{data.secret}</span>
          </Mono>
          <p className="text-xs text-subtle">{t('account.twoFactor.manualHint')}</p>
        </div>
      </div>
      <div className="max-w-sm space-y-3">
        <div className="text-sm font-medium">{t('account.twoFactor.enterCode')}</div>
        <CodeInput {...entry.input} disabled={enable.isPending} invalid={error !== null} />
        {error && <FormMessage>{error}</FormMessage>}
        <div className="flex gap-2">
          <Button
            onClick={() => submit(entry.code)}
            disabled={!entry.complete}
            loading={enable.isPending}
            data-testid="two-factor-verify"
          >
            {t('account.twoFactor.verify')}
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            {t('account.common.cancel')}
          </Button>
        </div>
      </div>
    </div>
  );
}

function DisableFlow({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { disable } = useTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string; form?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: password ? undefined : translateMessage(MESSAGES.validation.passwordRequired),
      code: code.trim().length >= TWO_FACTOR.digits ? undefined : translateMessage(M.twoFactorCodeFormat),
    };
    if (next.password || next.code) return setErrors(next);
    setErrors({});
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: (reply) => {
          toast.success(translateMessage(reply.message || M.twoFactorDisabled));
          onDone();
        },
        onError: (err) => setErrors({ form: serverMessage(err, MESSAGES.generic.internal) }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4" data-testid="two-factor-disable-form">
      {errors.form && <FormMessage>{errors.form}</FormMessage>}
      <PasswordField
        id="two-factor-disable-password"
        label={t('account.security.currentPassword')}
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
      />
      <TextField
        id="two-factor-disable-code"
        label={t('account.twoFactor.codeOrRecovery')}
        dir="ltr"
        autoComplete="one-time-code"
        spellCheck={false}
        value={code}
        maxLength={32}
        onChange={(e) => setCode(e.target.value)}
        error={errors.code}
        className="font-mono"
      />
      <div className="flex gap-2">
        <Button type="submit" variant="danger" loading={disable.isPending} data-testid="two-factor-disable-confirm">
          <ShieldOff className="size-4" aria-hidden />
          {t('account.twoFactor.disable')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('account.common.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** TOTP two-factor: setup with a QR code and secret, a first code, recovery codes shown once; disable. */
export function TwoFactorCard({ enabled, recoveryCodesLeft }: { enabled: boolean; recoveryCodesLeft: number }) {
  const { t } = useTranslation();
  const { setup } = useTwoFactor();
  const [mode, setMode] = useState<'idle' | 'enable' | 'disable'>('idle');
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <Section
      title={t('account.twoFactor.title')}
      description={t('account.twoFactor.hint')}
      testId="two-factor"
      actions={
        <span
          data-testid="two-factor-status"
          data-enabled={enabled}
          className={
            enabled
              ? 'rounded-full border border-success/30 bg-success-soft px-2.5 py-0.5 text-xs font-semibold text-success'
              : 'rounded-full border border-line bg-surface-2 px-2.5 py-0.5 text-xs font-semibold text-muted'
          }
        >
          {enabled ? t('account.twoFactor.on') : t('account.twoFactor.off')}
        </span>
      }
    >
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : mode === 'enable' && !enabled && setup.data ? (
        <EnableFlow
          data={setup.data}
          onCancel={() => setMode('idle')}
          onEnabled={(list) => {
            setMode('idle');
            setCodes(list);
          }}
        />
      ) : mode === 'disable' && enabled ? (
        <DisableFlow onDone={() => setMode('idle')} />
      ) : enabled ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm text-muted">
            <KeyRound className="size-4" aria-hidden />
            {t('account.twoFactor.codesLeft', { count: recoveryCodesLeft })}
          </p>
          <Button variant="secondary" onClick={() => setMode('disable')} data-testid="two-factor-disable">
            {t('account.twoFactor.disable')}
          </Button>
        </div>
      ) : (
        <div className="space-y-3">
          {setup.isError && <FormMessage>{serverMessage(setup.error, MESSAGES.generic.internal)}</FormMessage>}
          <Button
            onClick={() => setup.mutate(undefined, { onSuccess: () => setMode('enable') })}
            loading={setup.isPending}
            data-testid="two-factor-enable"
          >
            {!setup.isPending && <ShieldCheck className="size-4" aria-hidden />}
            {t('account.twoFactor.setUp')}
          </Button>
        </div>
      )}
    </Section>
  );
}
