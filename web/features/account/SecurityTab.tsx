import { LogOut, Monitor, Smartphone, Tablet, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { DELETE_ACCOUNT_PHRASE, RECENT_SESSIONS_SHOWN } from '../../../common/api/account.constants.ts';
import type { SessionInfo } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError, fieldErrorsOf } from '../../api/client.ts';
import { clearSession } from '../../api/session.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { SwitchField } from '../../ui/controls.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { serverMessage } from '../billing/errors.ts';
import {
  useDeleteAccount,
  useRevokeAllSessions,
  useRevokeSession,
  useSecurity,
  useSecurityAction,
  useSessions,
} from './api.ts';
import { TwoFactorCard } from './TwoFactorCard.tsx';

const M = MESSAGES.account;
const DEVICE_ICONS = { desktop: Monitor, mobile: Smartphone, tablet: Tablet } as const;
const EMPTY_PASSWORDS = { currentPassword: '', newPassword: '', confirmPassword: '' };

function ChangePassword() {
  const { t } = useTranslation();
  const action = useSecurityAction();
  const [values, setValues] = useState(EMPTY_PASSWORDS);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof EMPTY_PASSWORDS | 'form', string>>>({});
  const set = (field: keyof typeof EMPTY_PASSWORDS) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      currentPassword: values.currentPassword ? undefined : translateMessage(M.currentPasswordRequired),
      newPassword: values.newPassword ? undefined : translateMessage(M.newPasswordRequired),
      confirmPassword: !values.confirmPassword
        ? t('account.security.confirmRequired')
        : values.confirmPassword !== values.newPassword
          ? translateMessage(M.passwordsMismatch)
          : undefined,
    };
    if (Object.values(next).some(Boolean)) return setErrors(next);
    setErrors({});
    action.mutate(
      { action: 'change_password', ...values },
      {
        onSuccess: (reply) => {
          setValues(EMPTY_PASSWORDS);
          toast.success(translateMessage(reply.message || M.passwordChanged));
        },
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          const raw = error instanceof ApiError ? error.message : '';
          if (Object.keys(fields).length > 0) {
            setErrors({
              currentPassword: fields.currentPassword && translateMessage(fields.currentPassword),
              newPassword: fields.newPassword && translateMessage(fields.newPassword),
              confirmPassword: fields.confirmPassword && translateMessage(fields.confirmPassword),
            });
          } else if (raw === M.currentPasswordWrong) {
            setErrors({ currentPassword: translateMessage(raw) });
          } else setErrors({ form: serverMessage(error, MESSAGES.generic.internal) });
        },
      },
    );
  };

  return (
    <Section title={t('account.security.passwordTitle')} testId="change-password">
      <form onSubmit={submit} noValidate className="max-w-md space-y-4">
        {errors.form && <FormMessage>{errors.form}</FormMessage>}
        <PasswordField
          id="security-current-password"
          label={t('account.security.currentPassword')}
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(e) => set('currentPassword')(e.target.value)}
          error={errors.currentPassword}
        />
        <PasswordField
          id="security-new-password"
          label={t('account.security.newPassword')}
          autoComplete="new-password"
          value={values.newPassword}
          onChange={(e) => set('newPassword')(e.target.value)}
          error={errors.newPassword}
        />
        <PasswordField
          id="security-confirm-password"
          label={t('account.security.confirmPassword')}
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(e) => set('confirmPassword')(e.target.value)}
          error={errors.confirmPassword}
        />
        <Button type="submit" loading={action.isPending} data-testid="change-password-submit">
          {t('account.security.changePassword')}
        </Button>
      </form>
    </Section>
  );
}

function Alerts({
  loginNotifications,
  suspiciousActivityAlerts,
}: {
  loginNotifications: boolean;
  suspiciousActivityAlerts: boolean;
}) {
  const { t } = useTranslation();
  const action = useSecurityAction();
  const update = (patch: { loginNotifications?: boolean; suspiciousActivityAlerts?: boolean }) =>
    action.mutate(
      { action: 'update_alerts', ...patch },
      {
        onSuccess: (reply) => toast.success(translateMessage(reply.message || M.alertsUpdated)),
        onError: (error) => toast.error(serverMessage(error, MESSAGES.generic.internal)),
      },
    );
  return (
    <Section title={t('account.security.alertsTitle')} testId="security-alerts">
      <div className="space-y-2">
        <SwitchField
          label={t('account.security.loginNotifications')}
          description={t('account.security.loginNotificationsHint')}
          checked={loginNotifications}
          disabled={action.isPending}
          onChange={(value) => update({ loginNotifications: value })}
          testId="login-notifications"
        />
        <SwitchField
          label={t('account.security.suspiciousAlerts')}
          description={t('account.security.suspiciousAlertsHint')}
          checked={suspiciousActivityAlerts}
          disabled={action.isPending}
          onChange={(value) => update({ suspiciousActivityAlerts: value })}
          testId="suspicious-alerts"
        />
      </div>
    </Section>
  );
}

function SessionRow({ session }: { session: SessionInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const date = useFormatDate();
  const revoke = useRevokeSession();
  const Icon = DEVICE_ICONS[session.deviceType] ?? Monitor;
  return (
    <li
      className="flex items-center gap-3 px-3.5 py-3"
      data-testid="session-row"
      data-current={session.current || undefined}
    >
      <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-surface-3 text-muted">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium">{t(`account.security.device.${session.deviceType}`)}</span>
          {session.current && (
            <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent">
              {t('account.security.thisDevice')}
            </span>
          )}
        </div>
        <div className="text-xs text-subtle">
          {session.location} · {t('account.security.lastSeen', { date: date(session.timestamp, true) })}
        </div>
      </div>
      <Button
        variant="ghost"
        size="sm"
        loading={revoke.isPending}
        data-testid="session-revoke"
        onClick={() =>
          revoke.mutate(session.id, {
            onSuccess: (reply) => {
              toast.success(translateMessage(reply.message || MESSAGES.auth.sessionRevoked));
              if (session.current) {
                navigate('/auth/login', { replace: true });
                clearSession();
              }
            },
            onError: (error) => toast.error(serverMessage(error, MESSAGES.generic.internal)),
          })
        }
      >
        {t('account.security.revoke')}
      </Button>
    </li>
  );
}

function Sessions({ sessions }: { sessions: SessionInfo[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const revokeAll = useRevokeAllSessions((reply) => {
    navigate('/auth/login', { replace: true });
    toast.success(translateMessage(reply.message || MESSAGES.auth.sessionsRevoked));
  });
  const [showAll, setShowAll] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const shown = showAll ? sessions : sessions.slice(0, RECENT_SESSIONS_SHOWN);

  return (
    <Section
      title={t('account.security.sessionsTitle')}
      description={t('account.security.sessionsHint')}
      testId="recent-sessions"
      actions={
        <Button variant="secondary" size="sm" onClick={() => setConfirm(true)} data-testid="revoke-all">
          <LogOut className="size-4 rtl:-scale-x-100" aria-hidden />
          {t('account.security.revokeAll')}
        </Button>
      }
    >
      {revokeAll.isError && (
        <div className="mb-3">
          <FormMessage>{t('account.security.revokeAllFailed')}</FormMessage>
        </div>
      )}
      {sessions.length === 0 ? (
        <p className="py-3 text-center text-sm text-muted">{t('account.security.noSessions')}</p>
      ) : (
        <ul className="divide-y divide-line rounded-xl border border-line">
          {shown.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
      )}
      {sessions.length > RECENT_SESSIONS_SHOWN && (
        <Button
          variant="ghost"
          size="sm"
          className="mt-2"
          onClick={() => setShowAll((v) => !v)}
          aria-expanded={showAll}
          data-testid="sessions-show-all"
        >
          {showAll ? t('account.security.showFewer') : t('account.security.showAll', { count: sessions.length })}
        </Button>
      )}
      <ConfirmPopup
        size="md"
        layerClassName="z-[70]"
        cancelLabel={t('account.common.cancel')}
        confirmTestId="revoke-all-dialog-confirm"
        open={confirm}
        onOpenChange={setConfirm}
        title={t('account.security.revokeAllTitle')}
        body={t('account.security.revokeAllBody')}
        confirmLabel={t('account.security.revokeAll')}
        pending={revokeAll.isPending}
        testId="revoke-all-dialog"
        onConfirm={() => revokeAll.mutate(undefined, { onError: () => setConfirm(false) })}
      />
    </Section>
  );
}

function DeleteAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteAccount((reply) => {
    navigate('/', { replace: true });
    toast.success(translateMessage(reply.message || M.deleted));
  });
  const [password, setPassword] = useState('');
  const [phrase, setPhrase] = useState('');
  const [errors, setErrors] = useState<{ password?: string; phrase?: string; form?: string }>({});
  const [confirm, setConfirm] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: password ? undefined : translateMessage(MESSAGES.validation.passwordRequired),
      phrase: phrase === DELETE_ACCOUNT_PHRASE ? undefined : translateMessage(M.deletePhraseMismatch),
    };
    if (next.password || next.phrase) return setErrors(next);
    setErrors({});
    setConfirm(true);
  };

  const doDelete = () =>
    remove.mutate(
      { password, confirmDelete: DELETE_ACCOUNT_PHRASE },
      {
        onError: (error) => {
          setConfirm(false);
          setErrors({ form: serverMessage(error, M.deleteFailed) });
        },
      },
    );

  return (
    <Section
      title={t('account.security.deleteTitle')}
      description={t('account.security.deleteHint')}
      tone="danger"
      testId="delete-account"
    >
      <form onSubmit={submit} noValidate className="max-w-md space-y-4">
        {errors.phrase && <FormMessage>{errors.phrase}</FormMessage>}
        {errors.form && <FormMessage>{errors.form}</FormMessage>}
        <PasswordField
          id="delete-password"
          label={t('account.security.currentPassword')}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <TextField
          id="delete-phrase"
          label={t('account.security.deletePhraseLabel', { phrase: DELETE_ACCOUNT_PHRASE })}
          dir="ltr"
          autoComplete="off"
          spellCheck={false}
          placeholder={DELETE_ACCOUNT_PHRASE}
          value={phrase}
          onChange={(e) => {
            setPhrase(e.target.value);
            setErrors((v) => ({ ...v, phrase: undefined }));
          }}
        />
        <Button type="submit" variant="danger" data-testid="delete-account-submit">
          <Trash2 className="size-4" aria-hidden />
          {t('account.security.deleteButton')}
        </Button>
      </form>
      <ConfirmPopup
        size="md"
        layerClassName="z-[70]"
        cancelLabel={t('account.common.cancel')}
        confirmTestId="delete-account-dialog-confirm"
        open={confirm}
        onOpenChange={setConfirm}
        title={t('account.security.deleteConfirmTitle')}
        body={t('account.security.deleteConfirmBody')}
        confirmLabel={t('account.security.deleteForever')}
        pending={remove.isPending}
        onConfirm={doDelete}
        testId="delete-account-dialog"
      />
    </Section>
  );
}

export function SecurityTab() {
  const { t } = useTranslation();
  const security = useSecurity();
  // Without the security state the session list still comes from the auth routes.
  const sessions = useSessions(security.isError);
  const list = security.data?.recentSessions ?? sessions.data;
  return (
    <div className="space-y-5" data-testid="account-security">
      <h2 className="text-xl font-semibold tracking-tight">{t('account.tabs.security')}</h2>
      <ChangePassword />
      {security.isPending ? (
        <Loading />
      ) : security.isError ? (
        <LoadError message={translateMessage(security.error.message)} onRetry={() => security.refetch()} />
      ) : (
        <>
          <TwoFactorCard enabled={security.data.twoFactorEnabled} recoveryCodesLeft={security.data.recoveryCodesLeft} />
          <Alerts
            loginNotifications={security.data.loginNotifications}
            suspiciousActivityAlerts={security.data.suspiciousActivityAlerts}
          />
        </>
      )}
      {list ? <Sessions sessions={list} /> : sessions.isPending && security.isError ? <Loading /> : null}
      <DeleteAccount />
    </div>
  );
}
