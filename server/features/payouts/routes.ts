import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import {
  adminPayoutReply,
  adminPayoutsQuery,
  adminPayoutsReply,
  connectOnboardingReply,
  connectStatusReply,
  markPayoutFailedBody,
  markPayoutPaidBody,
  payoutIdParams,
  payoutReply,
  payoutRequestHeaders,
  payoutsReply,
  requestPayoutBody,
  stripeAccountBody,
  stripeAccountReply,
} from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireRole, requireUser } from '../../platform/auth/session.ts';
import type { ZodApp } from '../../platform/http/zod-app.ts';
import { connectStatus, refreshConnectStatus, startOnboarding } from './connect.ts';
import {
  adminListPayouts,
  cancelPayout,
  markPayout,
  type PayoutDeps,
  payoutOverview,
  requestPayout,
  retryTransfer,
  setStripeAccount,
} from './service.ts';
import { createPayoutTransfers, createStripeConnect } from './stripe-transfers.ts';

const errors = errorReplies(400, 401, 403, 404, 409);
const connectErrors = errorReplies(400, 401, 403, 404, 409, 502);
const bearer = [{ bearer: [] }];
const m = MESSAGES.payouts;
const creator = requireRole('creator', m.creatorOnly);
const adminOnly = requireUser({ roles: ['admin'] });

/** Creator payouts and their admin side (docs/payments.md "Payouts"). */
export function payoutRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps: PayoutDeps = {
    ...ctx,
    transfers: createPayoutTransfers(ctx.config),
    connect: createStripeConnect(ctx.config),
  };
  return async (app) => {
    registerCreatorPayoutRoutes(app, deps);
    registerAdminPayoutRoutes(app, deps);
  };
}

/** The creator's payouts and Stripe Connect account. */
function registerCreatorPayoutRoutes(app: ZodApp, deps: PayoutDeps): void {
  app.get(
    '/api/creators/payouts',
    {
      preValidation: creator,
      schema: {
        tags: ['payouts'],
        summary: 'The creator’s payouts, newest first, and whether a payout can be requested now',
        security: bearer,
        response: { 200: payoutsReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await payoutOverview(deps, currentUser(request).id) }),
  );

  app.post(
    '/api/creators/payouts',
    {
      preValidation: creator,
      schema: {
        tags: ['payouts'],
        summary: 'Requests a payout of `amount` euros from earnings to the primary bank account (one at a time)',
        description: 'Send an Idempotency-Key header to make a retry safe: the same key answers the same payout (200).',
        security: bearer,
        headers: payoutRequestHeaders,
        body: requestPayoutBody,
        response: { 200: payoutReply, 201: payoutReply, ...errors },
      },
    },
    async (request, reply) => {
      const { payout, created } = await requestPayout(
        deps,
        currentUser(request).id,
        request.body.amount,
        request.headers['idempotency-key'],
      );
      return reply.code(created ? 201 : 200).send({ success: true as const, message: m.requested, data: payout });
    },
  );

  app.get(
    '/api/creators/stripe-connect',
    {
      preValidation: creator,
      schema: {
        tags: ['payouts'],
        summary: 'How this studio pays creators, and the creator’s Stripe Connect account as last read from Stripe',
        security: bearer,
        response: { 200: connectStatusReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await connectStatus(deps, currentUser(request).id) }),
  );

  app.post(
    '/api/creators/stripe-connect/onboarding',
    {
      preValidation: creator,
      schema: {
        tags: ['payouts'],
        summary: 'Starts (or resumes) Stripe Connect onboarding: the Express account once, then a new Account Link',
        description: '409 `connect_unavailable` when Stripe is not configured; 502 when Stripe does not answer.',
        security: bearer,
        response: { 200: connectOnboardingReply, ...connectErrors },
      },
    },
    async (request) => ({ success: true as const, data: await startOnboarding(deps, currentUser(request)) }),
  );

  app.post(
    '/api/creators/stripe-connect/refresh',
    {
      preValidation: creator,
      schema: {
        tags: ['payouts'],
        summary: 'Reads the creator’s connected account from Stripe (on return from onboarding) and keeps its status',
        security: bearer,
        response: { 200: connectStatusReply, ...connectErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await refreshConnectStatus(deps, currentUser(request).id),
    }),
  );

  app.post(
    '/api/creators/payouts/:id/cancel',
    {
      preValidation: creator,
      schema: {
        tags: ['payouts'],
        summary: 'Cancels a pending manual payout; the amount returns to earnings',
        security: bearer,
        params: payoutIdParams,
        response: { 200: payoutReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: m.cancelled,
      data: await cancelPayout(deps, currentUser(request).id, request.params.id),
    }),
  );
}

/** Paying out by hand, retrying Stripe transfers, and the creators' Stripe accounts. */
function registerAdminPayoutRoutes(app: ZodApp, deps: PayoutDeps): void {
  app.get(
    '/api/admin/payouts',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Every payout (or one status), newest first, with the full bank details to pay it',
        security: bearer,
        querystring: adminPayoutsQuery,
        response: { 200: adminPayoutsReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await adminListPayouts(deps, request.query)) }),
  );

  app.post(
    '/api/admin/payouts/:id/mark-paid',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Records a pending manual payout as paid, with the bank transfer reference',
        security: bearer,
        params: payoutIdParams,
        body: markPayoutPaidBody,
        response: { 200: adminPayoutReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: m.markedPaid,
      data: await markPayout(deps, currentUser(request), request.params.id, {
        paid: true,
        reference: request.body.reference,
      }),
    }),
  );

  app.post(
    '/api/admin/payouts/:id/mark-failed',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Records a pending manual payout as failed; the amount returns to the creator’s earnings',
        security: bearer,
        params: payoutIdParams,
        body: markPayoutFailedBody,
        response: { 200: adminPayoutReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: m.markedFailed,
      data: await markPayout(deps, currentUser(request), request.params.id, {
        paid: false,
        reason: request.body.reason,
      }),
    }),
  );

  app.post(
    '/api/admin/payouts/:id/retry-transfer',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Asks Stripe again for a payout whose transfer went unanswered (same idempotency key)',
        security: bearer,
        params: payoutIdParams,
        response: { 200: adminPayoutReply, ...errors },
      },
    },
    async (request) => {
      const data = await retryTransfer(deps, currentUser(request), request.params.id);
      const message =
        data.status === 'failed' ? m.transferFailed : data.reference ? m.transferSent : m.transferUnanswered;
      return { success: true as const, message, data };
    },
  );

  app.put(
    '/api/admin/creators/:id/stripe-account',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Sets the Stripe Connect account (acct_…) a creator’s payouts are transferred to',
        security: bearer,
        params: z.object({ id: z.uuid({ error: m.creatorNotFound }) }),
        body: stripeAccountBody,
        response: { 200: stripeAccountReply, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { stripeAccountId } = request.body;
      await setStripeAccount(deps, currentUser(request), id, stripeAccountId);
      return { success: true as const, message: m.stripeAccountSaved, data: { userId: id, stripeAccountId } };
    },
  );
}
