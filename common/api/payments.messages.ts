// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const PAYMENTS_MESSAGES = {
  credits: {
    insufficient: 'Insufficient credits',
    /** Our own balance falls short of a paid action by `count` credits (issue 18). */
    needMore: withParams(
      ['count'],
      (count: number) => `You need ${count.toLocaleString('en')} more ${count === 1 ? 'credit' : 'credits'}`,
    ),
  },
  payments: {
    startFailed: 'Failed to start purchase. Please try again.',
    notConfigured: 'Payments are not configured',
    genericError: 'An error occurred. Please try again.',
    walletLoadFailed: 'Failed to load wallet balance',
    walletConnectFailed: 'Failed to connect to wallet',
    cancelFailed: 'Failed to cancel subscription. Please try again.',
    unknownPackage: 'This top-up package does not exist',
    redirectNotAllowed: 'Return URLs must point to this site',
    orderNotFound: 'Order not found',
    orderNotOpen: 'This order has already been completed or cancelled',
    orderTokenInvalid: 'This checkout link is no longer valid. Please start the purchase again.',
    amountMin: withParams(['min'], (min: number) => `The amount must be at least €${min}`),
    amountMax: withParams(['max'], (max: number) => `The amount must be at most €${max}`),
    amountDecimals: 'The amount can have at most 2 decimals',
    amountRequired: 'Enter an amount in euros',
    brandOnly: 'Only brand accounts have a campaign wallet',
    creatorOnly: 'Only creator accounts have earnings',
    noSubscription: 'You do not have a subscription',
    cannotCancel: 'This subscription cannot be cancelled',
    alreadySubscribed: 'Your subscription is already active',
    subscriptionCancelledNow: 'Your subscription has been cancelled',
    subscriptionCancelsAtPeriodEnd: 'Your subscription will end at the end of the current period',
    stripeNotConfigured: 'Stripe is not configured for subscriptions',
    webhookSignature: 'Invalid webhook signature',
    providerFailed: 'The payment provider could not be reached. Please try again.',
    insufficientFunds: 'Insufficient wallet balance',
  },
} as const;
