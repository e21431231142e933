import type { ComponentType, LazyExoticComponent } from 'react';
import type { UseQueryOptions } from '@tanstack/react-query';
import type { Article, ChannelFacts } from '@app/shared';
import type { ApprovalLinkedInAuthor, RouteId } from '@app/shared/api';
import type { HeadingLevel, ImageSource, PreviewImage } from './preview';

/**
 * A link card a post carries under its text, as the channel draws one (a blog-first bundle's social post: the blog
 * post's card, whose address is known only once it is live). Its picture is the preview's `image`.
 */
export interface PreviewLinkCard {
  title: string;
  /** Where it links, as the card shows it: the site's address, or words saying where when it is not known yet. */
  site: string;
  /** The address the card opens; none while it is not known. */
  href?: string;
}

/** What a page gives a channel's preview (preview.tsx has what the previews share). */
export type ChannelPreviewProps = ImageSource & {
  /** The article's title. */
  title: string;
  /** The text of the version the channel publishes, as typed (saved or not). */
  content: string;
  image: PreviewImage | null;
  headingLevel?: HeadingLevel;
  /** The article's posting mode, for a channel that posts as a person or a page. */
  postingMode?: Article['linkedInMode'];
  /**
   * Who the post goes out as, when the page knows it already (an e-mailed link's page; null: not known, a neutral
   * author). Left out, the channel's preview asks the signed-in owner's connection.
   */
  author?: ApprovalLinkedInAuthor | null;
  /** A link card the post carries instead of the picture alone (the picture goes on the card). */
  linkCard?: PreviewLinkCard;
};

/** A tag's text and background colours (#rrggbb). */
export interface TagColors {
  text: string;
  background: string;
}

/** A channel's tag: its mark (a calendar item's, two or three letters) and its colours per theme. */
export interface ChannelTagLook {
  mark: string;
  light: TagColors;
  dark: TagColors;
}

/** What publishing now answered, as the Schedule page shows it. */
export interface PublishAnswer {
  message: string;
  /** The post's address, when the server gave an http(s) one. */
  link: string | null;
  /** The article as it is now. */
  article: Article;
}

/**
 * One channel as the SPA sees it (docs/architecture.md, Channels in the SPA): its shared facts, then what the pages
 * ask of it.
 * The light parts are in the channel's folder (`<id>/index.ts`); its settings panel and preview are chunks of their
 * own, loaded when a page renders them (registry.ts).
 */
export interface SpaChannel extends ChannelFacts {
  /** Whether the article's version was posted there (its flag, whether or not the time is known). */
  posted: (article: Article) => boolean;
  /** The published post's address as stored on the article (an http(s) check is the caller's). */
  postUrl: (article: Article) => string | null | undefined;
  /** The route that publishes now: the current role may publish when it may call it (shared/src/api/roles.ts). */
  publishRoute: RouteId;
  /** Publishes the article's version now. */
  publish: (articleId: string) => Promise<PublishAnswer>;
  texts: {
    /** The link to the published post ("View on WordPress"). */
    viewOn: string;
    /** Publishing failed without a text of the server's. */
    publishFailed: string;
    /** The publish confirmation's sentence. */
    publishConfirm: (article: Article) => string;
    /** The version's editor heading on the content step. */
    editorTitle: string;
    /** The heading of the comments on its version (the content step). */
    commentsTitle: string;
    /** Its editor: the text box's label, the version's name in a sentence, the box's height. */
    editor: { textarea: string; noun: string; rows: number };
  };
  /**
   * Its tag on History and the calendar: a short mark and the tag's colours in each theme (its text on its
   * background, at least 4.5:1: channels/tags.test.ts), so each channel is told apart at a glance.
   */
  tag: ChannelTagLook;
  /** The error codes of its publishing that Settings (or the editor) puts right, with the link's words. */
  remedies: Readonly<Record<string, string>>;
  /**
   * The connection's status as one line, for the members who are not owners on /settings: the status route's query
   * (the panel's own cache entry) with a `select` that words it (masked: no secret is in it).
   */
  // The status answer's type is the channel's own; the line is text for every channel.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  statusLine: UseQueryOptions<any, Error, string, any>;
  /** Shown in the channel's row of a Schedule card, under its actions (e.g. LinkedIn's posting mode). */
  CardExtra?: ComponentType<{ article: Article; published: boolean }>;
  /**
   * A second channel of a version another channel already publishes (a second blog): it has no editor of its
   * own; while it is connected, its preview follows the version's on Create and it has a row of its own on the
   * Schedule card and in History (channels/also.tsx).
   */
  also?: {
    /** Whether it is connected: the status query with a `select` that says so. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    connected: UseQueryOptions<any, Error, boolean, any>;
    /** When its post was published, or null. */
    postedAt: (article: Article) => string | null;
  };
  /**
   * A channel that publishes a version of its own (`version` is its id; its text `Article.versions[id].content`): an
   * editor (with the AI edit) and a preview of its own on the content step, saved with `articles.updateVersion`, shown
   * while it is connected or once the article has its text (components/create/GeneratedContentModal.tsx); its own
   * schedule (`scheduled[id]`), approval and review, with its own row on a Schedule card. Only its image is the blog
   * version's.
   */
  ownVersion?: {
    /** Whether it is connected: the status query with a `select` that says so. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    connected: UseQueryOptions<any, Error, boolean, any>;
    /** When its post was published, or null. */
    postedAt: (article: Article) => string | null;
    /** The longest text and how the channel counts it (its editor's `n / max` counter). */
    max: number;
    count: (text: string) => number;
    /** Why the text cannot be saved or published, in the server's words ('' when it can). */
    limitMessage: (text: string) => string;
  };
}

/**
 * A registry entry: the channel and its preview, a chunk fetched when first rendered (inside a Suspense). Its settings
 * panel is the default export of its folder's `*Panel.tsx`, which the Settings page gathers into its own chunk.
 */
export interface RegisteredChannel extends SpaChannel {
  Preview: LazyExoticComponent<ComponentType<ChannelPreviewProps>>;
}
