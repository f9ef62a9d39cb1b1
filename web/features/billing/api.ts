// TanStack Query hooks for payments, credits history, the brand wallet and creator earnings (common/api/payments.ts).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { CREDITS_HISTORY_PAGE, PAYMENT_RETURN_URLS } from '../../../common/api/payments.constants.ts';
import type {
  CancelType,
  CheckoutReply,
  cancelSubscriptionReply,
  creditHistoryReply,
  earningsReply,
  packagesReply,
  SubscriptionCheckoutBody,
  subscriptionStatusReply,
  TopupBody,
  WalletReply,
  WalletTopupBody,
  walletTopupReply,
} from '../../../common/api/payments.ts';
import { OWN_ACCOUNT } from '../../api/account-events.ts';
import { meQueryKey } from '../../api/auth.ts';
import { apiRequest, getData } from '../../api/client.ts';

type PackagesReply = z.infer<typeof packagesReply>;
type SubscriptionStatusReply = z.infer<typeof subscriptionStatusReply>;
type CancelSubscriptionReply = z.infer<typeof cancelSubscriptionReply>;
type CreditHistoryReply = z.infer<typeof creditHistoryReply>;
type EarningsReply = z.infer<typeof earningsReply>;
type WalletTopupReply = z.infer<typeof walletTopupReply>;

const billingKeys = {
  packages: ['payment', 'packages'] as const,
  subscription: ['payment', 'subscription'] as const,
  history: ['credits', 'history'] as const,
  wallet: ['brands', 'wallet'] as const,
  earnings: ['creators', 'earnings'] as const,
};

export function usePackages(enabled = true) {
  return useQuery({
    queryKey: billingKeys.packages,
    enabled,
    staleTime: 5 * 60_000,
    queryFn: getData<PackagesReply>('/api/payment/packages'),
  });
}

/** Opens a checkout page (the local one or Stripe's): the app is left, so nothing else happens after this. */
function goToCheckout(url: string) {
  window.location.assign(url);
}

export function useBuyPackage() {
  return useMutation({
    mutationFn: (topupId: string) => {
      const body: TopupBody = {
        topupId,
        successUrl: PAYMENT_RETURN_URLS.topup.success,
        cancelUrl: PAYMENT_RETURN_URLS.topup.cancel,
      };
      return apiRequest<CheckoutReply>('/api/payment/topup', { method: 'POST', body });
    },
    onSuccess: (reply) => goToCheckout(reply.url),
  });
}

export function useSubscriptionStatus(enabled = true) {
  return useQuery({
    queryKey: billingKeys.subscription,
    enabled,
    meta: OWN_ACCOUNT,
    queryFn: getData<SubscriptionStatusReply>('/api/payment/subscription/status'),
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cancelType: CancelType) =>
      apiRequest<CancelSubscriptionReply>('/api/payment/subscription/cancel', {
        method: 'POST',
        body: { cancelType },
      }),
    onSuccess: (reply) => {
      queryClient.setQueryData(billingKeys.subscription, reply.data);
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

export function useSubscribe() {
  return useMutation({
    mutationFn: () => {
      const body: SubscriptionCheckoutBody = {
        successUrl: PAYMENT_RETURN_URLS.subscription.success,
        cancelUrl: PAYMENT_RETURN_URLS.subscription.cancel,
      };
      return apiRequest<CheckoutReply>('/api/payment/subscription/checkout', { method: 'POST', body });
    },
    onSuccess: (reply) => goToCheckout(reply.url),
  });
}

export function useCreditHistory(enabled = true) {
  const limit = CREDITS_HISTORY_PAGE.defaultLimit;
  return useInfiniteQuery({
    queryKey: billingKeys.history,
    enabled,
    meta: OWN_ACCOUNT,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<CreditHistoryReply>(`/api/credits/history?limit=${limit}&offset=${pageParam}`, { signal }).then(
        (r) => r.data,
      ),
    getNextPageParam: (last) =>
      last.pagination.hasMore ? last.pagination.offset + last.transactions.length : undefined,
  });
}

export function useWallet(enabled = true) {
  return useQuery({
    queryKey: billingKeys.wallet,
    enabled,
    meta: OWN_ACCOUNT,
    queryFn: ({ signal }) => apiRequest<WalletReply>('/api/brands/wallet', { signal }),
  });
}

export function useWalletTopup() {
  return useMutation({
    mutationFn: (amount: number) => {
      const body: WalletTopupBody = {
        amount,
        successUrl: PAYMENT_RETURN_URLS.wallet.success,
        cancelUrl: PAYMENT_RETURN_URLS.wallet.cancel,
      };
      return apiRequest<WalletTopupReply>('/api/brands/wallet/topup', { method: 'POST', body });
    },
    onSuccess: (reply) => goToCheckout(reply.checkout_url),
  });
}

export function useEarnings(enabled = true) {
  return useQuery({
    queryKey: billingKeys.earnings,
    enabled,
    meta: OWN_ACCOUNT,
    queryFn: getData<EarningsReply>('/api/creators/earnings'),
  });
}
