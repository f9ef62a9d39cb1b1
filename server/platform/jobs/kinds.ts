import { canvasImageTask } from '../../features/canvas-images/tasks.ts';
import { generateAudioTask, generateImageTask, generateVideoTask } from '../../features/generation/tasks.ts';
import { inpaintTask } from '../../features/inpaint/tasks.ts';
import { multiReferenceTask } from '../../features/multi-reference/tasks.ts';
import { multiReferenceVideoTask } from '../../features/multi-reference/video-task.ts';
import { personaImagesTask } from '../../features/personas/pipeline.ts';
import { compileMasterVideoTask } from '../../features/sequences/tasks.ts';
import { publishPostTask } from '../../features/social/posts.ts';
import { mediaExtractTask } from '../../features/uploads/extract-task.ts';
import { upscaleImageTask, upscaleVideoTask } from '../../features/upscale/tasks.ts';
import type { AnyTaskDefinition } from './types.ts';

/**
 * Every task kind of the studio, in one list: the API process (with RUN_WORKERS on) and
 * `npm run worker` register the same kinds through JobQueue.attach(). Add new kinds here.
 */
export const TASK_KINDS: readonly AnyTaskDefinition[] = [
  mediaExtractTask,
  generateImageTask,
  generateVideoTask,
  generateAudioTask,
  upscaleImageTask,
  upscaleVideoTask,
  canvasImageTask,
  compileMasterVideoTask,
  multiReferenceTask,
  multiReferenceVideoTask,
  inpaintTask,
  personaImagesTask,
  publishPostTask,
];
