import { CircleCheck, LogOut, MailCheck, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { EMAIL_CODE } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useMe, useResendVerification, useVerifyCode } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { useSignOut } from '../../app/useSignOut.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { CodeInput, type CodeInputHandle } from './CodeInput.tsx';

type VerifyState = 'input' | 'verifying' | 'success' | 'error';
type Notice = { kind: 'error' | 'info'; text: string } | null;

const emptyDigits = () => Array.from({ length: EMAIL_CODE.length }, () => '');

/** Seconds left until `until` (ms timestamp), ticking once a second. */
function useCountdown() {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [until]);
  const remaining = Math.max(0, Math.ceil((until - now) / 1000));
  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setUntil(current + seconds * 1000);
  }, []);
  return [remaining, start] as const;
}

function verifyErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return translateMessage(MESSAGES.verification.network);
    if (error.status >= 500) return translateMessage(MESSAGES.verification.invalidCode);
    return translateMessage(error.message || MESSAGES.verification.invalidCode);
  }
  return translateMessage(MESSAGES.verification.network);
}

function resendErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return translateMessage(MESSAGES.verification.network);
    if (error.status === 429 || (error.status >= 400 && error.status < 500)) return translateMessage(error.message);
  }
  return translateMessage(MESSAGES.verification.sendFailed);
}

export default function VerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const token = useSession((s) => s.token);
  const storedUser = useSession((s) => s.storedUser);
  const me = useMe();
  const verify = useVerifyCode();
  const resend = useResendVerification();
  const { signOut, pending: signingOut } = useSignOut();

  const routeState = location.state as { email?: string; codeSent?: boolean } | null;
  const email = routeState?.email || params.get('email') || me.data?.user.email || storedUser?.email || '';

  const [digits, setDigits] = useState(emptyDigits);
  const [state, setState] = useState<VerifyState>('input');
  const [notice, setNotice] = useState<Notice>(null);
  const [cooldown, startCooldown] = useCountdown();
  const codeInput = useRef<CodeInputHandle>(null);

  // A code was sent with the registration: the resend cooldown starts now.
  useEffect(() => {
    if (routeState?.codeSent) startCooldown(EMAIL_CODE.resendCooldownSeconds);
  }, [routeState?.codeSent, startCooldown]);

  // Focus the first box on arrival and again after a failed attempt (the boxes are cleared).
  useEffect(() => {
    if (state === 'error') codeInput.current?.focusFirst();
  }, [state]);
  useEffect(() => {
    codeInput.current?.focusFirst();
  }, []);

  useEffect(() => {
    document.title = `${t('auth.verify.title')} · GenPro Studio`;
  }, [t]);

  const submit = (code: string) => {
    if (state === 'verifying' || state === 'success') return;
    setState('verifying');
    setNotice(null);
    verify.mutate(code, {
      onSuccess: (reply) => {
        setState('success');
        toast.success(translateMessage(reply.message || MESSAGES.verification.verified));
        navigate('/dashboard', { replace: true });
      },
      onError: (error) => {
        setDigits(emptyDigits());
        setState('error');
        setNotice({ kind: 'error', text: verifyErrorMessage(error) });
      },
    });
  };

  const onResend = () => {
    if (resend.isPending || cooldown > 0) return;
    if (!email) {
      setNotice({ kind: 'error', text: translateMessage(MESSAGES.verification.emailUnavailable) });
      return;
    }
    resend.mutate(email, {
      onSuccess: (reply) => {
        startCooldown(reply.cooldownSeconds || EMAIL_CODE.resendCooldownSeconds);
        setNotice({ kind: 'info', text: translateMessage(reply.message || MESSAGES.verification.sent) });
      },
      onError: (error) => {
        const retryAfter = (error instanceof ApiError &&
          (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds) as unknown;
        if (typeof retryAfter === 'number' && retryAfter > 0) startCooldown(retryAfter);
        setNotice({ kind: 'error', text: resendErrorMessage(error) });
      },
    });
  };

  if (!token && state !== 'success') {
    return (
      <AuthLayout title={t('auth.verify.title')} subtitle={t('auth.verify.loginFirst')}>
        <Link to="/auth/login" className={buttonClass('primary', 'lg', 'w-full')}>
          {t('auth.login.submit')}
        </Link>
      </AuthLayout>
    );
  }
  if (me.data?.user.is_verified && state === 'input') return <Navigate to="/dashboard" replace />;

  return (
    <AuthLayout
      title={t('auth.verify.title')}
      subtitle={
        email ? (
          <>
            {t('auth.verify.sentTo')}{' '}
            <span className="font-medium text-fg" dir="ltr" data-testid="verify-email">
              {email}
            </span>
          </>
        ) : (
          t('auth.verify.sentToYou')
        )
      }
      footer={
        <button
          type="button"
          onClick={signOut}
          disabled={signingOut}
          className="inline-flex items-center gap-1.5 text-muted hover:text-fg"
        >
          <LogOut className="size-4 rtl:-scale-x-100" aria-hidden />
          {t('auth.verify.differentAccount')}
        </button>
      }
    >
      <div
        className="rounded-2xl border border-line bg-surface p-5 sm:p-6"
        data-testid="verify-panel"
        data-state={state}
      >
        <div className="mb-5 flex items-center gap-3">
          <span className="grid size-10 place-items-center rounded-xl bg-accent-soft text-accent">
            {state === 'success' ? (
              <CircleCheck className="size-5" aria-hidden />
            ) : (
              <MailCheck className="size-5" aria-hidden />
            )}
          </span>
          <p className="text-sm text-muted">{t('auth.verify.instructions', { length: EMAIL_CODE.length })}</p>
        </div>

        <CodeInput
          ref={codeInput}
          length={EMAIL_CODE.length}
          digits={digits}
          onChange={(next) => {
            setDigits(next);
            if (state === 'error') setState('input');
          }}
          onComplete={submit}
          disabled={state === 'verifying' || state === 'success'}
          invalid={state === 'error'}
        />

        <div className="mt-4 min-h-6" aria-live="polite">
          {state === 'verifying' && (
            <div className="flex items-center gap-2 text-sm text-muted" data-testid="verify-status">
              <Spinner className="size-4" />
              {t('auth.verify.verifying')}
            </div>
          )}
          {state === 'success' && (
            <div className="flex items-center gap-2 text-sm text-success" data-testid="verify-status">
              <CircleCheck className="size-4" aria-hidden />
              {translateMessage(MESSAGES.verification.verified)}
            </div>
          )}
          {notice && state !== 'verifying' && state !== 'success' && (
            <FormMessage kind={notice.kind}>{notice.text}</FormMessage>
          )}
        </div>

        <div className="mt-5 flex flex-col items-stretch gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
          <span className="text-sm text-muted">{t('auth.verify.noCode')}</span>
          <Button
            variant="secondary"
            data-testid="resend-button"
            onClick={onResend}
            disabled={resend.isPending || cooldown > 0 || state === 'success'}
            loading={resend.isPending}
            aria-live="polite"
          >
            {!resend.isPending && <RotateCw className="size-4" aria-hidden />}
            {resend.isPending
              ? t('auth.verify.sending')
              : cooldown > 0
                ? t('auth.verify.resendIn', { seconds: cooldown })
                : t('auth.verify.resend')}
          </Button>
        </div>
      </div>
    </AuthLayout>
  );
}
