import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AVATAR, BRAND_LOGO } from '../../../common/api/account.constants.ts';
import {
  avatarReply,
  avatarUrlBody,
  bankAccountQuery,
  bankAccountsChangedReply,
  bankAccountsReply,
  brandLogoReply,
  brandProfileReply,
  createBankAccountBody,
  createBankAccountReply,
  creatorProfileReply,
  deleteAccountBody,
  logoUrlBody,
  updateBankAccountBody,
  updateBrandProfileBody,
  updateCreatorProfileBody,
  updateUserProfileBody,
  updateUserSettingsBody,
  userProfileReply,
  userSettingsReply,
} from '../../../common/api/account.ts';
import { errorReplies, errorReply, messageReply } from '../../../common/api/envelope.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser, SESSION_COOKIE } from '../../platform/auth/session.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { ZodApp } from '../../platform/http/zod-app.ts';
import { uploadRateLimit } from '../uploads/rate-limit.ts';
import { MB } from '../uploads/sniff.ts';
import { readOwnImage, receiveAvatar, setAvatar } from './avatar.ts';
import { addBankAccount, deleteBankAccount, listBankAccounts, makePrimary } from './bank-accounts.ts';
import { deleteAccount } from './delete-account.ts';
import { readOwnLogo, setBrandLogo } from './logo.ts';
import {
  getBrandProfile,
  getCreatorProfile,
  updateBrandProfile,
  updateCreatorProfile,
  updateUserProfile,
} from './profiles.ts';
import { getSettings, saveSettings } from './settings.ts';

const errors = errorReplies(400, 401, 403, 404, 409, 413, 429);
const bearer = [{ bearer: [] }];
const m = MESSAGES.account;
const signedIn = requireUser();
const creatorsOnly = requireUser({ roles: ['creator'] });
const brandsOnly = requireUser({ roles: ['brand'] });
// Storing an avatar needs a verified email address, as every upload (issue 27).
const verifiedUploader = requireUser({ verifiedEmail: true });
const verifiedBrandUploader = requireUser({ roles: ['brand'], verifiedEmail: true });

/** Profiles by role, the generic profile, avatar, bank accounts, settings and account deletion (spec 2.6). */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    registerRoleProfileRoutes(app, ctx);
    registerUserProfileRoutes(app, ctx);
    registerSettingsRoutes(app, ctx);
    registerBankAccountRoutes(app, ctx);
    registerAccountDeletionRoute(app, ctx);
  };
}

/** The creator's and the brand's profiles, and the brand logo. */
function registerRoleProfileRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/api/creators/profile',
    {
      preValidation: creatorsOnly,
      schema: {
        tags: ['account'],
        summary: "The creator's profile (created on first read)",
        security: bearer,
        response: { 200: creatorProfileReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await getCreatorProfile(ctx, currentUser(request)) }),
  );
  app.patch(
    '/api/creators/profile',
    {
      preValidation: creatorsOnly,
      schema: {
        tags: ['account'],
        summary: "Update the creator's profile (only the fields sent; isVerified is read-only)",
        security: bearer,
        body: updateCreatorProfileBody,
        response: { 200: creatorProfileReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await updateCreatorProfile(ctx, currentUser(request), request.body),
    }),
  );
  app.get(
    '/api/brands/profile',
    {
      preValidation: brandsOnly,
      schema: {
        tags: ['account'],
        summary: "The brand's profile (created on first read; verificationStatus starts pending)",
        security: bearer,
        response: { 200: brandProfileReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await getBrandProfile(ctx, currentUser(request)) }),
  );
  app.patch(
    '/api/brands/profile',
    {
      preValidation: brandsOnly,
      schema: {
        tags: ['account'],
        summary: "Update the brand's profile (only the fields sent; verificationStatus is read-only)",
        security: bearer,
        body: updateBrandProfileBody,
        response: { 200: brandProfileReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await updateBrandProfile(ctx, currentUser(request), request.body),
    }),
  );

  app.post(
    '/api/brands/logo',
    {
      onRequest: uploadRateLimit(ctx, app),
      preValidation: verifiedBrandUploader,
      schema: {
        tags: ['account'],
        summary: `Set the brand logo: multipart \`file\` (JPEG/PNG/GIF/WebP by content, ≤ ${BRAND_LOGO.maxMb} MB) or JSON {logoUrl} of an own image`,
        description: `Re-encoded to a WebP within ${BRAND_LOGO.maxPx} px, stored publicly; the previous logo file is deleted. Never an external URL.`,
        consumes: ['multipart/form-data', 'application/json'],
        security: bearer,
        response: { 200: brandLogoReply, ...errors, 500: errorReply },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const image = request.isMultipart()
        ? await receiveAvatar(request.parts({ limits: { fileSize: BRAND_LOGO.maxMb * MB + 1, files: 2 } }))
        : await logoFromBody(ctx, request, user.id);
      const logoUrl = await setBrandLogo(ctx, user, image);
      return { success: true as const, data: { logoUrl, profile: await getBrandProfile(ctx, user) } };
    },
  );
}

/** The generic profile and the avatar. */
function registerUserProfileRoutes(app: ZodApp, ctx: AppContext): void {
  app.put(
    '/api/users/profile',
    {
      preValidation: signedIn,
      schema: {
        tags: ['account'],
        summary: 'Update names, phone, bio, location, website and time zone; returns the user',
        security: bearer,
        body: updateUserProfileBody,
        response: { 200: userProfileReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await updateUserProfile(ctx, currentUser(request).id, request.body),
    }),
  );
  app.post(
    '/api/users/avatar',
    {
      onRequest: uploadRateLimit(ctx, app),
      preValidation: verifiedUploader,
      schema: {
        tags: ['account'],
        summary: `Set the avatar: multipart \`file\` (JPEG/PNG/GIF/WebP by content, ≤ ${AVATAR.maxMb} MB) or JSON {avatarUrl} of an own image`,
        description: `Re-encoded to a ${AVATAR.sizePx} px square WebP, stored publicly; the previous avatar file is deleted.`,
        consumes: ['multipart/form-data', 'application/json'],
        security: bearer,
        response: { 200: avatarReply, ...errors, 500: errorReply },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const image = await avatarSource(ctx, request, user.id);
      const dto = await setAvatar(ctx, user, image);
      const url = dto.avatarUrl ?? '';
      return { success: true as const, data: { avatarUrl: url, avatar_url: url, user: dto } };
    },
  );
}

function registerSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/api/users/settings',
    {
      preValidation: signedIn,
      schema: {
        tags: ['account'],
        summary: 'Notification, visibility, language, theme and time zone preferences (defaults when never saved)',
        security: bearer,
        response: { 200: userSettingsReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await getSettings(ctx, currentUser(request).id) }),
  );
  app.put(
    '/api/users/settings',
    {
      preValidation: signedIn,
      schema: {
        tags: ['account'],
        summary: 'Save any subset of the settings (twoFactorAuth is read-only)',
        security: bearer,
        body: updateUserSettingsBody,
        response: { 200: userSettingsReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await saveSettings(ctx, currentUser(request).id, request.body),
    }),
  );
}

/** Bank accounts: the same routes for creators and brands. */
function registerBankAccountRoutes(app: ZodApp, ctx: AppContext): void {
  for (const [role, guard] of [
    ['creators', creatorsOnly],
    ['brands', brandsOnly],
  ] as const) {
    const url = `/api/${role}/bank-accounts`;
    app.get(
      url,
      {
        preValidation: guard,
        schema: {
          tags: ['account'],
          summary: 'Your bank accounts, primary first (IBAN masked but for the country code and last 4)',
          security: bearer,
          response: { 200: bankAccountsReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, data: await listBankAccounts(ctx.db, currentUser(request).id) }),
    );
    app.post(
      url,
      {
        preValidation: guard,
        schema: {
          tags: ['account'],
          summary: 'Add a bank account (IBAN checked: country, length, check digits; BIC when given)',
          security: bearer,
          body: createBankAccountBody,
          response: { 201: createBankAccountReply, ...errors },
        },
      },
      async (request, reply) => {
        const userId = currentUser(request).id;
        const account = await addBankAccount(ctx, userId, request.body);
        return reply.code(201).send({
          success: true as const,
          message: m.bankAccountAdded,
          data: account,
          accounts: await listBankAccounts(ctx.db, userId),
        });
      },
    );
    app.patch(
      url,
      {
        preValidation: guard,
        schema: {
          tags: ['account'],
          summary: 'Make the account ?id= the primary one',
          security: bearer,
          querystring: bankAccountQuery,
          body: updateBankAccountBody,
          response: { 200: bankAccountsChangedReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: m.primaryUpdated,
        data: await makePrimary(ctx, currentUser(request).id, request.query.id),
      }),
    );
    app.delete(
      url,
      {
        preValidation: guard,
        schema: {
          tags: ['account'],
          summary: 'Remove the account ?id= (removing the primary promotes the oldest remaining)',
          security: bearer,
          querystring: bankAccountQuery,
          response: { 200: bankAccountsChangedReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: m.bankAccountDeleted,
        data: await deleteBankAccount(ctx, currentUser(request).id, request.query.id),
      }),
    );
  }
}

function registerAccountDeletionRoute(app: ZodApp, ctx: AppContext): void {
  const secure = ctx.config.secureCookies;
  const clearSessionCookie = (reply: FastifyReply) =>
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  app.delete(
    '/api/users/delete-account',
    {
      config: { rateLimit: { max: ctx.config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: 60_000 } },
      preValidation: signedIn,
      schema: {
        tags: ['account'],
        summary: "Delete the account, its data and its files (password and the phrase 'DELETE MY ACCOUNT')",
        security: bearer,
        body: deleteAccountBody,
        response: { 200: messageReply, ...errors },
      },
    },
    async (request, reply) => {
      await deleteAccount(ctx, currentUser(request), request.body.password, request.ip);
      clearSessionCookie(reply);
      return { success: true as const, message: m.deleted };
    },
  );
}

/** The image behind an avatar request: the multipart file, or the user's own stored image named by JSON {avatarUrl}. */
async function logoFromBody(ctx: AppContext, request: FastifyRequest, userId: string): Promise<Buffer> {
  const parsed = logoUrlBody.safeParse(request.body);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? MESSAGES.upload.noFile);
  return readOwnLogo(ctx, userId, parsed.data.logoUrl);
}

async function avatarSource(ctx: AppContext, request: FastifyRequest, userId: string): Promise<Buffer> {
  if (request.isMultipart()) {
    return receiveAvatar(request.parts({ limits: { fileSize: AVATAR.maxMb * MB + 1, files: 2 } }));
  }
  const parsed = avatarUrlBody.safeParse(request.body);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? MESSAGES.upload.noFile);
  try {
    return await readOwnImage(ctx, userId, parsed.data.avatarUrl);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(500, 'avatar_failed', m.avatarFailed);
  }
}
