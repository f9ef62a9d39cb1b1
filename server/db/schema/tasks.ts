import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users.ts';

export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['queued', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    estimatedSecondsLeft: integer('estimated_seconds_left'),
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    creditsReserved: integer('credits_reserved').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** The worker process (worker_heartbeats.id) running or last running an attempt. */
    workerId: text('worker_id'),
    /** The X-Request-Id of the request that created the task, carried into the worker's logs. */
    requestId: text('request_id'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('tasks_user_idx').on(t.userId, t.createdAt), index('tasks_status_idx').on(t.status)],
);
