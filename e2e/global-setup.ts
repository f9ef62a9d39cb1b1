import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startStudio } from '../scripts/studio-process.ts';
import { TEST_LOG_DIR } from '../server/test/security/log-secrets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Starts the whole studio, as `npm start` does, on a fresh data dir for the browser journeys. */
export default async function setup(project: TestProject) {
  // Its log joins the suite's logs that `npm test` checks for secrets.
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  const studio = await startStudio('e2e', { logFile: path.join(TEST_LOG_DIR, `e2e-studio-${process.pid}.log`) });
  project.provide('baseUrl', studio.baseUrl);
  return studio.stop;
}
