// Who may use a persona, on its own so that the features that take a persona (generation, canvas, inpaint, editor
// sessions, the workspace, assets) check it without importing the personas service.
import { and, eq, or } from 'drizzle-orm';
import { MESSAGES } from '../../common/messages.ts';
import type { AppContext } from '../context.ts';
import { personas } from '../db/schema/index.ts';
import { notFound } from './errors.ts';

export type PersonaRow = typeof personas.$inferSelect;

const M = MESSAGES.personas;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A persona the user may see and use: their own, or a public one. Anything else is 404. */
export async function visiblePersona(ctx: AppContext, userId: string, id: string): Promise<PersonaRow> {
  if (!UUID.test(id)) throw notFound(M.notFound);
  const [row] = await ctx.db
    .select()
    .from(personas)
    .where(and(eq(personas.id, id), or(eq(personas.userId, userId), eq(personas.isPublic, true))))
    .limit(1);
  if (!row) throw notFound(M.notFound);
  return row;
}

/** A persona of the user (to change or delete); another user's, even public, is 404. */
export async function ownPersona(ctx: AppContext, userId: string, id: string): Promise<PersonaRow> {
  if (!UUID.test(id)) throw notFound(M.notFound);
  const [row] = await ctx.db
    .select()
    .from(personas)
    .where(and(eq(personas.id, id), eq(personas.userId, userId)))
    .limit(1);
  if (!row) throw notFound(M.notFound);
  return row;
}
