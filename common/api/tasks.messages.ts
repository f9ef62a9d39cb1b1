// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
export const TASKS_MESSAGES = {
  tasks: {
    notFound: 'Task not found',
    interrupted: 'The task was interrupted and could not be completed',
    timedOut: 'The task took too long and was stopped',
  },
} as const;
