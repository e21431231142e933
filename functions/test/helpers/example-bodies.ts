import { registration } from './app.js';

/**
 * A valid body per route that takes one (by route id), so that a generated suite can change one
 * thing at a time: only access (authorization suite) or only the one bad field (bad-input suite)
 * can refuse the call. `ARTICLE` stands for an article id the suite owns.
 */
export const EXAMPLE_BODIES: Record<string, unknown> = {
  'auth.register': registration(),
  'auth.login': { email: 'x@example.com', password: 'whatever' },
  'auth.changePassword': { currentPassword: 'correct horse', newPassword: 'another long passphrase' },
  'admin.setUserStatus': { isActive: true },
  'articles.create': { title: 'x', topic: 'y' },
  'articles.updateBlog': { content: 'hijack' },
  'articles.updateLinkedIn': { content: 'hijack' },
  'articles.updateVersion': { content: 'hijack' },
  'schedule.set': { platform: 'blog', datetime: new Date(Date.now() + 3600_000).toISOString() },
  'articles.gptEdit': { articleId: 'ARTICLE', contentType: 'blog', editRequest: 'shorter' },
  'articles.addComment': { platform: 'blog', text: 'A comment' },
  'images.generate': { description: 'x' },
  'images.regenerate': { description: 'x' },
  'images.uploadStart': { contentType: 'image/jpeg', size: 1000 },
  'images.uploadComplete': {
    key: 'uploads/u/ARTICLE/0123456789abcdef0123456789abcdef',
    focalPoint: { x: 0.5, y: 0.5 },
  },
  'images.focalPoint': { focalPoint: { x: 0.5, y: 0.5 } },
  'settings.save': { key: 'k', value: 'v' },
  'wordpress.testConnection': { siteUrl: 'https://example.com', username: 'u', appPassword: 'p' },
  'wordpress.saveCredentials': { siteUrl: 'https://example.com', username: 'u', appPassword: 'p' },
  'channels.connect': { siteUrl: 'https://example.com', adminApiKey: `${'a1'.repeat(12)}:${'0f'.repeat(32)}` },
  'channels.test': { siteUrl: 'https://example.com', adminApiKey: `${'a1'.repeat(12)}:${'0f'.repeat(32)}` },
  'linkedin.saveCredentials': { clientId: 'id', clientSecret: 'secret' },
  'linkedin.testConnection': { clientId: 'id', clientSecret: 'secret' },
  'linkedin.setWebhook': { webhookUrl: 'https://hooks.example.com/x' },
  'linkedin.setPostingMode': { mode: 'company' },
  'approvals.preview': { token: 'x'.repeat(40) },
  'approvals.confirm': { token: 'x'.repeat(40) },
  'approvals.submit': { platform: 'blog' },
  'approvals.approve': { platform: 'blog' },
  'approvals.requestChanges': { platform: 'blog', comment: 'Please shorten the intro.' },
  'approvals.reviewPreview': { token: 'x'.repeat(40) },
  'approvals.reviewConfirm': { token: 'x'.repeat(40) },
  'email.test': { to: 'x@example.com', method: 'gmail' },
  'sheets.import': { spreadsheetId: 'sheet', range: 'Sheet1!A1:F50' },
  'workspaces.create': { name: 'Team' },
  'workspaces.setRole': { role: 'editor' },
  'workspaces.setReview': { mode: 'one', graceHours: 24 },
  'workspaces.invite': { email: 'invitee@example.com', role: 'writer' },
  'workspaces.invitation': { token: 'workspace.invitation.secret' },
  'workspaces.accept': { token: 'workspace.invitation.secret' },
  'auth.registerInvited': (({ email: _email, ...rest }) => ({ ...rest, token: 'workspace.invitation.secret' }))(
    registration(),
  ),
  'admin.setSettings': { invitationsActivateAccounts: false },
};

/** The route's example body (a fresh copy) with `ARTICLE` replaced by the given article id; undefined when it has none. */
export function exampleBody(routeId: string, articleId: string): Record<string, unknown> | undefined {
  const example = EXAMPLE_BODIES[routeId];
  return example === undefined ? undefined : JSON.parse(JSON.stringify(example).replaceAll('ARTICLE', articleId));
}
