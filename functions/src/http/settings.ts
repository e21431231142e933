import { SettingMessages } from '@app/shared';
import { deps } from '../wiring/deps.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('settings', {
  'settings.list': async ({ workspace, query }) =>
    json(200, await deps().settings.list(workspace.id, query.mask !== 'false')),

  'settings.save': async ({ workspace, body }) => {
    const { created, setting } = await deps().settings.save(workspace.id, body);
    return json(created ? 201 : 200, {
      success: true,
      setting,
      message: created ? SettingMessages.created : SettingMessages.updated,
    });
  },

  'settings.delete': async ({ workspace, params }) => {
    await deps().settings.delete(workspace.id, params.key);
    return json(200, { success: true, message: SettingMessages.deleted });
  },
});
