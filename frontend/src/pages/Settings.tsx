import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../components/PageHeader';
import { ThemeSettings } from '../components/ThemeSettings';
import { ApiKeysSection } from '../components/settings/ApiKeysSection';
import { ConnectionsStatus } from '../components/settings/ConnectionsStatus';
import { EmailPanel } from '../components/settings/EmailPanel';
import { SETTINGS_QUERY_KEY } from '../components/settings/types';
import { CHANNEL_REGISTRY } from '../channels/registry';
import { useCan, useCurrentWorkspace } from '../hooks/useWorkspaces';
import '../styles/settings.css';

/**
 * Each channel's settings panel is a chunk of its own (channels/registry.ts). The page's module waits for them, so the
 * page (fetched on demand, pages/pageTable.ts) renders whole once its chunk and theirs are here, as it did when the
 * panels were part of it.
 */
const CHANNEL_PANELS = await Promise.all(
  CHANNEL_REGISTRY.map(async ({ id, loadSettingsPanel }) => ({ id, Panel: await loadSettingsPanel() })),
);

/**
 * docs/product.md (Settings): Theme Settings, each channel's panel (channels/registry.ts, in its order) and the Gmail
 * panel, then the API Keys list. Any panel can ask the page to reload the settings data (every settings query). The connections and
 * keys are the current workspace's and only its owners set them (docs/product.md, Workspaces): the other roles
 * see the theme and each connection's status, read-only.
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
              <Panel key={id} onReload={reload} />
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
