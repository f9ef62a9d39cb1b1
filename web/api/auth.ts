// TanStack Query hooks for /api/auth/*.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  MeReply,
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  PasswordResetRequestReply,
  RegisterBody,
  RegisterReply,
  resendVerificationReply,
  User,
  VerifyCodeReply,
} from '../../common/api/auth.ts';
import type { messageReply } from '../../common/api/envelope.ts';
import { OWN_ACCOUNT } from './account-events.ts';
import { ApiError, apiRequest } from './client.ts';
import { clearSession, getToken, saveSession, saveUser, useSession } from './session.ts';

export type Me = MeReply['data'];
/** The signed-in user for dashboard routes: what DashboardGuard passes its outlet (`useOutletContext<DashboardContext>()`). */
export type DashboardContext = Me;
type ResendVerificationReply = z.infer<typeof resendVerificationReply>;
type MessageReply = z.infer<typeof messageReply>;

export const meQueryKey = ['auth', 'me'] as const;

/** The signed-in user and credit balance. Disabled without a token; a 401 clears the token. */
export function useMe() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: [...meQueryKey, token],
    enabled: Boolean(token),
    meta: OWN_ACCOUNT,
    staleTime: 30_000,
    retry: (failures, error) => !(error instanceof ApiError && error.status > 0 && error.status < 500) && failures < 2,
    queryFn: async ({ signal }) => {
      try {
        const reply = await apiRequest<MeReply>('/api/auth/me', { signal });
        saveUser(reply.data.user);
        return reply.data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) clearSession();
        throw error;
      }
    },
  });
}

function useStoreSession() {
  const queryClient = useQueryClient();
  return (token: string, user: User) => {
    saveSession(token, user);
    queryClient.setQueryData<Me>([...meQueryKey, token], { user, credits: user.credits });
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  };
}

/** Starts a sign-up: the answer is the same for new and taken emails (a code, or a notice to the owner, is mailed). */
export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => apiRequest<RegisterReply>('/api/auth/register', { method: 'POST', body }),
  });
}

/** Forget the token and cached queries at once, then tell the server (which also clears its cookie). */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      const token = getToken();
      clearSession();
      queryClient.removeQueries();
      return apiRequest<MessageReply>('/api/auth/logout', { method: 'POST', token });
    },
  });
}

export function useVerifyCode() {
  const store = useStoreSession();
  return useMutation({
    /** With `email`: finishes a sign-up (creates the account and signs in); without: the signed-in user's email. */
    mutationFn: ({ code, email }: { code: string; email?: string }) =>
      apiRequest<VerifyCodeReply>('/api/auth/verify-code', {
        method: 'POST',
        body: email ? { email, code } : { code },
      }),
    onSuccess: (reply) => store(reply.token, reply.user),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<ResendVerificationReply>('/api/auth/resend-verification', { method: 'POST', body: { email } }),
  });
}

/** POST /api/auth/password-reset/request: the same answer whether or not an account has the email. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetRequestBody) =>
      apiRequest<PasswordResetRequestReply>('/api/auth/password-reset/request', { method: 'POST', body }),
  });
}

/** POST /api/auth/password-reset/confirm: the mailed code and the new password; every session is signed out. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetConfirmBody) =>
      apiRequest<MessageReply>('/api/auth/password-reset/confirm', { method: 'POST', body }),
    onSuccess: () => clearSession(),
  });
}
