import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import type {
  CreateEditorSessionBody,
  EditorSession,
  EditorSessionSummary,
  ListEditorSessionsReply,
  PutAutosaveBody,
  UpdateEditorSessionBody,
} from '../../../common/api/editor-sessions.ts';
import {
  AUTOSAVE_SESSION_NAME,
  EDITOR_SESSION_MESSAGES,
  EDITOR_SESSION_TYPES,
  normaliseSessionData,
  sessionDataSize,
  sessionSizeError,
  validateSessionData,
} from '../../../common/rules/editor-sessions.ts';
import type { AppContext } from '../../context.ts';
import { editorSessions } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound, tooLarge } from '../../platform/errors.ts';
import { visiblePersona } from '../../platform/persona-access.ts';

type Row = typeof editorSessions.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toSummary(row: Row): EditorSessionSummary {
  return {
    id: row.id,
    name: row.name,
    component_type: row.componentType,
    persona_id: row.personaId,
    thumbnail_url: row.thumbnailUrl,
    size_bytes: row.sizeBytes,
    autosave: row.autosave,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const toDto = (row: Row): EditorSession => ({ ...toSummary(row), data: row.data });

/** Validates, normalises (spec 4) and measures session data; throws the spec's messages. */
function prepareData(componentType: string, data: unknown): { data: Record<string, unknown>; sizeBytes: number } {
  const errors = validateSessionData(componentType, data);
  if (errors.length > 0) {
    const unsupported = errors[0] === EDITOR_SESSION_MESSAGES.unsupportedType(componentType);
    throw unsupported
      ? new AppError(400, 'unsupported_component_type', errors[0] as string, { errors })
      : badRequest(EDITOR_SESSION_MESSAGES.invalid(errors.join(', ')), { errors });
  }
  const normalised = normaliseSessionData(componentType, data as Record<string, unknown>);
  const sizeBytes = sessionDataSize(normalised);
  const tooBig = sessionSizeError(sizeBytes);
  if (tooBig) throw tooLarge(tooBig);
  return { data: normalised, sizeBytes };
}

/** JS dates carry milliseconds; storing ms-precise timestamps keeps the cursor comparison exact. */
const now = (ctx: AppContext) => new Date(ctx.clock.now().getTime());

async function findOwned(ctx: AppContext, userId: string, id: string): Promise<Row> {
  if (!UUID.test(id)) throw notFound(EDITOR_SESSION_MESSAGES.notFound);
  const [row] = await ctx.db
    .select()
    .from(editorSessions)
    .where(and(eq(editorSessions.id, id), eq(editorSessions.userId, userId)));
  if (!row) throw notFound(EDITOR_SESSION_MESSAGES.notFound);
  return row;
}

export async function getEditorSession(ctx: AppContext, userId: string, id: string): Promise<EditorSession> {
  return toDto(await findOwned(ctx, userId, id));
}

export async function createEditorSession(
  ctx: AppContext,
  userId: string,
  body: CreateEditorSessionBody,
): Promise<EditorSession> {
  const prepared = prepareData(body.component_type, body.data);
  if (body.persona_id) await visiblePersona(ctx, userId, body.persona_id);
  const at = now(ctx);
  const [row] = await ctx.db
    .insert(editorSessions)
    .values({
      userId,
      name: body.name,
      componentType: body.component_type,
      personaId: body.persona_id ?? null,
      thumbnailUrl: body.thumbnail_url ?? null,
      data: prepared.data,
      sizeBytes: prepared.sizeBytes,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toDto(row);
}

export async function updateEditorSession(
  ctx: AppContext,
  userId: string,
  id: string,
  body: UpdateEditorSessionBody,
): Promise<EditorSession> {
  const existing = await findOwned(ctx, userId, id);
  if (body.persona_id) await visiblePersona(ctx, userId, body.persona_id);
  const componentType = body.component_type ?? existing.componentType;
  const patch: Partial<typeof editorSessions.$inferInsert> = { updatedAt: now(ctx) };
  if (body.name !== undefined) patch.name = body.name;
  if (body.persona_id !== undefined) patch.personaId = body.persona_id;
  if (body.thumbnail_url !== undefined) patch.thumbnailUrl = body.thumbnail_url;
  if (body.data !== undefined || body.component_type !== undefined) {
    const prepared = prepareData(componentType, body.data === undefined ? existing.data : body.data);
    patch.componentType = componentType;
    patch.data = prepared.data;
    patch.sizeBytes = prepared.sizeBytes;
  }
  const [row] = await ctx.db
    .update(editorSessions)
    .set(patch)
    .where(and(eq(editorSessions.id, id), eq(editorSessions.userId, userId)))
    .returning();
  if (!row) throw notFound(EDITOR_SESSION_MESSAGES.notFound);
  return toDto(row);
}

export async function deleteEditorSession(ctx: AppContext, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound(EDITOR_SESSION_MESSAGES.notFound);
  const deleted = await ctx.db
    .delete(editorSessions)
    .where(and(eq(editorSessions.id, id), eq(editorSessions.userId, userId)))
    .returning({ id: editorSessions.id });
  if (deleted.length === 0) throw notFound(EDITOR_SESSION_MESSAGES.notFound);
}

function assertKnownType(componentType: string): void {
  if (!(EDITOR_SESSION_TYPES as readonly string[]).includes(componentType)) {
    const message = EDITOR_SESSION_MESSAGES.unsupportedType(componentType);
    throw new AppError(400, 'unsupported_component_type', message, { errors: [message] });
  }
}

const autosaveOf = (userId: string, componentType: string) =>
  and(
    eq(editorSessions.userId, userId),
    eq(editorSessions.componentType, componentType),
    eq(editorSessions.autosave, true),
  );

/** The user's autosave of a tool, or null when there is none. */
export async function getAutosave(
  ctx: AppContext,
  userId: string,
  componentType: string,
): Promise<EditorSession | null> {
  assertKnownType(componentType);
  const [row] = await ctx.db.select().from(editorSessions).where(autosaveOf(userId, componentType));
  return row ? toDto(row) : null;
}

/**
 * Creates or replaces the user's one autosave of a tool (validated, normalised and limited like any
 * session). A single upsert on the partial unique index, so two tabs saving at once never make two.
 */
export async function putAutosave(
  ctx: AppContext,
  userId: string,
  componentType: string,
  body: PutAutosaveBody,
): Promise<EditorSession> {
  const prepared = prepareData(componentType, body.data);
  if (body.persona_id) await visiblePersona(ctx, userId, body.persona_id);
  const at = now(ctx);
  const changes = {
    data: prepared.data,
    sizeBytes: prepared.sizeBytes,
    thumbnailUrl: body.thumbnail_url ?? null,
    personaId: body.persona_id ?? null,
    updatedAt: at,
  };
  const [row] = await ctx.db
    .insert(editorSessions)
    .values({ userId, componentType, name: AUTOSAVE_SESSION_NAME, autosave: true, createdAt: at, ...changes })
    .onConflictDoUpdate({
      target: [editorSessions.userId, editorSessions.componentType],
      targetWhere: sql`${editorSessions.autosave}`,
      set: changes,
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return toDto(row);
}

/** Removes the user's autosave of a tool (nothing to do when there is none). */
export async function deleteAutosave(ctx: AppContext, userId: string, componentType: string): Promise<void> {
  assertKnownType(componentType);
  await ctx.db.delete(editorSessions).where(autosaveOf(userId, componentType));
}

interface Cursor {
  at: Date;
  id: string;
}

const encodeCursor = (row: Row): string =>
  Buffer.from(`${row.updatedAt.getTime()}.${row.id}`, 'utf8').toString('base64url');

function decodeCursor(value: string): Cursor {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const [ms, id] = text.split('.');
  const at = new Date(Number(ms));
  if (!ms || !id || !UUID.test(id) || !/^\d+$/.test(ms) || Number.isNaN(at.getTime())) {
    throw badRequest('Invalid cursor');
  }
  return { at, id };
}

/**
 * The user's sessions, newest updated first, keyset-paginated with an opaque cursor. The persona_id
 * filter only narrows the user's own sessions, so another user's persona id finds nothing.
 */
export async function listEditorSessions(
  ctx: AppContext,
  userId: string,
  query: { component_type?: string; persona_id?: string; limit: number; cursor?: string },
): Promise<ListEditorSessionsReply> {
  const where: SQL[] = [eq(editorSessions.userId, userId)];
  if (query.component_type) where.push(eq(editorSessions.componentType, query.component_type));
  if (query.persona_id) where.push(eq(editorSessions.personaId, query.persona_id));
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    const before = or(
      lt(editorSessions.updatedAt, cursor.at),
      and(eq(editorSessions.updatedAt, cursor.at), lt(editorSessions.id, cursor.id)),
    );
    if (before) where.push(before);
  }
  const rows = await ctx.db
    .select()
    .from(editorSessions)
    .where(and(...where))
    .orderBy(desc(editorSessions.updatedAt), desc(editorSessions.id))
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return {
    success: true,
    data: page.map(toSummary),
    pagination: { has_more: hasMore, next_cursor: hasMore && last ? encodeCursor(last) : null },
  };
}
