// Background tasks. Named by the spec; server and web import them.

export const TASK_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

/** GET /api/tasks/events: the event stream of the signed-in user's tasks. */
export const TASK_EVENTS_PATH = '/api/tasks/events';
/**
 * The stream's last event when the serving process stops (a deploy): the stream ends right after it, and the page
 * opens a new one after `retryMs` (through the load balancer, to another process). The page does not leave this to
 * the browser's own reconnection (the `retry` field, sent too): a proxy may hold the ended stream open.
 */
export const TASK_RECONNECT_EVENT = 'reconnect';
/**
 * Sent (with `data: {}`) on a stream of every task (no `ids`) when something of the user's own account changed:
 * approval, role, credits, wallet or earnings, bank accounts, payouts, the Stripe Connect account, the subscription.
 * The page reads those again; the event carries no data of its own.
 */
export const ACCOUNT_CHANGED_EVENT = 'account';

export const isTaskFinished = (task: { status: (typeof TASK_STATUSES)[number] }): boolean =>
  task.status === 'completed' || task.status === 'failed';
