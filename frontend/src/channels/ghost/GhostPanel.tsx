import * as z from 'zod/mini';
import type { ChannelConnectionAnswer } from '@app/shared';
import { GhostMessages, ghostAdminKeyProblem } from '@app/shared/channels/ghost';
import type { SettingsPanelProps } from '../../components/settings/types';
import { ConnectionPanel } from '../ConnectionPanel';
import { GhostPanelMessages as M } from './messages';
import { GHOST_ID, GHOST_QUERY_KEY, ghostStatusQuery } from './status';

interface GhostForm {
  siteUrl: string;
  adminApiKey: string;
}

/**
 * The server's own checks of the two fields, made before anything is sent (shared/src/channels/ghost/index.ts): the site's
 * address, and the key's shape (a Content API key or a key cut short is named). Test with a blank key checks the
 * saved connection; Save always needs the key, which the server checks against the site before keeping both.
 */
const schemaFor = (status: ChannelConnectionAnswer | undefined, action: string) =>
  z
    .object({
      siteUrl: z.string().check(z.trim(), z.minLength(1, GhostMessages.siteUrlRequired), z.maxLength(300)),
      adminApiKey: z.string().check(z.trim(), z.maxLength(200, GhostMessages.adminKeyShape)),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (!body.adminApiKey && status?.connected && action === 'test') return;
        const problem = ghostAdminKeyProblem(body.adminApiKey);
        if (problem) ctx.addIssue({ code: 'custom', path: ['adminApiKey'], message: problem });
      }),
    );

/**
 * docs/integrations.md (Ghost): the site's Admin URL and the Admin API key of a custom integration, on the panel of
 * every channel of the generic routes (channels/ConnectionPanel.tsx).
 */
export function GhostPanel({ onReload }: SettingsPanelProps) {
  return (
    <ConnectionPanel<GhostForm, GhostForm, typeof GHOST_QUERY_KEY>
      onReload={onReload}
      channel={{ id: GHOST_ID, label: 'Ghost' }}
      statusQuery={ghostStatusQuery}
      texts={M}
      values={(saved): GhostForm => ({ siteUrl: saved?.fields.siteUrl ?? '', adminApiKey: '' })}
      schema={schemaFor}
      secrets={['adminApiKey']}
      body={(body) => body}
      testsSaved={(body) => !body.adminApiKey}
      notConnected="Not connected. Enter your site's Admin API URL and key, test the connection, then save."
      Connected={({ status }) => (
        <>
          Connected to <strong>{status.fields.siteUrl}</strong> with the key <code>{status.fields.adminApiKey}</code>
        </>
      )}
      fields={(connected) => [
        {
          name: 'siteUrl',
          label: 'Admin API URL',
          type: 'url',
          inputMode: 'url',
          autoComplete: 'url',
          placeholder: 'https://your-site.ghost.io',
          required: true,
          hint: "Your Ghost site's address, as the custom integration shows it.",
        },
        {
          name: 'adminApiKey',
          label: 'Admin API key',
          placeholder: '24 characters:64 characters',
          type: 'password',
          autoComplete: 'new-password',
          required: true,
          hint: connected ? M.keyHint : 'Starts with 24 characters, a colon, then 64 more.',
        },
      ]}
    />
  );
}

/** The panel the Settings page shows for this channel (pages/Settings.tsx). */
export default GhostPanel;
