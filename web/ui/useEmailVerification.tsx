import { RotateCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { EMAIL_CODE } from '../../common/api/auth.constants.ts';
import { MESSAGES } from '../../common/messages.ts';
import { useResendVerification, useVerifyCode } from '../api/auth.ts';
import { ApiError } from '../api/client.ts';
import { translateMessage } from '../i18n/index.ts';
import { Button } from './Button.tsx';
import { useCodeEntry } from './CodeInput.tsx';

const V = MESSAGES.verification;

type VerifyState = 'input' | 'verifying' | 'success' | 'error';
type Notice = { kind: 'error' | 'info'; text: string } | null;

/** Seconds left of a cooldown, ticking once a second until it ends. */
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

interface Options {
  email: string;
  /** Focus the first box on arrival (the verification page; not the Profile tab). */
  autoFocus?: boolean;
  /** A sign-up waiting for its code: the code is sent with the email, and its acceptance signs in. */
  signUp?: boolean;
  /** After the code was accepted (the session is already stored). */
  onVerified?: () => void;
  /** The text of a refused code. */
  verifyError: (error: unknown) => string;
  /** The text of a refused resend. */
  resendError: (error: unknown) => string;
}

/**
 * Spec 4 Email verification: the six boxes (auto-submit, cleared and focused again after a wrong code), the
 * state input → verifying → success | error, and Resend with its cooldown (the server's, or 30 s).
 */
export function useEmailVerification({ email, signUp, autoFocus, onVerified, verifyError, resendError }: Options) {
  const verify = useVerifyCode();
  const resend = useResendVerification();
  const [state, setState] = useState<VerifyState>('input');
  const [notice, setNotice] = useState<Notice>(null);
  const [cooldown, startCooldown] = useCountdown();
  const entry = useCodeEntry({
    length: EMAIL_CODE.length,
    onComplete: (code) => submit(code),
    onEdit: () => setState((current) => (current === 'error' ? 'input' : current)),
    autoFocus,
  });

  const submit = (code: string) => {
    if (state === 'verifying' || state === 'success') return;
    setState('verifying');
    setNotice(null);
    verify.mutate(signUp ? { code, email } : { code }, {
      onSuccess: (reply) => {
        setState('success');
        toast.success(translateMessage(reply.message || V.verified));
        onVerified?.();
      },
      onError: (error) => {
        entry.retry();
        setState('error');
        setNotice({ kind: 'error', text: verifyError(error) });
      },
    });
  };

  const onResend = () => {
    if (resend.isPending || cooldown > 0) return;
    if (!email) {
      setNotice({ kind: 'error', text: translateMessage(V.emailUnavailable) });
      return;
    }
    resend.mutate(email, {
      onSuccess: (reply) => {
        startCooldown(reply.cooldownSeconds || EMAIL_CODE.resendCooldownSeconds);
        setNotice({ kind: 'info', text: translateMessage(reply.message || V.sent) });
      },
      onError: (error) => {
        const retryAfter =
          error instanceof ApiError
            ? (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds
            : undefined;
        if (typeof retryAfter === 'number' && retryAfter > 0) startCooldown(retryAfter);
        setNotice({ kind: 'error', text: resendError(error) });
      },
    });
  };

  /** Props for CodeInput. */
  const boxes = {
    ...entry.input,
    disabled: state === 'verifying' || state === 'success',
    invalid: state === 'error',
  };

  return { state, notice, cooldown, startCooldown, boxes, onResend, resending: resend.isPending };
}

export type EmailVerification = ReturnType<typeof useEmailVerification>;

/** Resend (with the seconds left of the cooldown while it runs). */
export function ResendCodeButton({ verification, testId }: { verification: EmailVerification; testId: string }) {
  const { t } = useTranslation();
  const { resending, cooldown, state, onResend } = verification;
  return (
    <Button
      variant="secondary"
      data-testid={testId}
      onClick={onResend}
      disabled={resending || cooldown > 0 || state === 'success'}
      loading={resending}
      aria-live="polite"
    >
      {!resending && <RotateCw className="size-4" aria-hidden />}
      {resending
        ? t('auth.verify.sending')
        : cooldown > 0
          ? t('auth.verify.resendIn', { seconds: cooldown })
          : t('auth.verify.resend')}
    </Button>
  );
}
