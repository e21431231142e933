import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../components/PageHeader';
import { ThemeSettings } from '../components/ThemeSettings';
import { ApiKeysSection } from '../components/settings/ApiKeysSection';
import { ConnectionsStatus } from '../components/settings/ConnectionsStatus';
import { EmailPanel } from '../components/settings/EmailPanel';
import { LinkedInPanel } from '../components/settings/LinkedInPanel';
import { WordPressPanel } from '../components/settings/WordPressPanel';
import { SETTINGS_QUERY_KEY } from '../components/settings/types';
import { useCan, useCurrentWorkspace } from '../hooks/useWorkspaces';
import '../styles/settings.css';

/**
 * docs/product.md (Settings): Theme Settings, the WordPress, LinkedIn and Gmail panels, then the API Keys
 * list. Any panel can ask the page to reload the settings data (every settings query). The connections and
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
            <WordPressPanel onReload={reload} />
            <LinkedInPanel onReload={reload} />
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
