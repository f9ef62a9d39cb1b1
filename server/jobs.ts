import { canvasImageTask } from './features/canvas-images/tasks.ts';
import { generateAudioTask, generateImageTask, generateVideoTask } from './features/generation/tasks.ts';
import { inpaintTask } from './features/inpaint/tasks.ts';
import { multiReferenceTask } from './features/multi-reference/tasks.ts';
import { multiReferenceVideoTask } from './features/multi-reference/video-task.ts';
import { notificationsJob, weeklyReportJob } from './features/notifications/jobs.ts';
import { subscriptionRenewalJob } from './features/payments/renewal.ts';
import { personaImagesTask } from './features/personas/pipeline.ts';
import { compileMasterVideoTask } from './features/sequences/tasks.ts';
import { metricsRefreshJob } from './features/social/metrics.ts';
import { publishPostTask } from './features/social/posts.ts';
import { postSchedulerJob } from './features/social/scheduler.ts';
import { mediaExtractTask } from './features/uploads/extract-task.ts';
import { upscaleImageTask, upscaleVideoTask } from './features/upscale/tasks.ts';
import { rateLimitSweepJob } from './platform/http/rate-limit-store.ts';
import type { JobKinds } from './platform/jobs/types.ts';

/**
 * Every task kind and scheduled job of the studio, in one list: the API process (with RUN_WORKERS on) and
 * `npm run worker` hand the same list to the job queue (createContext). Add new kinds and sweeps here; the
 * platform never imports features.
 */
export const STUDIO_JOBS: JobKinds = {
  tasks: [
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
  ],
  scheduled: [
    subscriptionRenewalJob,
    postSchedulerJob,
    metricsRefreshJob,
    notificationsJob,
    weeklyReportJob,
    rateLimitSweepJob,
  ],
};
