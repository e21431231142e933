/**
 * The generic routes of the channels that have no documented routes of their own (`channels.*`,
 * shared/src/api/routes.ts; functions/src/http/channels.ts): the path's channel and article, and the connection
 * form's fields, which the channel itself then checks (functions/src/channels/channel.ts, ChannelSettings).
 */
import * as z from 'zod/mini';
import type { Article } from './articles.js';
import { lazySchema } from './lazy-schema.js';

export const ChannelApiMessages = {
  channelInvalid: 'Channel ID is not valid',
  articleInvalid: 'Article ID is not valid',
  siteUrlText: 'The site address must be text',
  siteUrlTooLong: 'The site address is too long',
  keyText: 'The API key must be text',
  keyTooLong: 'The API key is too long',
  handleText: 'The handle must be text',
  handleTooLong: 'The handle is too long',
  passwordText: 'The app password must be text',
  passwordTooLong: 'The app password is too long',
  serviceUrlText: 'The server address must be text',
  serviceUrlTooLong: 'The server address is too long',
} as const;

/** Shaped like an article id: a well-formed id of no channel in the registry is not found (404), not refused. */
const channelId = () =>
  z
    .string()
    .check(
      z.minLength(1, ChannelApiMessages.channelInvalid),
      z.maxLength(64, ChannelApiMessages.channelInvalid),
      z.regex(/^[A-Za-z0-9_-]+$/, ChannelApiMessages.channelInvalid),
    );

export const ChannelParamsSchema = lazySchema(() => z.strictObject({ channel: channelId() }));

export const ChannelPublishParamsSchema = lazySchema(() =>
  z.strictObject({
    channel: channelId(),
    id: z
      .string()
      .check(
        z.minLength(1, ChannelApiMessages.articleInvalid),
        z.maxLength(64, ChannelApiMessages.articleInvalid),
        z.regex(/^[A-Za-z0-9_-]+$/, ChannelApiMessages.articleInvalid),
      ),
  }),
);

/**
 * A channel's connection form: the fields the channels ask for, each optional here and checked by the channel itself
 * (a missing or malformed one: its 400). Empty: test the saved connection. A channel with another field adds it here.
 */
export const ChannelCredentialsSchema = lazySchema(() =>
  z.strictObject({
    siteUrl: z.optional(
      z.string({ error: ChannelApiMessages.siteUrlText }).check(z.maxLength(300, ChannelApiMessages.siteUrlTooLong)),
    ),
    adminApiKey: z.optional(
      z.string({ error: ChannelApiMessages.keyText }).check(z.maxLength(200, ChannelApiMessages.keyTooLong)),
    ),
    /** An account's handle, its app password and the server hosting it (a social network's sign-in). */
    handle: z.optional(
      z.string({ error: ChannelApiMessages.handleText }).check(z.maxLength(300, ChannelApiMessages.handleTooLong)),
    ),
    appPassword: z.optional(
      z.string({ error: ChannelApiMessages.passwordText }).check(z.maxLength(200, ChannelApiMessages.passwordTooLong)),
    ),
    serviceUrl: z.optional(
      z
        .string({ error: ChannelApiMessages.serviceUrlText })
        .check(z.maxLength(2048, ChannelApiMessages.serviceUrlTooLong)),
    ),
  }),
);
export type ChannelCredentialsInput = z.infer<ReturnType<typeof ChannelCredentialsSchema>>;

/** A channel's connection (`channels.status`): what the owner entered, each secret masked. */
export interface ChannelConnectionAnswer {
  success: true;
  channel: string;
  connected: boolean;
  fields: Record<string, string | null>;
  updatedAt: string | null;
}

export interface ChannelConnectedAnswer extends Omit<ChannelConnectionAnswer, 'success'> {
  success: true;
  message: string;
}

/** A failed check is an answer, not an error: `success: false` with the reason and its code. */
export type ChannelCheckAnswer = { success: true; message: string } | { success: false; message: string; code: string };

export interface ChannelPublishAnswer {
  success: true;
  /** The post's address, when the channel gave one. */
  post: { url: string | null };
  article: Article;
  message: string;
}
