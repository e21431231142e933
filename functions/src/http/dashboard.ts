import { isValidTimeZone } from '@app/shared';
import { dashboardService } from '../wiring/dashboard.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('dashboard', {
  // The weeks of the zone the SPA shows (the user's, else the browser's); without one, the user's own.
  'dashboard.get': async ({ user, workspace, query }) => {
    const timeZone = query.timeZone ?? (isValidTimeZone(user.timezone) ? user.timezone : 'UTC');
    return json(200, await dashboardService().cards(workspace.id, timeZone));
  },
});
