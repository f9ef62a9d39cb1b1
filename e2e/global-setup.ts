import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PRICES } from '../common/api/generation.constants.ts';
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
  // The journeys' credit guards were written around the vendor price list (a 200-credit welcome balance
  // that a 101-credit video leaves short). The studio here is configured as an operator may configure it
  // (LOCAL_PREVIEW_PRICES): local preview prices at the vendor figures, except the image, whose local
  // price (2) lets the studio journey see that the page charges the local list.
  process.env.LOCAL_PREVIEW_PRICES = JSON.stringify({ ...PRICES, image: 2 });
  const studio = await startStudio('e2e', { logFile: path.join(TEST_LOG_DIR, `e2e-studio-${process.pid}.log`) });
  project.provide('baseUrl', studio.baseUrl);
  return studio.stop;
}
