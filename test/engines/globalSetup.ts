/**
 * Starts the reference server for the cross-engine journeys exactly as the e2e run does (test/e2e/globalSetup.ts),
 * and hands its URL to the tests.
 */
import type { TestProject } from 'vitest/node';
import startE2eServer from '../e2e/globalSetup';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stop = await startE2eServer();
  project.provide('serverUrl', process.env.WAYMARK_URL!);
  return stop;
}
