import { parentPort } from 'node:worker_threads';
import { scriptScenes } from './script-scenes.ts';
import { localAnswer } from './text.ts';
import type { ThreadReply, ThreadTask } from './text-pool.ts';

// One local text writer thread of text-pool.ts: answers each request it is sent, in order.

if (!parentPort) throw new Error('text-thread.ts runs as a worker thread of text-pool.ts');
const port = parentPort;

port.on('message', ({ id, task }: { id: number; task: ThreadTask }) => {
  let reply: ThreadReply;
  try {
    const result = task.kind === 'answer' ? localAnswer(task.request) : scriptScenes(task.script);
    reply = { id, ok: true, result };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
