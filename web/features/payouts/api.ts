// TanStack Query hooks of creator payouts and their admin side (common/api/payouts.ts).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayoutStatus } from '../../../common/api/payments.constants.ts';
import type {
  AdminPayoutReply,
  AdminPayoutsReply,
  ConnectOnboardingReply,
  ConnectStatusReply,
  PayoutReply,
  PayoutsReply,
} from '../../../common/api/payouts.ts';
import { OWN_ACCOUNT } from '../../api/account-events.ts';
import { apiRequest, getData } from '../../api/client.ts';

const payoutsKey = ['creators', 'payouts'] as const;
const earningsKey = ['creators', 'earnings'] as const;
const adminKey = ['admin', 'payouts'] as const;

export function usePayouts() {
  return useQuery({ queryKey: payoutsKey, meta: OWN_ACCOUNT, queryFn: getData<PayoutsReply>('/api/creators/payouts') });
}

/** After a payout changes, the payouts and the earnings (balance and ledger rows) are read again. */
function useRefreshCreator() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: payoutsKey }),
      queryClient.invalidateQueries({ queryKey: earningsKey }),
    ]);
}

export function useRequestPayout() {
  const refresh = useRefreshCreator();
  return useMutation({
    mutationFn: (amount: number) =>
      apiRequest<PayoutReply>('/api/creators/payouts', { method: 'POST', body: { amount } }),
    onSettled: refresh,
  });
}

export function useCancelPayout() {
  const refresh = useRefreshCreator();
  return useMutation({
    mutationFn: (id: string) => apiRequest<PayoutReply>(`/api/creators/payouts/${id}/cancel`, { method: 'POST' }),
    onSettled: refresh,
  });
}

export function useAdminPayouts(status: PayoutStatus | 'all') {
  return useQuery({
    queryKey: [...adminKey, status],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiRequest<AdminPayoutsReply>(`/api/admin/payouts?limit=100${status === 'all' ? '' : `&status=${status}`}`, {
        signal,
      }),
  });
}

export type PayoutDecision = { id: string } & ({ paid: true; reference: string } | { paid: false; reason: string });

export function useDecidePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: PayoutDecision) =>
      apiRequest<AdminPayoutReply>(`/api/admin/payouts/${decision.id}/${decision.paid ? 'mark-paid' : 'mark-failed'}`, {
        method: 'POST',
        body: decision.paid ? { reference: decision.reference } : { reason: decision.reason },
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKey }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit-log'] }),
      ]),
  });
}

const connectKey = ['creators', 'stripe-connect'] as const;

/** The studio's payout mode and the creator's Stripe Connect account as Stripe last reported it. */
export function useConnectStatus(enabled = true) {
  return useQuery({
    queryKey: connectKey,
    meta: OWN_ACCOUNT,
    queryFn: getData<ConnectStatusReply>('/api/creators/stripe-connect'),
    enabled,
  });
}

/** Starts or resumes onboarding: the answer's url is Stripe's onboarding page, to open in this tab. */
export function useStartOnboarding() {
  return useMutation({
    mutationFn: () => apiRequest<ConnectOnboardingReply>('/api/creators/stripe-connect/onboarding', { method: 'POST' }),
  });
}

/** Reads the account from Stripe again (on return from onboarding, or when asked). */
export function useRefreshConnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<ConnectStatusReply>('/api/creators/stripe-connect/refresh', { method: 'POST' }),
    onSuccess: (reply) => queryClient.setQueryData(connectKey, reply.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}
