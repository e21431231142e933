/**
 * What the product asks of Bluesky (docs/integrations.md, Bluesky), in the style of domain/integrations.ts: plain
 * data in and out, no vendor SDK. client.ts implements it over XRPC; the tests run it against a real PDS.
 */
import type { BlueskyCredentials } from './credentials.js';

/** A signed-in account: its tokens, kept in memory only (never logged, never returned by the API). */
export interface BlueskySession {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
}

/** A blob the PDS stored, as a record refers to it. */
export interface BlueskyBlob {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

export interface BlueskyImage {
  bytes: Buffer;
  contentType: string;
  /** Alt text, read out by screen readers: required for an image shown in the post (a link card's thumb has none). */
  alt: string;
}

export interface BlueskyPostInput {
  /** Plain text, at most 300 graphemes (text.ts). Links and hashtags in it become facets. */
  text: string;
  /** Shown as an image (app.bsky.embed.images); with `link`, it is the card's thumbnail instead. */
  image?: BlueskyImage;
  /** A link card (app.bsky.embed.external): the article's address, title and summary. */
  link?: { url: string; title: string; description: string };
  /**
   * The record key the post gets (postRecordKey in text.ts: one per article and channel). A post already under
   * it is answered instead of posting again, so a retry after a lost answer makes no second post.
   */
  rkey: string;
  /** When the post says it was written (default: now). */
  createdAt?: string;
}

export interface BlueskyPost {
  /** at://did/app.bsky.feed.post/rkey */
  uri: string;
  cid: string;
  /** The post on the web app. */
  url: string;
  /** true when the post was already there (an earlier attempt made it). */
  existed: boolean;
}

export type BlueskyConnection =
  { ok: true; did: string; handle: string } | { ok: false; code: string; message: string };

export interface BlueskyClient {
  /** Signs in with the app password and reads the session back; never throws for a refusal (says why instead). */
  testConnection(credentials: BlueskyCredentials): Promise<BlueskyConnection>;
  /** Uploads an image (shrunk to fit the blob limit where the image processor can); the blob to put in a record. */
  uploadImage(
    credentials: BlueskyCredentials,
    image: Pick<BlueskyImage, 'bytes' | 'contentType'>,
  ): Promise<BlueskyBlob>;
  publishPost(credentials: BlueskyCredentials, post: BlueskyPostInput): Promise<BlueskyPost>;
  /** The post under `rkey`, or undefined when there is none. */
  findPost(credentials: BlueskyCredentials, rkey: string): Promise<Omit<BlueskyPost, 'existed'> | undefined>;
}
