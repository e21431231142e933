import type * as z from 'zod/mini';
import {
  ApprovalImageQuerySchema,
  ApprovalSchema,
  ArticlePageQuerySchema,
  ArticleParamsSchema,
  BlogContentSchema,
  CreateArticleSchema,
  GptEditSchema,
  ImageParamsSchema,
  ImageRequestSchema,
  LinkedInContentSchema,
  PreviewQuerySchema,
  ScheduleSchema,
  VersionContentSchema,
} from '../articles.js';
import { ChangePasswordSchema, IdParamsSchema, LoginSchema, RegisterSchema, UserStatusSchema } from '../auth.js';
import {
  EmailTestSchema,
  LinkedInAuthQuerySchema,
  LinkedInCredentialsSchema,
  OAuthCallbackQuerySchema,
  PostingModeSchema,
  PublishParamsSchema,
  WebhookSchema,
  WordPressCredentialsSchema,
  WordPressTestSchema,
} from '../integrations.js';
import { CalendarQuerySchema } from '../calendar.js';
import { ChannelCredentialsSchema, ChannelParamsSchema, ChannelPublishParamsSchema } from '../channel-api.js';
import { ActivityQuerySchema, CommentParamsSchema, NewCommentSchema } from '../comments.js';
import { DashboardQuerySchema } from '../dashboard-summary.js';
import { SaveSettingSchema, SettingParamsSchema, SettingsQuerySchema } from '../settings.js';
import { SheetsAuthQuerySchema, SheetsImportSchema } from '../sheets.js';
import {
  ImageFocalPointSchema,
  ImageUploadCompleteSchema,
  ImageUploadStartSchema,
  OriginalQuerySchema,
} from '../images.js';
import {
  CreateWorkspaceSchema,
  InstanceSettingsSchema,
  InvitationParamsSchema,
  InvitationSchema,
  InvitedRegisterSchema,
  InviteSchema,
  MemberParamsSchema,
  MemberRoleSchema,
} from '../workspaces.js';
import {
  RequestChangesSchema,
  ReviewLinkActionSchema,
  ReviewLinkImageQuerySchema,
  ReviewLinkSchema,
  ReviewActionSchema,
  ReviewSettingsSchema,
} from '../review.js';

/**
 * The route table: the single source of truth for every API call. The CDK stack creates one
 * HTTP API route per entry (served by the function of the entry's group, the part of `id` before
 * the dot) and the local server mounts the same entries. Access is enforced by middleware from
 * `access`; `body`, `query` and `params` are validated with these schemas before a handler runs.
 * The SPA's client builds its calls from the same entries; each route's answer is in responses.ts.
 *
 * The schemas are getters (lazySchema, shared/src/lazy-schema.ts): importing the table builds none, and a
 * function builds a route's schemas on the route's first call (docs/testing.md, Performance budgets).
 */
export type Access = 'public' | 'user' | 'admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A schema of the table: built on its first call, then the same one (lazySchema). */
export type SchemaGetter = () => z.ZodMiniType;

export interface RouteDef {
  id: string;
  method: HttpMethod;
  path: string;
  access: Access;
  body?: SchemaGetter;
  query?: SchemaGetter;
  params?: SchemaGetter;
}

export const routes = [
  { id: 'auth.register', method: 'POST', path: '/api/auth/register', access: 'public', body: RegisterSchema },
  { id: 'auth.login', method: 'POST', path: '/api/auth/login', access: 'public', body: LoginSchema },
  // Public: the SPA's session check on every page load; signed out, it answers `{user: null}`, not 401,
  // so that a normal signed-out load logs no failed request in the browser's console.
  { id: 'auth.me', method: 'GET', path: '/api/auth/me', access: 'public' },
  { id: 'auth.logout', method: 'POST', path: '/api/auth/logout', access: 'public' },
  { id: 'auth.logoutEverywhere', method: 'POST', path: '/api/auth/logout-everywhere', access: 'user' },
  { id: 'auth.changePassword', method: 'POST', path: '/api/auth/password', access: 'user', body: ChangePasswordSchema },
  // Public: the register form asks whether the first account needs the setup code.
  { id: 'auth.setup', method: 'GET', path: '/api/auth/setup', access: 'public' },
  { id: 'admin.listUsers', method: 'GET', path: '/api/admin/users', access: 'admin' },
  {
    id: 'admin.setUserStatus',
    method: 'PATCH',
    path: '/api/admin/users/{id}/status',
    access: 'admin',
    params: IdParamsSchema,
    body: UserStatusSchema,
  },

  // Paged, newest created first; without limit or cursor, the first page.
  { id: 'articles.list', method: 'GET', path: '/api/articles', access: 'user', query: ArticlePageQuerySchema },
  { id: 'articles.create', method: 'POST', path: '/api/articles', access: 'user', body: CreateArticleSchema },
  { id: 'articles.unpublished', method: 'GET', path: '/api/articles/unpublished', access: 'user' },
  {
    id: 'articles.published',
    method: 'GET',
    path: '/api/articles/published',
    access: 'user',
    query: ArticlePageQuerySchema,
  },
  { id: 'articles.get', method: 'GET', path: '/api/articles/{id}', access: 'user', params: ArticleParamsSchema },
  {
    id: 'articles.updateBlog',
    method: 'PUT',
    path: '/api/articles/{id}/blog',
    access: 'user',
    params: ArticleParamsSchema,
    body: BlogContentSchema,
  },
  {
    id: 'articles.updateLinkedIn',
    method: 'PUT',
    path: '/api/articles/{id}/linkedin',
    access: 'user',
    params: ArticleParamsSchema,
    body: LinkedInContentSchema,
  },
  // A channel's own version (Article.versions; functions/src/channels/registry.ts): 404 for a channel without one.
  {
    id: 'articles.updateVersion',
    method: 'PUT',
    path: '/api/articles/{id}/versions/{channel}',
    access: 'user',
    params: ChannelPublishParamsSchema,
    body: VersionContentSchema,
  },
  {
    id: 'articles.retryGeneration',
    method: 'POST',
    path: '/api/articles/{id}/generate',
    access: 'user',
    params: ArticleParamsSchema,
  },
  {
    id: 'schedule.set',
    method: 'PUT',
    path: '/api/articles/{id}/schedule',
    access: 'user',
    params: ArticleParamsSchema,
    body: ScheduleSchema,
  },
  { id: 'articles.gptEdit', method: 'POST', path: '/api/gpt-edit', access: 'user', body: GptEditSchema },
  // Comments on the article's versions (both channels: each comment names its own) and its activity, newest first
  // (docs/product.md, Comments and activity).
  {
    id: 'articles.comments',
    method: 'GET',
    path: '/api/articles/{id}/comments',
    access: 'user',
    params: ArticleParamsSchema,
  },
  {
    id: 'articles.addComment',
    method: 'POST',
    path: '/api/articles/{id}/comments',
    access: 'user',
    params: ArticleParamsSchema,
    body: NewCommentSchema,
  },
  {
    id: 'articles.deleteComment',
    method: 'DELETE',
    path: '/api/articles/{id}/comments/{commentId}',
    access: 'user',
    params: CommentParamsSchema,
  },
  {
    id: 'articles.activity',
    method: 'GET',
    path: '/api/articles/{id}/activity',
    access: 'user',
    params: ArticleParamsSchema,
    query: ActivityQuerySchema,
  },
  // The calendar's entries in a range of at most CALENDAR_MAX_DAYS: a range read (docs/data-model.md, calendar).
  { id: 'articles.calendar', method: 'GET', path: '/api/calendar', access: 'user', query: CalendarQuerySchema },
  // The dashboard's cards from the owner's summary item and unpublished articles (docs/data-model.md).
  { id: 'dashboard.get', method: 'GET', path: '/api/dashboard', access: 'user', query: DashboardQuerySchema },

  {
    id: 'images.generate',
    method: 'POST',
    path: '/api/image/generate/{articleId}',
    access: 'user',
    params: ImageParamsSchema,
    body: ImageRequestSchema,
  },
  {
    id: 'images.regenerate',
    method: 'POST',
    path: '/api/image/regenerate/{articleId}',
    access: 'user',
    params: ImageParamsSchema,
    body: ImageRequestSchema,
  },
  {
    id: 'images.preview',
    method: 'GET',
    path: '/api/image/preview/{articleId}',
    access: 'user',
    params: ImageParamsSchema,
    query: PreviewQuerySchema,
  },
  { id: 'images.status', method: 'GET', path: '/api/image/{articleId}', access: 'user', params: ImageParamsSchema },
  // Your own image: a presigned POST straight to the store, then the server checks, strips and crops it.
  {
    id: 'images.uploadStart',
    method: 'POST',
    path: '/api/image/upload/{articleId}',
    access: 'user',
    params: ImageParamsSchema,
    body: ImageUploadStartSchema,
  },
  {
    id: 'images.uploadComplete',
    method: 'POST',
    path: '/api/image/upload/{articleId}/complete',
    access: 'user',
    params: ImageParamsSchema,
    body: ImageUploadCompleteSchema,
  },
  {
    id: 'images.focalPoint',
    method: 'PUT',
    path: '/api/image/focal-point/{articleId}',
    access: 'user',
    params: ImageParamsSchema,
    body: ImageFocalPointSchema,
  },
  {
    id: 'images.original',
    method: 'GET',
    path: '/api/image/original/{articleId}',
    access: 'user',
    params: ImageParamsSchema,
    query: OriginalQuerySchema,
  },

  { id: 'settings.list', method: 'GET', path: '/api/settings', access: 'user', query: SettingsQuerySchema },
  { id: 'settings.save', method: 'POST', path: '/api/settings', access: 'user', body: SaveSettingSchema },
  { id: 'settings.delete', method: 'DELETE', path: '/api/settings/{key}', access: 'user', params: SettingParamsSchema },

  { id: 'wordpress.status', method: 'GET', path: '/api/wordpress/credentials', access: 'user' },
  {
    id: 'wordpress.testConnection',
    method: 'POST',
    path: '/api/wordpress/test-connection',
    access: 'user',
    body: WordPressTestSchema,
  },
  {
    id: 'wordpress.saveCredentials',
    method: 'POST',
    path: '/api/wordpress/credentials',
    access: 'user',
    body: WordPressCredentialsSchema,
  },
  {
    id: 'wordpress.publish',
    method: 'POST',
    path: '/api/wordpress/publish/{id}',
    access: 'user',
    params: PublishParamsSchema,
  },

  // The channels of the registry without documented routes of their own (functions/src/channels/registry.ts): an id
  // not in it answers 404.
  {
    id: 'channels.status',
    method: 'GET',
    path: '/api/channels/{channel}/connection',
    access: 'user',
    params: ChannelParamsSchema,
  },
  {
    id: 'channels.connect',
    method: 'PUT',
    path: '/api/channels/{channel}/connection',
    access: 'user',
    params: ChannelParamsSchema,
    body: ChannelCredentialsSchema,
  },
  {
    id: 'channels.disconnect',
    method: 'DELETE',
    path: '/api/channels/{channel}/connection',
    access: 'user',
    params: ChannelParamsSchema,
  },
  {
    id: 'channels.test',
    method: 'POST',
    path: '/api/channels/{channel}/test',
    access: 'user',
    params: ChannelParamsSchema,
    body: ChannelCredentialsSchema,
  },
  {
    id: 'channels.publish',
    method: 'POST',
    path: '/api/channels/{channel}/publish/{id}',
    access: 'user',
    params: ChannelPublishParamsSchema,
  },

  { id: 'linkedin.status', method: 'GET', path: '/api/linkedin/status', access: 'user' },
  {
    id: 'linkedin.saveCredentials',
    method: 'POST',
    path: '/api/linkedin/credentials',
    access: 'user',
    body: LinkedInCredentialsSchema,
  },
  {
    id: 'linkedin.testConnection',
    method: 'POST',
    path: '/api/linkedin/test-connection',
    access: 'user',
    body: LinkedInCredentialsSchema,
  },
  {
    id: 'linkedin.authUrl',
    method: 'GET',
    path: '/api/linkedin/auth-url',
    access: 'user',
    query: LinkedInAuthQuerySchema,
  },
  // Public: the provider's redirect; the signed state names (and binds) the user.
  {
    id: 'linkedin.callback',
    method: 'GET',
    path: '/api/linkedin/callback',
    access: 'public',
    query: OAuthCallbackQuerySchema,
  },
  { id: 'linkedin.getWebhook', method: 'GET', path: '/api/linkedin/zapier-webhook', access: 'user' },
  {
    id: 'linkedin.setWebhook',
    method: 'POST',
    path: '/api/linkedin/zapier-webhook',
    access: 'user',
    body: WebhookSchema,
  },
  {
    id: 'linkedin.publish',
    method: 'POST',
    path: '/api/linkedin/publish/{id}',
    access: 'user',
    params: PublishParamsSchema,
  },
  {
    id: 'linkedin.setPostingMode',
    method: 'POST',
    path: '/api/linkedin/article/{id}/posting-mode',
    access: 'user',
    params: PublishParamsSchema,
    body: PostingModeSchema,
  },
  {
    id: 'linkedin.getPostingMode',
    method: 'GET',
    path: '/api/linkedin/article/{id}/posting-mode',
    access: 'user',
    params: PublishParamsSchema,
  },

  { id: 'email.status', method: 'GET', path: '/api/email/settings', access: 'user' },
  { id: 'email.authUrl', method: 'GET', path: '/api/email/oauth/auth', access: 'user' },
  {
    id: 'email.callback',
    method: 'GET',
    path: '/api/email/oauth/callback',
    access: 'public',
    query: OAuthCallbackQuerySchema,
  },
  // Public: the e-mailed link's signed token authorizes; a GET never publishes (mail scanners prefetch).
  { id: 'approvals.preview', method: 'POST', path: '/api/approvals/preview', access: 'public', body: ApprovalSchema },
  { id: 'approvals.confirm', method: 'POST', path: '/api/approvals/confirm', access: 'public', body: ApprovalSchema },
  // The image of the link's platform, for the approval page (a signed-out browser has no session for /api/image).
  {
    id: 'approvals.image',
    method: 'GET',
    path: '/api/approvals/image',
    access: 'public',
    query: ApprovalImageQuerySchema,
  },
  { id: 'email.test', method: 'POST', path: '/api/email/test', access: 'user', body: EmailTestSchema },
  // Review by someone other than the author (docs/product.md, Workspaces, Review): in the approvals group, which
  // already sends the workspace's mail and publishes an approved version.
  {
    id: 'approvals.submit',
    method: 'POST',
    path: '/api/articles/{id}/review/submit',
    access: 'user',
    params: ArticleParamsSchema,
    body: ReviewActionSchema,
  },
  {
    id: 'approvals.approve',
    method: 'POST',
    path: '/api/articles/{id}/review/approve',
    access: 'user',
    params: ArticleParamsSchema,
    body: ReviewActionSchema,
  },
  {
    id: 'approvals.requestChanges',
    method: 'POST',
    path: '/api/articles/{id}/review/changes',
    access: 'user',
    params: ArticleParamsSchema,
    body: RequestChangesSchema,
  },
  // Public: a reviewer's e-mailed link (single-purpose, bound to them, expiring); reading it never acts.
  {
    id: 'approvals.reviewPreview',
    method: 'POST',
    path: '/api/review-links/preview',
    access: 'public',
    body: ReviewLinkSchema,
  },
  {
    id: 'approvals.reviewConfirm',
    method: 'POST',
    path: '/api/review-links/confirm',
    access: 'public',
    body: ReviewLinkActionSchema,
  },
  // The version's image for the review page, by the link's token (as approvals.image is for /approve).
  {
    id: 'approvals.reviewImage',
    method: 'GET',
    path: '/api/review-links/image',
    access: 'public',
    query: ReviewLinkImageQuerySchema,
  },

  { id: 'sheets.authUrl', method: 'GET', path: '/api/sheets/auth', access: 'user', query: SheetsAuthQuerySchema },
  // Public: Google's redirect; the signed state names (and binds) the user.
  {
    id: 'sheets.callback',
    method: 'GET',
    path: '/api/sheets/callback',
    access: 'public',
    query: OAuthCallbackQuerySchema,
  },
  { id: 'sheets.status', method: 'GET', path: '/api/sheets/status', access: 'user' },
  { id: 'sheets.disconnect', method: 'POST', path: '/api/sheets/disconnect', access: 'user' },
  { id: 'sheets.list', method: 'GET', path: '/api/sheets/spreadsheets', access: 'user' },
  { id: 'sheets.import', method: 'POST', path: '/api/sheets/import', access: 'user', body: SheetsImportSchema },

  // Workspaces (docs/product.md, Workspaces). The current workspace is the X-Workspace header's; what each
  // role may call is in roles.ts.
  { id: 'workspaces.list', method: 'GET', path: '/api/workspaces', access: 'user' },
  { id: 'workspaces.create', method: 'POST', path: '/api/workspaces', access: 'user', body: CreateWorkspaceSchema },
  { id: 'workspaces.members', method: 'GET', path: '/api/workspace/members', access: 'user' },
  {
    id: 'workspaces.setRole',
    method: 'PUT',
    path: '/api/workspace/members/{userId}',
    access: 'user',
    params: MemberParamsSchema,
    body: MemberRoleSchema,
  },
  {
    id: 'workspaces.removeMember',
    method: 'DELETE',
    path: '/api/workspace/members/{userId}',
    access: 'user',
    params: MemberParamsSchema,
  },
  { id: 'workspaces.review', method: 'GET', path: '/api/workspace/review', access: 'user' },
  {
    id: 'workspaces.setReview',
    method: 'PUT',
    path: '/api/workspace/review',
    access: 'user',
    body: ReviewSettingsSchema,
  },
  { id: 'workspaces.invitations', method: 'GET', path: '/api/workspace/invitations', access: 'user' },
  { id: 'workspaces.invite', method: 'POST', path: '/api/workspace/invitations', access: 'user', body: InviteSchema },
  {
    id: 'workspaces.revokeInvitation',
    method: 'DELETE',
    path: '/api/workspace/invitations/{id}',
    access: 'user',
    params: InvitationParamsSchema,
  },
  // Public: the e-mailed link's token names the invitation (a POST, so the token stays out of addresses and logs).
  {
    id: 'workspaces.invitation',
    method: 'POST',
    path: '/api/invitations/preview',
    access: 'public',
    body: InvitationSchema,
  },
  { id: 'workspaces.accept', method: 'POST', path: '/api/invitations/accept', access: 'user', body: InvitationSchema },
  // Public: a new account for the invitation's e-mail (auth group: it issues the session, as register does).
  {
    id: 'auth.registerInvited',
    method: 'POST',
    path: '/api/auth/register-invited',
    access: 'public',
    body: InvitedRegisterSchema,
  },
  { id: 'admin.getSettings', method: 'GET', path: '/api/admin/settings', access: 'admin' },
  {
    id: 'admin.setSettings',
    method: 'PUT',
    path: '/api/admin/settings',
    access: 'admin',
    body: InstanceSettingsSchema,
  },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof routes)[number]['id'];
export type RouteGroup = RouteId extends `${infer G}.${string}` ? G : never;
/** The table entry of route K, with its literal access and schema types. */
export type RouteOf<K extends RouteId> = Extract<(typeof routes)[number], { id: K }>;
/** The routes of one group (one Lambda function). */
export type GroupRouteId<G extends RouteGroup> = Extract<RouteId, `${G}.${string}`>;

export const routeGroup = (route: Pick<RouteDef, 'id'>): string => route.id.split('.')[0]!;
export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>): string => `${route.method} ${route.path}`;
export const routeGroups = (): string[] => [...new Set(routes.map(routeGroup))];

/** The entry of route `id`. */
export const routeById = <K extends RouteId>(id: K): RouteOf<K> => routes.find((r) => r.id === id) as RouteOf<K>;

export { routePath } from './path.js';

// Built on first use, so that a bundle importing only the table carries no set-up work.
let byKey: Map<string, RouteDef> | undefined;
export const findRouteByKey = (key: string): RouteDef | undefined =>
  (byKey ??= new Map<string, RouteDef>(routes.map((r) => [routeKey(r), r]))).get(key);

const paramCount = (path: string) => (path.match(/\{/g) ?? []).length;
let compiled: { route: RouteDef; regex: RegExp; names: string[] }[] | undefined;
// Literal segments win over parameters (/api/articles/unpublished before /api/articles/{id}), as in API Gateway.
const compile = () =>
  [...routes]
    .sort((a, b) => paramCount(a.path) - paramCount(b.path))
    .map((route) => {
      const names: string[] = [];
      const pattern = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { route: route as RouteDef, regex: new RegExp(`^${pattern}$`), names };
    });

/**
 * Matches a concrete request path the way API Gateway does: exact segments, `{name}` = one segment,
 * parameters %-decoded (`malformedPath` when one cannot be, e.g. `/api/articles/%ZZ`).
 */
export function matchRoute(
  method: string,
  path: string,
):
  | { route: RouteDef; params: Record<string, string> }
  | { methodNotAllowed: true }
  | { malformedPath: true }
  | undefined {
  let pathMatched = false;
  for (const { route, regex, names } of (compiled ??= compile())) {
    const m = regex.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    try {
      names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
    } catch {
      return { malformedPath: true };
    }
    return { route, params };
  }
  return pathMatched ? { methodNotAllowed: true } : undefined;
}
