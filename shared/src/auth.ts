import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  isValidTimeZone,
} from './limits.js';
import { safeCharacters } from './text.js';

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      safeCharacters(label),
    );

export const EmailSchema = lazySchema(() =>
  z.pipe(
    z
      .string({ error: 'Email is required' })
      .check(
        z.trim(),
        z.minLength(1, 'Email is required'),
        z.maxLength(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`),
      ),
    z.email('Enter a valid email address'),
  ),
);

export const PasswordSchema = lazySchema(() =>
  z.string({ error: 'Password is required' }).check(
    z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
    z.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
    // A new password only: the login schema leaves passwords as they were, so no account is locked out.
    safeCharacters('Password'),
  ),
);

export const TimeZoneSchema = lazySchema(() =>
  z
    .string({ error: 'Timezone is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Timezone is required'),
      z.maxLength(64, 'Timezone is not a known time zone'),
      z.refine(isValidTimeZone, 'Timezone is not a known time zone'),
    ),
);

export const RegisterSchema = lazySchema(() =>
  z.strictObject({
    name: requiredText('Name', NAME_MAX_LENGTH),
    surname: requiredText('Surname', NAME_MAX_LENGTH),
    email: EmailSchema(),
    password: PasswordSchema(),
    timezone: TimeZoneSchema(),
    /** Only while a deployment has no admin yet and asks for one (GET /api/auth/setup). */
    setupCode: z.optional(
      z
        .string({ error: 'The setup code must be text' })
        .check(z.trim(), z.maxLength(200, 'The setup code must be at most 200 characters')),
    ),
  }),
);
export type RegisterInput = z.infer<ReturnType<typeof RegisterSchema>>;

/** GET /api/auth/setup: whether registering the first (admin) account needs the setup code. */
export interface SetupStatus {
  setupCodeRequired: boolean;
}

export const ChangePasswordSchema = lazySchema(() =>
  z.strictObject({
    currentPassword: z
      .string({ error: 'The current password is required' })
      .check(
        z.minLength(1, 'The current password is required'),
        z.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
      ),
    newPassword: PasswordSchema(),
  }),
);
export type ChangePasswordInput = z.infer<ReturnType<typeof ChangePasswordSchema>>;

export const LoginSchema = lazySchema(() =>
  z.strictObject({
    email: EmailSchema(),
    // docs/product.md (Welcome): the auth form asks for at least 6 characters in both modes (no account has fewer).
    password: z
      .string({ error: 'Password is required' })
      .check(
        z.minLength(1, 'Password is required'),
        z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
        z.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
      ),
  }),
);
export type LoginInput = z.infer<ReturnType<typeof LoginSchema>>;

export const UserStatusSchema = lazySchema(() =>
  z.strictObject({
    isActive: z.boolean({ error: 'isActive must be true or false' }),
  }),
);
export type UserStatusInput = z.infer<ReturnType<typeof UserStatusSchema>>;

export const IdParamsSchema = lazySchema(() =>
  z.strictObject({
    id: z
      .string()
      .check(
        z.minLength(1, 'id is required'),
        z.maxLength(64, 'id is too long'),
        z.regex(/^[A-Za-z0-9_-]+$/, 'id is not valid'),
      ),
  }),
);

export const ROLE_ADMIN = 'admin';
export const ROLE_USER = 'user';

/** The user as the API shows it: never any password material. */
export interface PublicUser {
  _id: string;
  name: string;
  surname: string;
  email: string;
  role: string;
  isActive: boolean;
  timezone: string;
  createdAt: string;
}

export const isAdmin = (user: { role?: string } | null | undefined): boolean => user?.role === ROLE_ADMIN;

/** The first message of a zod error, the way forms and the API show it. */
export function firstIssueMessage(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  // A name that is not a plain word (empty, spaces, odd characters) is quoted, so that it can be seen.
  if (issue.code === 'unrecognized_keys')
    return `Unknown field: ${issue.keys.map((k) => (/^[\w.-]+$/.test(k) ? k : JSON.stringify(k))).join(', ')}`;
  return issue.message;
}
