import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReply } from '../../../common/api/envelope.ts';
import {
  addWorkspaceItemBody,
  removeWorkspaceQuery,
  workspaceItemReply,
  workspaceListReply,
  workspaceRemoveReply,
} from '../../../common/api/workspace.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { addToWorkspace, listWorkspace, removeFromWorkspace } from './service.ts';

/** The campaign workspace: GET, POST and DELETE /api/campaign/workspace. */
export function workspaceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.get(
      '/api/campaign/workspace',
      {
        preValidation: signedIn,
        schema: {
          tags: ['workspace'],
          summary: 'The user’s campaign workspace: personas and videos, newest first',
          response: { 200: workspaceListReply, 401: errorReply },
        },
      },
      async (request) => ({ success: true as const, data: await listWorkspace(ctx, currentUser(request).id) }),
    );

    app.post(
      '/api/campaign/workspace',
      {
        preValidation: signedIn,
        schema: {
          tags: ['workspace'],
          summary: 'Adds a persona (own or public) or one of the user’s videos; the same item twice is 409',
          body: addWorkspaceItemBody,
          response: { 200: workspaceItemReply, 400: errorReply, 401: errorReply, 404: errorReply, 409: errorReply },
        },
      },
      async (request) => ({
        success: true as const,
        data: await addToWorkspace(ctx, currentUser(request).id, request.body),
        message: MESSAGES.personas.workspaceAdded,
      }),
    );

    app.delete(
      '/api/campaign/workspace',
      {
        preValidation: signedIn,
        schema: {
          tags: ['workspace'],
          summary: 'Removes one item (?asset_id=) or every item (?clear_all=true)',
          querystring: removeWorkspaceQuery,
          response: { 200: workspaceRemoveReply, 400: errorReply, 401: errorReply, 404: errorReply },
        },
      },
      async (request) => {
        const removed = await removeFromWorkspace(ctx, currentUser(request).id, request.query);
        return {
          success: true as const,
          message: request.query.clear_all ? MESSAGES.personas.workspaceCleared : MESSAGES.personas.workspaceRemoved,
          removed,
        };
      },
    );
  };
}
