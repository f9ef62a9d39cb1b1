import type { TestProject } from 'vitest/node';
import { startStudio } from '../scripts/studio-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Starts the whole studio, as `npm start` does, on a fresh data dir for the browser journeys. */
export default async function setup(project: TestProject) {
  const studio = await startStudio('e2e');
  project.provide('baseUrl', studio.baseUrl);
  return studio.stop;
}
