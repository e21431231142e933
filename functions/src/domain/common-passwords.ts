import { PASSWORD_MIN_LENGTH } from '@app/shared';

/** How many of the most common passwords are refused (those shorter than the minimum are refused anyway). */
export const COMMON_PASSWORDS_REFUSED = 10_000;

let common: Promise<Set<string>> | undefined;

/**
 * The most common passwords, from the ranked list of leaked passwords that zxcvbn-ts ships (most
 * common first, lower case). Loaded on demand: only registration and a password change need it, and
 * its ~400 kB stay out of every bundle (the auth function gets it installed next to its bundle).
 */
function commonPasswords(): Promise<Set<string>> {
  return (common ??= import('@zxcvbn-ts/language-common')
    .then(({ dictionary }) => {
      const ranked = dictionary['passwords-common'] as string[];
      return new Set(ranked.filter((p) => p.length >= PASSWORD_MIN_LENGTH).slice(0, COMMON_PASSWORDS_REFUSED));
    })
    .catch((err: unknown) => {
      common = undefined;
      throw err;
    }));
}

/** Whether a password is among the most common ones, whatever its letter case ("Password1" is "password1"). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}
