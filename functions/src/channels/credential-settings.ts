/**
 * The connection settings of a channel whose connection is a set of credentials kept in the owner's settings (the
 * generic `channels.*` routes): status, connect (checked against the service first: a refusal saves nothing), test
 * and disconnect are the same for every such channel; what differs is given by the channel.
 */
import { badRequest } from '../domain/errors.js';
import type { SettingService } from '../domain/settings.js';
import type { ChannelCheck, ChannelSettings } from './channel.js';

export type CredentialSettingsStore = Pick<SettingService, 'values' | 'put' | 'remove' | 'updatedAt'>;

export interface CredentialsOf<C> {
  /** Every setting key the credentials use; the first is the secret whose save time is the connection's. */
  keys: readonly [string, ...string[]];
  /** The credentials from the saved values, or undefined while a part is missing. */
  fromValues(values: ReadonlyMap<string, string>): C | undefined;
  /** What to save: each key with its value and its description in the settings list. */
  toValues(credentials: C): [key: string, value: string, description: string][];
  /** The form's input, checked (bad input: the channel's 400). */
  parse(input: Record<string, string>): C;
  /** What the status shows of them, each secret masked. */
  fields(credentials: C | undefined): Record<string, string | null>;
  /** Asks the service whether they work. */
  check(credentials: C): Promise<ChannelCheck>;
  notConnected: { message: string; code: string };
}

/** The saved credentials of `userId`, or undefined while a part is missing. */
export async function storedCredentials<C>(
  settings: CredentialSettingsStore,
  of: Pick<CredentialsOf<C>, 'keys' | 'fromValues'>,
  userId: string,
): Promise<C | undefined> {
  return of.fromValues(await settings.values(userId, [...of.keys]));
}

export function credentialSettings<C>(settings: CredentialSettingsStore, of: CredentialsOf<C>): ChannelSettings {
  return {
    async status(userId) {
      const credentials = await storedCredentials(settings, of, userId);
      return {
        connected: credentials !== undefined,
        fields: of.fields(credentials),
        updatedAt: await settings.updatedAt(userId, of.keys[0]),
      };
    },
    async connect(userId, input) {
      const credentials = of.parse(input);
      const result = await of.check(credentials);
      if (!result.ok) throw badRequest(result.message, result.code);
      for (const [key, value, description] of of.toValues(credentials))
        await settings.put(userId, key, value, description);
      return result;
    },
    async test(userId, input) {
      const credentials = input ? of.parse(input) : await storedCredentials(settings, of, userId);
      if (!credentials) throw badRequest(of.notConnected.message, of.notConnected.code);
      return of.check(credentials);
    },
    async disconnect(userId) {
      for (const key of of.keys) await settings.remove(userId, key);
    },
  };
}
