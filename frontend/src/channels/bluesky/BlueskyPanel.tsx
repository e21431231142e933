import * as z from 'zod/mini';
import type { ChannelConnectionAnswer } from '@app/shared';
import { BLUESKY_ID } from '@app/shared/channels/bluesky';
import type { SettingsPanelProps } from '../../components/settings/types';
import { ConnectionPanel } from '../ConnectionPanel';
import { BlueskyPanelMessages as M } from './messages';
import { BLUESKY_QUERY_KEY, blueskyStatusQuery } from './status';

interface BlueskyForm {
  handle: string;
  appPassword: string;
  serviceUrl: string;
}

/**
 * Only what must be there is checked here; the shapes of handle, app password and address are the server's to judge
 * (functions/src/channels/bluesky/credentials.ts), and its sentence is shown as it comes. Test with a blank app
 * password checks the saved connection; Save always needs it, and the server signs in before keeping anything.
 */
const schemaFor = (status: ChannelConnectionAnswer | undefined, action: string) =>
  z
    .object({
      handle: z.string().check(z.trim(), z.minLength(1, M.handleRequired), z.maxLength(253)),
      appPassword: z.string().check(z.trim(), z.maxLength(100)),
      serviceUrl: z.string().check(z.trim(), z.maxLength(300)),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.appPassword || (status?.connected && action === 'test')) return;
        ctx.addIssue({ code: 'custom', path: ['appPassword'], message: M.appPasswordRequired });
      }),
    );

/** What is sent: an empty address is left out (the server's default, bsky.social); a blank password on Test too. */
const bodyOf = (body: BlueskyForm) => ({
  handle: body.handle,
  ...(body.appPassword ? { appPassword: body.appPassword } : {}),
  ...(body.serviceUrl ? { serviceUrl: body.serviceUrl } : {}),
});

/**
 * docs/integrations.md (Bluesky): the account's handle, an app password and the address of the server hosting the
 * account, on the panel of every channel of the generic routes (channels/ConnectionPanel.tsx).
 */
export function BlueskyPanel({ onReload }: SettingsPanelProps) {
  return (
    <ConnectionPanel<BlueskyForm, BlueskyForm, typeof BLUESKY_QUERY_KEY>
      onReload={onReload}
      channel={{ id: BLUESKY_ID, label: 'Bluesky' }}
      statusQuery={blueskyStatusQuery}
      texts={M}
      values={(saved): BlueskyForm => ({
        handle: saved?.fields.handle ?? '',
        appPassword: '',
        serviceUrl: saved?.fields.serviceUrl ?? '',
      })}
      schema={schemaFor}
      secrets={['appPassword']}
      body={bodyOf}
      testsSaved={(body) => !body.appPassword}
      notConnected="Not connected. Enter your handle and an app password, test the connection, then save."
      Connected={({ status }) => (
        <>
          Connected as <strong>@{status.fields.handle}</strong> on {status.fields.serviceUrl} with the app password{' '}
          <code>{status.fields.appPassword}</code>
        </>
      )}
      fields={(connected) => [
        {
          name: 'handle',
          label: 'Handle',
          autoComplete: 'username',
          placeholder: 'alice.bsky.social',
          required: true,
          hint: 'The handle on your Bluesky profile, without the @.',
        },
        {
          name: 'appPassword',
          label: 'App password',
          placeholder: 'xxxx-xxxx-xxxx-xxxx',
          type: 'password',
          autoComplete: 'new-password',
          required: true,
          hint: connected ? M.passwordHint : M.appPasswordHelp,
        },
        {
          name: 'serviceUrl',
          label: 'PDS address',
          type: 'url',
          inputMode: 'url',
          autoComplete: 'url',
          placeholder: 'https://bsky.social',
          hint: 'The server that hosts your account. Leave it empty for bsky.social.',
        },
      ]}
    />
  );
}

/** The panel the Settings page shows for this channel (pages/Settings.tsx). */
export default BlueskyPanel;
