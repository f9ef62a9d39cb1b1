// Background tasks. Named by the spec; server and web import them.

export const TASK_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
