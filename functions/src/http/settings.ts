import { SettingMessages } from '@app/shared';
import { deps } from '../wiring/deps.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('settings', {
  'settings.list': async ({ user, query }) => json(200, await deps().settings.list(user.id, query.mask !== 'false')),

  'settings.save': async ({ user, body }) => {
    const { created, setting } = await deps().settings.save(user.id, body);
    return json(created ? 201 : 200, {
      success: true,
      setting,
      message: created ? SettingMessages.created : SettingMessages.updated,
    });
  },

  'settings.delete': async ({ user, params }) => {
    await deps().settings.delete(user.id, params.key);
    return json(200, { success: true, message: SettingMessages.deleted });
  },
});
