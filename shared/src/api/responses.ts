import type { Article, ImageStatus, VersionId } from '../articles.js';
import type { PublicUser, SetupStatus } from '../auth.js';
import type { CalendarAnswer } from '../calendar.js';
import type {
  ChannelCheckAnswer,
  ChannelConnectedAnswer,
  ChannelConnectionAnswer,
  ChannelPublishAnswer,
} from '../channel-api.js';
import type { ActivityEntry, ArticleComment } from '../comments.js';
import type { DashboardAnswer } from '../dashboard-summary.js';
import type { EmailStatus, LinkedInStatus, WordPressStatus } from '../integrations.js';
import type { LinkedInIdentity } from '../little-text.js';
import type { Setting } from '../settings.js';
import type { ReviewSettings } from '../review.js';
import type { SheetsImportResult, SheetsStatus, Spreadsheet } from '../sheets.js';
import type {
  InstanceSettings,
  InvitationPreview,
  WorkspaceInvitation,
  WorkspaceMember,
  WorkspaceSummary,
} from '../workspaces.js';
import type { RouteId } from './routes.js';

/**
 * What each route answers on success (functions/src/http/<group>.ts builds it; the SPA reads it).
 * Failures are always the error body `{error, message, code?}` (ApiErrorBody). A route that
 * answers no JSON is marked Redirect (the OAuth callbacks, and the image files: the browser loads
 * them from the store's signed URL).
 */

declare const redirectMark: unique symbol;
/** A 302, no body: a provider's redirect target, or an `<img>` source sent on to the file; not a fetch call. */
export interface Redirect {
  readonly [redirectMark]: true;
}

/** Every failure's body (functions/src/http/response.ts, errorResponse). */
export interface ApiErrorBody {
  /** The text for the person; the same as `message` (auth screens read this one). */
  error: string;
  message: string;
  /** A stable machine-readable reason (e.g. `linkedin_token_invalid`), when there is one. */
  code?: string;
}

/** An action's confirmation: the text to show. */
export interface MessageAnswer {
  message: string;
}

/** An action that succeeded, with the text to show. */
export interface SuccessAnswer {
  success: true;
  message: string;
}

/** The signed-in user (GET /api/auth/me); null without a valid session. */
export interface CurrentUserAnswer {
  user: PublicUser | null;
}

/** Signed in: the user, and a session cookie is set. */
export interface SignInAnswer {
  user: PublicUser;
  message: string;
}

/**
 * 201 for every registration. `user` only for the very first account (the admin, signed in at
 * once); a new account awaiting approval and an e-mail that has an account already get the same
 * answer without it.
 */
export interface RegisterAnswer {
  user?: PublicUser;
  message: string;
}

export interface UserListAnswer {
  users: PublicUser[];
}

/** An account activated or deactivated by the admin. */
export interface UserStatusAnswer {
  user: PublicUser;
  message: string;
}

/** A list of the owner's articles; long texts (details, blog and LinkedIn versions) are previews. */
export interface ArticleListAnswer {
  articles: Article[];
}

/** One page of a list (GET /api/articles, /api/articles/published); `nextCursor` is null on the last page. */
export interface ArticlePageAnswer extends ArticleListAnswer {
  nextCursor: string | null;
}

/** One article, in full. */
export interface ArticleAnswer {
  article: Article;
}

/** An article's comments on both versions, oldest first. */
export interface CommentsAnswer {
  comments: ArticleComment[];
}

/** The comment just made. */
export interface CommentAnswer {
  comment: ArticleComment;
}

/** One page of an article's activity, newest first; nextCursor asks for the next (null: no more). */
export interface ActivityAnswer {
  entries: ActivityEntry[];
  nextCursor: string | null;
}

/** The article after a change (created, edited, drafting restarted). */
export interface ArticleSavedAnswer extends ArticleAnswer {
  success: true;
}

/** The AI's edit of a version, saved into the article. */
export interface GptEditAnswer extends ArticleSavedAnswer {
  editedContent: string;
}

export interface ScheduleAnswer extends ArticleSavedAnswer {
  /** The ISO time the platform is now scheduled for. */
  scheduledFor: string | null;
}

/** 202: image generation started in the background; poll GET /api/image/{articleId} until `pending` is false. */
export interface ImageStartAnswer extends ImageStatus {
  message: string;
}

/**
 * Where and how the browser posts the file itself (a presigned POST): a multipart form to `url` with
 * `fields` first and the file last (field `file`), within `expiresAt`; then POST …/complete with `key`.
 */
export interface ImageUploadStartAnswer {
  upload: { url: string; fields: Record<string, string>; key: string; expiresAt: string; maxBytes: number };
}

/** The image as it now is (uploaded or cropped again), with the text to show. */
export interface ImageSavedAnswer extends ImageStatus {
  message: string;
}

export interface SaveSettingAnswer {
  success: true;
  /** The entry as saved, its value masked unless it is a public one. */
  setting: Setting;
  message: string;
}

/** A failed WordPress check is an answer, not an error: `success: false` with the reason. */
export type WordPressCheckAnswer =
  | { success: true; user: { name: string }; message: string }
  | { success: false; error: string; message: string; code: string };

/** Credentials saved after a passing check. */
export interface WordPressSavedAnswer {
  success: true;
  user: { name: string };
  message: string;
  /** The site URL as stored (scheme, host and path, no trailing slash). */
  siteUrl: string;
}

export interface WordPressPublishAnswer {
  success: true;
  /** The post's address, when WordPress gave one. */
  post: { link: string | null };
  article: Article;
  message: string;
}

/** A failed LinkedIn check is an answer, not an error: `success: false` with the reason. */
export type LinkedInCheckAnswer =
  { success: true; message: string } | { success: false; error: string; message: string };

/** The provider's sign-in page to send the browser to. */
export interface AuthUrlAnswer {
  success: true;
  authUrl: string;
}

/** The automation webhook called after a LinkedIn publication ('' = none). */
export interface WebhookAnswer {
  success: true;
  webhookUrl: string;
  hasSigningSecret: boolean;
}

export interface WebhookSavedAnswer {
  success: true;
  message: string;
  webhookUrl: string;
  /** Only when the secret is first created: shown once. */
  signingSecret?: string;
}

export interface LinkedInPublishAnswer {
  success: true;
  post: { url: string };
  article: Article;
  message: string;
}

/** Who a LinkedIn post of the article goes out as. */
export type PostingMode = Article['linkedInMode'];

export interface PostingModeAnswer {
  success: true;
  mode: PostingMode;
}

export interface PostingModeSavedAnswer extends PostingModeAnswer {
  message: string;
}

/** What an approval link would publish (reading it never publishes). */
export interface ApprovalPreview {
  success: true;
  title: string;
  platform: VersionId;
  /** The scheduled time the link was made for. */
  scheduledFor: string;
  /** Whether that is still the platform's schedule (a moved schedule's link is outdated). */
  current: boolean;
  published: boolean;
  /**
   * The version's whole text as stored: the page shows it as publishing sends it (wordpressPost,
   * linkedInCommentary), with the editor's preview components.
   */
  content: string;
  /** The owner's time zone (UTC when the stored one is not known): the time is shown in it, not the browser's. */
  timeZone: string;
  /** The platform's image (GET /api/approvals/image with the same token serves it), or null. */
  image: { generatedAt: string; description: string } | null;
  /** Who a LinkedIn post goes out as, for the card's author: the LinkedIn version's, or a bundle's (else null). */
  linkedIn: ApprovalLinkedInAuthor | null;
  postUrl: string | null;
  /**
   * The channels approving publishes to (the version's connected ones: WordPress and/or another blog channel for the blog), each
   * with its post once it has one; a retry after a partial failure sends only to those without.
   */
  channels: ApprovalChannel[];
}

export interface ApprovalChannel {
  channel: string;
  label: string;
  published: boolean;
  postUrl: string | null;
  /** The text it publishes (its own version's, else the version's), for its preview. */
  content: string;
  /** A blog-first bundle's social post: it goes out after the blog post, carrying its link. */
  social?: true;
}

/** Who a LinkedIn post goes out as: the article's posting mode and the connection's member and page names. */
export interface ApprovalLinkedInAuthor extends LinkedInIdentity {
  mode: 'personal' | 'company';
}

/** A workspace's review setting (a personal workspace's is always `author`). */
export interface ReviewSettingsAnswer {
  success: true;
  personal: boolean;
  settings: ReviewSettings;
}

/** A review action from the app: the article as it is now, and the post when the approval published it. */
export interface ReviewActionAnswer {
  success: true;
  message: string;
  article: Article;
  published: { platform: VersionId; postUrl: string | null } | null;
}

/** What a reviewer's e-mailed link shows (reading it never acts). */
export interface ReviewLinkPreview {
  success: true;
  action: 'approve' | 'changes';
  title: string;
  platform: VersionId;
  content: string;
  workspaceName: string;
  reviewerName: string;
  stage: 1 | 2;
  stages: 1 | 2;
  scheduledFor: string | null;
  timeZone: string;
  /** Whether the link still applies (the version was not changed or decided since). */
  current: boolean;
  /** The version's image (GET /api/review-links/image with the same token serves it), or null. */
  image: { generatedAt: string; description: string } | null;
}

export interface ReviewLinkDone {
  success: true;
  message: string;
}

/** The approved platform was published. */
export interface ApprovalDone {
  success: true;
  message: string;
  platform: VersionId;
  postUrl: string | null;
  /** Each channel it published to, with its post's address. */
  channels: { channel: string; label: string; postUrl: string | null }[];
}

export interface SpreadsheetListAnswer {
  success: true;
  spreadsheets: Spreadsheet[];
}

export interface WorkspaceListAnswer {
  workspaces: WorkspaceSummary[];
}
export interface WorkspaceCreatedAnswer {
  message: string;
  workspace: WorkspaceSummary;
}
export interface MemberListAnswer {
  members: WorkspaceMember[];
}
export interface InvitationListAnswer {
  invitations: WorkspaceInvitation[];
}
export interface InvitationSentAnswer {
  message: string;
  invitation: WorkspaceInvitation;
}
export interface InvitationAcceptedAnswer {
  message: string;
  workspace: WorkspaceSummary;
}
/** Registering through an invitation: signed in at once (user) when invitations activate accounts, else pending. */
export interface InvitedRegisterAnswer {
  message: string;
  user?: PublicUser;
  workspace?: WorkspaceSummary;
}
export interface InstanceSettingsAnswer {
  settings: InstanceSettings;
}

/** The answer of each route on success, by route id. */
export interface ApiResponses {
  'auth.register': RegisterAnswer;
  'auth.login': SignInAnswer;
  'auth.me': CurrentUserAnswer;
  'auth.logout': MessageAnswer;
  'auth.logoutEverywhere': MessageAnswer;
  'auth.changePassword': MessageAnswer;
  'auth.setup': SetupStatus;
  'admin.listUsers': UserListAnswer;
  'admin.setUserStatus': UserStatusAnswer;

  'articles.list': ArticlePageAnswer;
  'articles.create': ArticleSavedAnswer;
  'articles.unpublished': ArticleListAnswer;
  'articles.published': ArticlePageAnswer;
  'articles.get': ArticleAnswer;
  'articles.updateBlog': ArticleSavedAnswer;
  'articles.updateLinkedIn': ArticleSavedAnswer;
  'articles.updateVersion': ArticleSavedAnswer;
  'articles.retryGeneration': ArticleSavedAnswer;
  'schedule.set': ScheduleAnswer;
  'articles.gptEdit': GptEditAnswer;
  'articles.calendar': CalendarAnswer;
  'dashboard.get': DashboardAnswer;
  'articles.comments': CommentsAnswer;
  'articles.addComment': CommentAnswer;
  'articles.deleteComment': MessageAnswer;
  'articles.activity': ActivityAnswer;

  'images.generate': ImageStartAnswer;
  'images.regenerate': ImageStartAnswer;
  'images.preview': Redirect;
  'images.status': ImageStatus;
  'images.uploadStart': ImageUploadStartAnswer;
  'images.uploadComplete': ImageSavedAnswer;
  'images.focalPoint': ImageSavedAnswer;
  'images.original': Redirect;

  'settings.list': Setting[];
  'settings.save': SaveSettingAnswer;
  'settings.delete': SuccessAnswer;

  'wordpress.status': WordPressStatus;
  'wordpress.testConnection': WordPressCheckAnswer;
  'wordpress.saveCredentials': WordPressSavedAnswer;
  'wordpress.publish': WordPressPublishAnswer;
  'channels.status': ChannelConnectionAnswer;
  'channels.connect': ChannelConnectedAnswer;
  'channels.disconnect': { success: true; message: string };
  'channels.test': ChannelCheckAnswer;
  'channels.publish': ChannelPublishAnswer;

  'linkedin.status': LinkedInStatus;
  'linkedin.saveCredentials': SuccessAnswer;
  'linkedin.testConnection': LinkedInCheckAnswer;
  'linkedin.authUrl': AuthUrlAnswer;
  'linkedin.callback': Redirect;
  'linkedin.getWebhook': WebhookAnswer;
  'linkedin.setWebhook': WebhookSavedAnswer;
  'linkedin.publish': LinkedInPublishAnswer;
  'linkedin.setPostingMode': PostingModeSavedAnswer;
  'linkedin.getPostingMode': PostingModeAnswer;

  'email.status': EmailStatus;
  'email.authUrl': AuthUrlAnswer;
  'email.callback': Redirect;
  'approvals.preview': ApprovalPreview;
  'approvals.confirm': ApprovalDone;
  'approvals.image': Redirect;
  'approvals.submit': ReviewActionAnswer;
  'approvals.approve': ReviewActionAnswer;
  'approvals.requestChanges': ReviewActionAnswer;
  'approvals.reviewPreview': ReviewLinkPreview;
  'approvals.reviewConfirm': ReviewLinkDone;
  'approvals.reviewImage': Redirect;
  'email.test': SuccessAnswer;

  'sheets.authUrl': AuthUrlAnswer;
  'sheets.callback': Redirect;
  'sheets.status': SheetsStatus;
  'sheets.disconnect': SuccessAnswer;
  'sheets.list': SpreadsheetListAnswer;
  'sheets.import': SheetsImportResult;

  'workspaces.list': WorkspaceListAnswer;
  'workspaces.create': WorkspaceCreatedAnswer;
  'workspaces.members': MemberListAnswer;
  'workspaces.setRole': MessageAnswer;
  'workspaces.removeMember': MessageAnswer;
  'workspaces.review': ReviewSettingsAnswer;
  'workspaces.setReview': ReviewSettingsAnswer & MessageAnswer;
  'workspaces.invitations': InvitationListAnswer;
  'workspaces.invite': InvitationSentAnswer;
  'workspaces.revokeInvitation': MessageAnswer;
  'workspaces.invitation': InvitationPreview;
  'workspaces.accept': InvitationAcceptedAnswer;
  'auth.registerInvited': InvitedRegisterAnswer;
  'admin.getSettings': InstanceSettingsAnswer;
  'admin.setSettings': InstanceSettingsAnswer & MessageAnswer;
}

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Does not compile unless ApiResponses names exactly the routes of the table, no more and no fewer. */
export type ApiResponsesCoverRoutes = Assert<Exactly<keyof ApiResponses, RouteId>>;

/** The answer of route K on success. */
export type RouteResponse<K extends RouteId> = ApiResponses[K];

/** The routes that answer JSON: the ones a fetch client calls (not the redirects, not the image bytes). */
export type JsonRouteId = { [K in RouteId]: ApiResponses[K] extends Redirect ? never : K }[RouteId];
