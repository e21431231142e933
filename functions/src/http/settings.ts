import { SettingMessages } from '@app/shared';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';
import { settingService } from '../wiring/settings.js';

export const handlers = defineHandlers('settings', {
  'settings.list': async ({ workspace, query }) =>
    json(200, await settingService().list(workspace.id, query.mask !== 'false')),

  'settings.save': async ({ workspace, body }) => {
    const { created, setting } = await settingService().save(workspace.id, body);
    return json(created ? 201 : 200, {
      success: true,
      setting,
      message: created ? SettingMessages.created : SettingMessages.updated,
    });
  },

  'settings.delete': async ({ workspace, params }) => {
    await settingService().delete(workspace.id, params.key);
    return json(200, { success: true, message: SettingMessages.deleted });
  },
});
