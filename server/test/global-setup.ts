import type { TestProject } from 'vitest/node';
import { buildTemplate, type TemplateRef } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: TemplateRef;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const { ref, dispose } = await buildTemplate(kind);
  project.provide('dbTemplate', ref);
  return dispose;
}
