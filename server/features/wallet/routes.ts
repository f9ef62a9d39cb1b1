import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReply } from '../../../common/api/envelope.ts';
import { earningsReply, walletReply, walletTopupBody, walletTopupReply } from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireRole } from '../../platform/auth/session.ts';
import type { Payments } from '../payments/provider.ts';
import { startWalletTopup } from '../payments/service.ts';
import { getEarnings, getWallet } from './service.ts';

const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 502: errorReply };

/** The brand campaign wallet and creator earnings: euro ledgers in integer cents. */
export function walletRoutes(ctx: AppContext, payments: Payments): FastifyPluginAsyncZod {
  const brand = requireRole('brand', MESSAGES.payments.brandOnly);
  const creator = requireRole('creator', MESSAGES.payments.creatorOnly);
  return async (app) => {
    app.get(
      '/api/brands/wallet',
      {
        preValidation: brand,
        schema: {
          tags: ['wallet'],
          summary: 'The brand’s campaign wallet (euros)',
          response: { 200: walletReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, ...(await getWallet(ctx, currentUser(request).id)) }),
    );

    app.post(
      '/api/brands/wallet/topup',
      {
        preValidation: brand,
        schema: {
          tags: ['wallet'],
          summary: 'Starts a wallet top-up checkout; open `checkout_url`',
          body: walletTopupBody,
          response: { 200: walletTopupReply, ...errors },
        },
      },
      async (request) => {
        const { url, orderId } = await startWalletTopup(ctx, payments, currentUser(request).id, request.body);
        return { success: true as const, checkout_url: url, orderId };
      },
    );

    app.get(
      '/api/creators/earnings',
      {
        preValidation: creator,
        schema: {
          tags: ['wallet'],
          summary: 'The creator’s earnings (euros)',
          response: { 200: earningsReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, data: await getEarnings(ctx, currentUser(request).id) }),
    );
  };
}
