// TanStack Query hooks for /api/auth/*.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  MeReply,
  RegisterBody,
  resendVerificationReply,
  SessionReply,
  User,
  VerifyCodeReply,
} from '../../common/api/auth.ts';
import type { messageReply } from '../../common/api/envelope.ts';
import { ApiError, apiRequest } from './client.ts';
import { clearSession, getToken, saveSession, saveUser, useSession } from './session.ts';

export type Me = MeReply['data'];
type ResendVerificationReply = z.infer<typeof resendVerificationReply>;
type MessageReply = z.infer<typeof messageReply>;

export const meQueryKey = ['auth', 'me'] as const;

/** The signed-in user and credit balance. Disabled without a token; a 401 clears the token. */
export function useMe() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: [...meQueryKey, token],
    enabled: Boolean(token),
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

export function useRegister() {
  const store = useStoreSession();
  return useMutation({
    mutationFn: (body: RegisterBody) => apiRequest<SessionReply>('/api/auth/register', { method: 'POST', body }),
    onSuccess: (reply) => store(reply.data.token, reply.data.user),
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
    mutationFn: (code: string) =>
      apiRequest<VerifyCodeReply>('/api/auth/verify-code', { method: 'POST', body: { code } }),
    onSuccess: (reply) => store(reply.token, reply.user),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<ResendVerificationReply>('/api/auth/resend-verification', { method: 'POST', body: { email } }),
  });
}
