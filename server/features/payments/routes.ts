import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies, errorReply } from '../../../common/api/envelope.ts';
import {
  cancelSubscriptionBody,
  cancelSubscriptionReply,
  checkoutReply,
  creditHistoryQuery,
  creditHistoryReply,
  localCheckoutForm,
  orderIdParams,
  packagesReply,
  receivedReply,
  subscriptionCheckoutBody,
  subscriptionStatusReply,
  topupBody,
} from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { AppError } from '../../platform/errors.ts';
import { fulfilOrder } from './fulfil.ts';
import { checkoutPage, checkoutToken, checkToken, messagePage, PAGE_HEADERS } from './local-checkout.ts';
import { listPackages } from './packages.ts';
import type { Payments } from './provider.ts';
import {
  cancelOpenOrder,
  cancelSubscription,
  creditHistory,
  getOwnOrder,
  getSubscriptionStatus,
  runningTrialEnd,
  startCreditTopup,
  startSubscriptionCheckout,
} from './service.ts';
import { handleStripeWebhook } from './webhook.ts';

const errors = errorReplies(400, 401, 403, 404, 409, 502);
const M = MESSAGES.payments;
const HOME = { href: '/dashboard', label: 'Back to GenPro Studio' };

/**
 * Top-ups, subscription, credit history, the local checkout and the Stripe webhook. `payments` (createPayments)
 * is the one the wallet's top-ups use too.
 */
export function paymentRoutes(ctx: AppContext, payments: Payments): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.get(
      '/api/payment/packages',
      {
        preValidation: signedIn,
        schema: {
          tags: ['payments'],
          summary: 'Credit top-up packages (euros)',
          response: { 200: packagesReply, 401: errorReply },
        },
      },
      async () => ({ success: true as const, data: listPackages(ctx.config) }),
    );

    app.post(
      '/api/payment/topup',
      {
        preValidation: signedIn,
        schema: {
          tags: ['payments'],
          summary: 'Starts the checkout of a credit package; open `url`',
          body: topupBody,
          response: { 200: checkoutReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await startCreditTopup(ctx, payments, currentUser(request).id, request.body)),
      }),
    );

    app.get(
      '/api/payment/subscription/status',
      {
        preValidation: signedIn,
        schema: {
          tags: ['payments'],
          summary: 'The subscription of the signed-in user',
          response: { 200: subscriptionStatusReply, 401: errorReply },
        },
      },
      async (request) => ({ success: true as const, data: await getSubscriptionStatus(ctx, currentUser(request).id) }),
    );

    app.post(
      '/api/payment/subscription/cancel',
      {
        preValidation: signedIn,
        schema: {
          tags: ['payments'],
          summary: 'Cancels now (immediate) or at the end of the period (end_of_period)',
          body: cancelSubscriptionBody,
          response: { 200: cancelSubscriptionReply, 503: errorReply, ...errors },
        },
      },
      async (request) => {
        const result = await cancelSubscription(ctx, payments, currentUser(request).id, request.body.cancelType);
        return { success: true as const, message: result.message, data: result.status };
      },
    );

    app.post(
      '/api/payment/subscription/checkout',
      {
        preValidation: signedIn,
        schema: {
          tags: ['payments'],
          summary: 'The subscribe flow (trial ended or cancelled); open `url`',
          body: subscriptionCheckoutBody,
          response: { 200: checkoutReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await startSubscriptionCheckout(ctx, payments, currentUser(request).id, request.body ?? {})),
      }),
    );

    app.get(
      '/api/credits/history',
      {
        preValidation: signedIn,
        schema: {
          tags: ['payments'],
          summary: 'The credit ledger, newest first',
          querystring: creditHistoryQuery,
          response: { 200: creditHistoryReply, 400: errorReply, 401: errorReply },
        },
      },
      async (request) => ({
        success: true as const,
        data: await creditHistory(ctx, currentUser(request).id, request.query),
      }),
    );

    if (payments.provider?.name === 'local') await app.register(localCheckoutRoutes(ctx));
    await app.register(webhookRoutes(ctx, payments));
  };
}

/** A page reply with the checkout headers. */
function page(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

/** A browser's Origin, when sent, must be this site's (defence in depth beside the token and SameSite). */
function sameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  return origin === new URL(publicUrl).origin || origin === `${request.protocol}://${request.host}`;
}

/**
 * The embedded checkout: GET /checkout/local/:orderId shows the order with Pay and Cancel; both forms
 * POST to /api/payment/local/:orderId/complete|cancel (form-encoded, with the one-time token) and are
 * answered with a 303 to the order's success or cancel URL.
 */
function localCheckoutRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    app.get('/checkout/local/:orderId', { schema: { hide: true, params: orderIdParams } }, async (request, reply) => {
      const auth = request.auth;
      if (!auth)
        return page(
          reply,
          401,
          messagePage('Please log in', MESSAGES.auth.pleaseLogIn, { href: '/auth/login', label: 'Log in' }),
        );
      const order = await findLocalOrder(ctx, auth.user.id, request.params.orderId);
      if (!order) return page(reply, 404, messagePage('Order not found', M.orderNotFound, HOME));
      if (order.status !== 'open') {
        const back = order.status === 'completed' ? order.successUrl : order.cancelUrl;
        return page(
          reply,
          409,
          messagePage('Checkout closed', M.orderNotOpen, { href: back, label: 'Back to GenPro Studio' }),
        );
      }
      const trialEnd = order.kind === 'subscription' ? await runningTrialEnd(ctx, auth.user.id) : null;
      const token = checkoutToken(auth.session.tokenHash, order.id);
      return page(reply, 200, checkoutPage(order, auth.user.email, token, trialEnd));
    });

    for (const action of ['complete', 'cancel'] as const) {
      app.post(
        `/api/payment/local/:orderId/${action}`,
        { schema: { hide: true, params: orderIdParams } },
        async (request, reply) => {
          const auth = request.auth;
          if (!auth)
            return page(
              reply,
              401,
              messagePage('Please log in', MESSAGES.auth.pleaseLogIn, { href: '/auth/login', label: 'Log in' }),
            );
          const form = localCheckoutForm.safeParse(request.body ?? {});
          if (
            !sameOrigin(request, ctx.config.publicUrl) ||
            !form.success ||
            !checkToken(auth.session.tokenHash, request.params.orderId, form.data.token)
          ) {
            return page(reply, 403, messagePage('Checkout refused', M.orderTokenInvalid, HOME));
          }
          const order = await findLocalOrder(ctx, auth.user.id, request.params.orderId);
          if (!order) return page(reply, 404, messagePage('Order not found', M.orderNotFound, HOME));
          if (action === 'complete') {
            const result = await fulfilOrder(ctx, order.id);
            // A replayed Pay of a completed order lands on the success page again and grants nothing.
            if (result.order?.status === 'completed') return reply.redirect(order.successUrl, 303);
          } else if ((await cancelOpenOrder(ctx, order.id)) || order.status === 'cancelled') {
            return reply.redirect(order.cancelUrl, 303);
          }
          return page(reply, 409, messagePage('Checkout closed', M.orderNotOpen, HOME));
        },
      );
    }
  };
}

async function findLocalOrder(ctx: AppContext, userId: string, orderId: string) {
  try {
    const order = await getOwnOrder(ctx, userId, orderId);
    return order.provider === 'local' ? order : null;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** POST /api/payment/webhook: Stripe events, verified on the raw body (a parser scoped to this route). */
function webhookRoutes(ctx: AppContext, payments: Payments): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    app.post(
      '/api/payment/webhook',
      {
        schema: {
          tags: ['payments'],
          summary: 'Stripe webhook (Stripe-Signature on the raw body)',
          response: { 200: receivedReply, 400: errorReply },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const result = await handleStripeWebhook(
          ctx,
          payments,
          raw,
          Array.isArray(signature) ? signature[0] : signature,
        );
        return { received: true as const, duplicate: result.duplicate };
      },
    );
  };
}
