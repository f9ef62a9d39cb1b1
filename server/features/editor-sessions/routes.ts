import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  autosaveParams,
  autosaveReply,
  createEditorSessionBody,
  editorSessionIdParams,
  editorSessionReply,
  listEditorSessionsQuery,
  listEditorSessionsReply,
  putAutosaveBody,
  updateEditorSessionBody,
} from '../../../common/api/editor-sessions.ts';
import { errorReply, messageReply } from '../../../common/api/envelope.ts';
import { EDITOR_SESSION_MESSAGES } from '../../../common/rules/editor-sessions.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { AppError, isStorageUnavailable } from '../../platform/errors.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import {
  createEditorSession,
  deleteAutosave,
  deleteEditorSession,
  getAutosave,
  getEditorSession,
  listEditorSessions,
  putAutosave,
  updateEditorSession,
} from './service.ts';

const errors = {
  400: errorReply,
  401: errorReply,
  403: errorReply,
  404: errorReply,
  413: errorReply,
  500: errorReply,
  503: errorReply,
};

/** Saved editor sessions, scoped to the signed-in user (canvas spec 7). */
export function editorSessionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Checked before body validation so a signed-out caller always gets 401.
  const signedIn = requireUser();
  return async (app) => {
    // Spec: unavailable storage shows 'Database setup required' (503 storage_unavailable); the studio's
    // error handler (the parent) answers everything else as usual.
    app.setErrorHandler((error, request) => {
      if (!isStorageUnavailable(error)) throw error;
      request.log.error({ err: error }, 'editor sessions storage unavailable');
      throw new AppError(503, 'storage_unavailable', EDITOR_SESSION_MESSAGES.databaseSetupRequired);
    });
    app.get(
      '/api/editor-sessions',
      {
        preValidation: signedIn,
        schema: {
          tags: ['editor-sessions'],
          summary: 'Lists the user’s sessions (without data), newest updated first, with an opaque cursor',
          querystring: listEditorSessionsQuery,
          response: { 200: listEditorSessionsReply, ...errors },
        },
      },
      async (request) => listEditorSessions(ctx, currentUser(request).id, request.query),
    );

    app.get(
      '/api/editor-sessions/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['editor-sessions'],
          summary: 'One session with its data',
          params: editorSessionIdParams,
          response: { 200: editorSessionReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await getEditorSession(ctx, currentUser(request).id, request.params.id),
      }),
    );

    app.post(
      '/api/editor-sessions',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.editorSession,
        schema: {
          tags: ['editor-sessions'],
          summary: 'Saves a session: validates the data for its component type, normalises it, max 10 MB serialized',
          body: createEditorSessionBody,
          response: { 200: editorSessionReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await createEditorSession(ctx, currentUser(request).id, request.body),
      }),
    );

    app.put(
      '/api/editor-sessions/:id',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.editorSession,
        schema: {
          tags: ['editor-sessions'],
          summary: 'Updates some fields of a session; new data is validated and normalised like on create',
          params: editorSessionIdParams,
          body: updateEditorSessionBody,
          response: { 200: editorSessionReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await updateEditorSession(ctx, currentUser(request).id, request.params.id, request.body),
      }),
    );

    // A tool’s autosave: not in the spec (it saves only by hand); one per user and tool, apart from saved sessions.
    app.get(
      '/api/editor-sessions/autosave/:component_type',
      {
        preValidation: signedIn,
        schema: {
          tags: ['editor-sessions'],
          summary: 'The user’s autosave of a tool, with its data (data null when there is none)',
          params: autosaveParams,
          response: { 200: autosaveReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await getAutosave(ctx, currentUser(request).id, request.params.component_type),
      }),
    );

    app.put(
      '/api/editor-sessions/autosave/:component_type',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.editorSession,
        schema: {
          tags: ['editor-sessions'],
          summary: 'Creates or replaces the user’s autosave of a tool; data is checked like a saved session',
          params: autosaveParams,
          body: putAutosaveBody,
          response: { 200: editorSessionReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await putAutosave(ctx, currentUser(request).id, request.params.component_type, request.body),
      }),
    );

    app.delete(
      '/api/editor-sessions/autosave/:component_type',
      {
        preValidation: signedIn,
        schema: {
          tags: ['editor-sessions'],
          summary: 'Removes the user’s autosave of a tool (also when there is none)',
          params: autosaveParams,
          response: { 200: messageReply, ...errors },
        },
      },
      async (request) => {
        await deleteAutosave(ctx, currentUser(request).id, request.params.component_type);
        return { success: true as const, message: EDITOR_SESSION_MESSAGES.deleted };
      },
    );

    app.delete(
      '/api/editor-sessions/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['editor-sessions'],
          summary: 'Deletes a session',
          params: editorSessionIdParams,
          response: { 200: messageReply, ...errors },
        },
      },
      async (request) => {
        await deleteEditorSession(ctx, currentUser(request).id, request.params.id);
        return { success: true as const, message: EDITOR_SESSION_MESSAGES.deleted };
      },
    );
  };
}
