import { isPlatform, type VersionId } from '@app/shared';
import { ownVersionIds } from '../channels/ids.js';
import { badRequest } from '../domain/errors.js';

/**
 * The version a request names (`platform` of the review routes): blog, linkedin, or the id of a channel with a
 * version of its own (channels/registry.ts); anything else is refused as the schema refuses a malformed one.
 */
export function requestedVersion(name: string, refusal = 'platform must be blog or linkedin'): VersionId {
  if (isPlatform(name) || ownVersionIds.includes(name)) return name;
  throw badRequest(refusal);
}
