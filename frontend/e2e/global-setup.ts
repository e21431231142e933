import { existsSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../functions/src/local/dynamo.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';

/**
 * What every journey file of the run shares instead of starting its own: one in-memory DynamoDB Local (each app that
 * `startApp()` starts gets a table of its own in it) and one Chromium, which each file's `launchBrowser()` connects to
 * (its contexts are its own and are closed when it disconnects). A JVM and a browser started per file took seconds
 * each (docs/testing.md, Run time). Without Chromium the journeys skip or fail by themselves (harness.ts).
 */
export default async function setup(project: TestProject) {
  // The AWS SDK's notice about this Node version, once per run from this process (the apps are told the same).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const [dynamo, browser] = await Promise.all([
    startDynamoLocal(),
    existsSync(chromiumPath)
      ? chromium.launchServer({ executablePath: chromiumPath, headless: true, args: [...CHROMIUM_ARGS] })
      : Promise.resolve(undefined as BrowserServer | undefined),
  ]);
  project.provide('e2eDynamoEndpoint', dynamo.endpoint);
  project.provide('e2eBrowserEndpoint', browser?.wsEndpoint() ?? '');
  return async () => {
    await browser?.close();
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's DynamoDB Local. */
    e2eDynamoEndpoint: string;
    /** The run's Chromium (a Playwright browser server), '' without one. */
    e2eBrowserEndpoint: string;
  }
}
