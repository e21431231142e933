import type { Config } from '../../config.js';
import { HttpLinkedInPublisher } from './publish.js';
import { linkedInVersionWarning } from './version.js';
import { logger } from '../../logger.js';

/**
 * The LinkedIn publisher of the configured LinkedIn-Version. Building it warns in the log (once per
 * process) when that version is more than ten months old, so an operator sees it in CloudWatch before
 * LinkedIn retires it (docs/operations.md, LinkedIn version); the PublishFailed alarm catches the rest.
 */
export function linkedInPublisher(config: Config, now: () => Date = () => new Date()): HttpLinkedInPublisher {
  const warning = linkedInVersionWarning(config.linkedinApiVersion, now());
  if (warning && warned !== config.linkedinApiVersion) {
    warned = config.linkedinApiVersion;
    logger.warn(warning, { linkedinApiVersion: config.linkedinApiVersion });
  }
  return new HttpLinkedInPublisher({ apiUrl: config.linkedinApiUrl, version: config.linkedinApiVersion });
}

let warned: string | undefined;
