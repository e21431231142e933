import { SettingMessages, type SaveSettingInput } from '@app/shared';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { json } from './response.js';

async function list({ deps, user, query }: SignedInRequest<unknown, { mask: 'true' | 'false' }>) {
  return json(200, await deps.settings.list(user.id, query.mask !== 'false'));
}

async function save({ deps, user, body }: SignedInRequest<Required<SaveSettingInput>>) {
  const { created, setting } = await deps.settings.save(user.id, body);
  return json(created ? 201 : 200, { success: true, setting, message: created ? SettingMessages.created : SettingMessages.updated });
}

async function remove({ deps, user, params }: SignedInRequest<unknown, unknown, { key: string }>) {
  await deps.settings.delete(user.id, params.key);
  return json(200, { success: true, message: SettingMessages.deleted });
}

export const handlers: Record<string, RouteHandler> = {
  'settings.list': list,
  'settings.save': save,
  'settings.delete': remove,
};
