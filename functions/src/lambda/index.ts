import type { LambdaHandler } from '../middleware/api.js';
import { handler as admin } from './admin.js';
import { handler as approvals } from './approvals.js';
import { handler as articles } from './articles.js';
import { handler as auth } from './auth.js';
import { handler as channels } from './channels.js';
import { handler as dashboard } from './dashboard.js';
import { handler as email } from './email.js';
import { handler as images } from './images.js';
import { handler as linkedin } from './linkedin.js';
import { handler as schedule } from './schedule.js';
import { handler as settings } from './settings.js';
import { handler as sheets } from './sheets.js';
import { handler as wordpress } from './wordpress.js';
import { handler as workspaces } from './workspaces.js';

/** Every group's Lambda entry, for the local server (each is bundled on its own for AWS). */
export const groupHandlers: Record<string, LambdaHandler> = {
  auth,
  admin,
  articles,
  dashboard,
  images,
  settings,
  wordpress,
  linkedin,
  channels,
  email,
  schedule,
  approvals,
  sheets,
  workspaces,
};
