import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activeCollaborationsReply,
  applicationIdParams,
  applicationListReply,
  applicationReply,
  applyBody,
  campaignAssetsReply,
  campaignCollaborationsReply,
  campaignIdParams,
  campaignListReply,
  campaignPlanBody,
  campaignPlanReply,
  campaignReply,
  collaborationIdParams,
  completeCollaborationReply,
  createCampaignBody,
  listCampaignsQuery,
  updateCampaignBody,
} from '../../../common/api/campaigns.ts';
import { errorReplies, messageReply } from '../../../common/api/envelope.ts';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import type { ZodApp } from '../../platform/http/zod-app.ts';
import { textAgentAccess, textAgentRateLimit } from '../../platform/metering/text-agents.ts';
import {
  acceptApplication,
  applyToCampaign,
  campaignCollaborations,
  completeCollaboration,
  declineApplication,
  listCampaignApplications,
  myActiveCollaborations,
  myApplications,
  withdrawApplication,
} from './applications.ts';
import {
  buildPlan,
  campaignMaterialsFor,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from './service.ts';

const tags = ['campaigns'];
const errors = errorReplies(400, 401, 402, 403, 404, 409, 422, 502);
const signedIn = requireUser();

/** Campaigns, their plan, applications and collaborations (accounts spec 2.2, 2.7, 7 Campaigns). */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    registerCampaignPlanRoute(app, ctx);
    registerCampaignCrudRoutes(app, ctx);
    registerCampaignDetailRoutes(app, ctx);
    registerApplicationRoutes(app, ctx);
    registerCollaborationRoutes(app, ctx);
  };
}

/** The text agent that drafts a campaign plan. */
function registerCampaignPlanRoute(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/api/campaigns/plan',
    {
      onRequest: textAgentRateLimit(ctx, app),
      preValidation: signedIn,
      preHandler: textAgentAccess(ctx),
      bodyLimit: TEXT_AGENTS.bodyLimitBytes.campaignPlan,
      schema: {
        tags,
        summary: `Build Campaign Plan (brand): title, schedule per platform, budget split, estimated reach. Free on the local writer, ${TEXT_AGENTS.creditsPerCall} credit with a vendor LLM; text agents share a per-user rate limit`,
        body: campaignPlanBody,
        response: { 200: campaignPlanReply, ...errors, ...errorReplies(413, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await buildPlan(ctx, currentUser(request), request.body),
    }),
  );
}

/** Creating, listing, reading, editing and deleting campaigns. */
function registerCampaignCrudRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/api/campaigns',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Creates a campaign (brand); open holds the budget from the wallet (402 when short)',
        body: createCampaignBody,
        response: { 200: campaignReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await createCampaign(ctx, currentUser(request), request.body),
    }),
  );

  app.get(
    '/api/campaigns',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'The pool (approved creators, admins; open by default) or ?view=my',
        querystring: listCampaignsQuery,
        response: { 200: campaignListReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listCampaigns(ctx, currentUser(request), request.query)),
    }),
  );

  app.get(
    '/api/campaigns/:id',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'One campaign (its brand, admins, approved creators for open or running ones)',
        params: campaignIdParams,
        response: { 200: campaignReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getCampaign(ctx, currentUser(request), request.params.id),
    }),
  );

  app.patch(
    '/api/campaigns/:id',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Edits a draft and/or changes the status (owner brand)',
        params: campaignIdParams,
        body: updateCampaignBody,
        response: { 200: campaignReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await updateCampaign(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/campaigns/:id',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Deletes a draft (owner brand)',
        params: campaignIdParams,
        response: { 200: messageReply, ...errors },
      },
    },
    async (request) => {
      await deleteCampaign(ctx, currentUser(request), request.params.id);
      return { success: true as const, message: MESSAGES.campaigns.deleted };
    },
  );
}

/** A campaign's collaborations and materials. */
function registerCampaignDetailRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/api/campaigns/:id/collaborations',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'The campaign’s collaborations with progress and performance metrics',
        params: campaignIdParams,
        response: { 200: campaignCollaborationsReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await campaignCollaborations(ctx, currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/api/campaigns/:id/assets',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'The campaign’s materials (data.assets)',
        params: campaignIdParams,
        response: { 200: campaignAssetsReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { assets: await campaignMaterialsFor(ctx, currentUser(request), request.params.id) },
    }),
  );
}

/** Applying to a campaign, the lists of applications, and deciding on one. */
function registerApplicationRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/api/campaigns/:id/applications',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Applies to an open campaign with a message and a rate in euros (approved creator, once)',
        params: campaignIdParams,
        body: applyBody,
        response: { 200: applicationReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await applyToCampaign(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/api/campaigns/:id/applications',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'The campaign’s applications (owner brand, admins), newest first',
        params: campaignIdParams,
        response: { 200: applicationListReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listCampaignApplications(ctx, currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/api/applications/my',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'The caller’s own applications, newest first',
        response: { 200: applicationListReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await myApplications(ctx, currentUser(request)) }),
  );

  const decisions = [
    ['accept', acceptApplication, 'Accepts a pending application: an active collaboration for its rate (owner brand)'],
    ['decline', declineApplication, 'Declines a pending application (owner brand)'],
    ['withdraw', withdrawApplication, 'Withdraws the caller’s pending application (creator)'],
  ] as const;
  for (const [action, decide, summary] of decisions) {
    app.post(
      `/api/applications/:id/${action}`,
      {
        preValidation: signedIn,
        schema: { tags, summary, params: applicationIdParams, response: { 200: applicationReply, ...errors } },
      },
      async (request) => ({
        success: true as const,
        data: await decide(ctx, currentUser(request), request.params.id),
      }),
    );
  }
}

/** The caller's active collaborations, and completing one. */
function registerCollaborationRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/api/collaborations/my-active',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'My Active Collaborations (spec 3 Collaboration) with deliverable progress',
        response: { 200: activeCollaborationsReply, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await myActiveCollaborations(ctx, currentUser(request)) }),
  );

  app.post(
    '/api/collaborations/:id/complete',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Completes a collaboration: the agreed amount moves from the held budget to the creator’s earnings',
        params: collaborationIdParams,
        response: { 200: completeCollaborationReply, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await completeCollaboration(ctx, currentUser(request), request.params.id),
    }),
  );
}
