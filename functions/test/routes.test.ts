import { describe, expect, it } from 'vitest';
import { groupHandlers } from '../src/lambda/index.js';
import { handlers as authHandlers } from '../src/http/auth.js';
import { handlers as adminHandlers } from '../src/http/admin.js';
import { handlers as articleHandlers } from '../src/http/articles.js';
import { handlers as dashboardHandlers } from '../src/http/dashboard.js';
import { handlers as imageHandlers } from '../src/http/images.js';
import { handlers as settingHandlers } from '../src/http/settings.js';
import { handlers as wordpressHandlers } from '../src/http/wordpress.js';
import { handlers as linkedinHandlers } from '../src/http/linkedin.js';
import { handlers as channelHandlers } from '../src/http/channels.js';
import { handlers as emailHandlers } from '../src/http/email.js';
import { handlers as scheduleHandlers } from '../src/http/schedule.js';
import { handlers as approvalHandlers } from '../src/http/approvals.js';
import { handlers as sheetsHandlers } from '../src/http/sheets.js';
import { handlers as workspaceHandlers } from '../src/http/workspaces.js';
import { routeGroups, routes } from '@app/shared/api';

// The table itself (unique ids and paths, parameters, matching, path building): shared/test/api.test.ts.
describe('route table', () => {
  it('has a Lambda entry for every group and a handler for every route', () => {
    const all = {
      ...authHandlers,
      ...adminHandlers,
      ...articleHandlers,
      ...dashboardHandlers,
      ...imageHandlers,
      ...settingHandlers,
      ...wordpressHandlers,
      ...linkedinHandlers,
      ...channelHandlers,
      ...emailHandlers,
      ...scheduleHandlers,
      ...approvalHandlers,
      ...sheetsHandlers,
      ...workspaceHandlers,
    };
    for (const group of routeGroups()) expect(groupHandlers[group], group).toBeTypeOf('function');
    for (const route of routes) expect(all[route.id], route.id).toBeTypeOf('function');
    expect(Object.keys(all).sort()).toEqual(routes.map((r) => r.id).sort());
  });
});
