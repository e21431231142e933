import { Fragment, useCallback, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../components/PageHeader';
import { ThemeSettings } from '../components/ThemeSettings';
import { ApiKeysSection } from '../components/settings/ApiKeysSection';
import { ConnectionProblems } from '../components/settings/ConnectionProblems';
import { ConnectionsStatus } from '../components/settings/ConnectionsStatus';
import { EmailPanel } from '../components/settings/EmailPanel';
import { SETTINGS_QUERY_KEY, type SettingsPanelProps } from '../components/settings/types';
import { CHANNEL_REGISTRY } from '../channels/registry';
import { useCan, useCurrentWorkspace } from '../hooks/useWorkspaces';
import '../styles/settings.css';

/**
 * Each channel's settings panel: the default export of its folder's `*Panel.tsx` (channels/<id>/), in the registry's
 * order. Gathered here, into this page's chunk only, so no other page carries a panel and this one renders whole at
 * once (a panel fetched on its own would pop in after the page).
 */
const PANEL_MODULES = import.meta.glob<ComponentType<SettingsPanelProps>>('../channels/*/*Panel.tsx', {
  eager: true,
  import: 'default',
});
const CHANNEL_PANELS = CHANNEL_REGISTRY.map(({ id }) => {
  const found = Object.entries(PANEL_MODULES).find(([path]) => path.startsWith(`../channels/${id}/`));
  if (!found) throw new Error(`channels/${id}/ has no settings panel`);
  return { id, Panel: found[1] };
});

/**
 * docs/product.md (Settings): Theme Settings, each channel's panel (channels/registry.ts, in its order) and the Gmail
 * panel, then the API Keys list. Any panel can ask the page to reload the settings data (every settings query). The
 * connections and keys are the current workspace's and only its owners set them (docs/product.md, Workspaces): the
 * other roles see the theme and each connection's status, read-only.
 */
export default function SettingsPage() {
  const queryClient = useQueryClient();
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY });
  }, [queryClient]);
  const { workspace } = useCurrentWorkspace();
  const may = useCan();

  return (
    <div className="page">
      <PageHeader title="Settings" />
      <div className="page-stack">
        <ThemeSettings />
        {may('settings.save') ? (
          <>
            {CHANNEL_PANELS.map(({ id, Panel }) => (
              <Fragment key={id}>
                <ConnectionProblems channel={id} />
                <Panel onReload={reload} />
              </Fragment>
            ))}
            <EmailPanel onReload={reload} />
            <ApiKeysSection onReload={reload} />
          </>
        ) : (
          <ConnectionsStatus workspaceName={workspace?.name ?? 'this workspace'} />
        )}
      </div>
    </div>
  );
}
