import { useState } from 'react';
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { SettingMessages, type Setting } from '@app/shared';
import { formatLastUpdated } from '../../lib/dates';
import { settingsToast } from '../../lib/toast';
import { ApiKeyModal } from './ApiKeyModal';
import { PanelQueryState, SettingsCard } from './SettingsCard';
import { API_KEYS_QUERY_KEY, apiKeysQuery, removeSetting, type SettingsPanelProps } from './types';

const DELETE_KEY = [...API_KEYS_QUERY_KEY, 'delete'] as const;

type ModalState = { mode: 'create' } | { mode: 'edit'; setting: Setting } | null;

/** docs/product.md (Settings, API Keys): the generic key/value entries (integration keys are hidden). */
export function ApiKeysSection({ onReload }: SettingsPanelProps) {
  const queryClient = useQueryClient();
  const [modal, setModal] = useState<ModalState>(null);
  const query = useQuery(apiKeysQuery);

  const remove = useMutation({
    mutationKey: DELETE_KEY,
    mutationFn: (setting: Setting) => removeSetting(setting.key),
    onSuccess: (_answer, setting) => {
      queryClient.setQueryData<Setting[]>(API_KEYS_QUERY_KEY, (list) => list?.filter((s) => s.key !== setting.key));
      settingsToast.success(SettingMessages.deleted);
      onReload();
    },
    onError: () => settingsToast.error(SettingMessages.deleteFailed),
  });
  // Each row's delete runs on its own: the keys being deleted now.
  const deleting = useMutationState({
    filters: { mutationKey: DELETE_KEY, status: 'pending' },
    select: (mutation) => (mutation.state.variables as Setting).key,
  });

  const confirmRemove = (setting: Setting) => {
    if (window.confirm(`Are you sure you want to delete the entry with key "${setting.key}"?`)) remove.mutate(setting);
  };

  const settings = query.data ?? [];

  return (
    <SettingsCard
      title="API Keys"
      description={
        <>
          Keys the app uses on your behalf, such as <code>openai_api_key</code> for AI drafts and images. Values are
          stored encrypted and only shown masked.
        </>
      }
      aside={
        <button type="button" className="btn btn--primary" onClick={() => setModal({ mode: 'create' })}>
          Add New API Key
        </button>
      }
      busy={query.isFetching}
    >
      <PanelQueryState query={query} loadingLabel="Loading API keys" failedText={SettingMessages.loadFailed}>
        {settings.length === 0 ? (
          <p className="settings-card__empty">No API keys found. Add your first key using the form.</p>
        ) : (
          <ul className="api-keys" aria-label="API keys">
            {settings.map((setting) => {
              const busy = deleting.includes(setting.key);
              return (
                <li key={setting._id || setting.key} className="api-key">
                  <div className="api-key__main">
                    <h3 className="api-key__name">{setting.key}</h3>
                    <p className="api-key__value">
                      <span className="sr-only">Value: </span>
                      <code>{setting.value}</code>
                    </p>
                    {setting.description && <p className="api-key__description">{setting.description}</p>}
                    <p className="api-key__updated">Last updated: {formatLastUpdated(setting.updatedAt)}</p>
                  </div>
                  <div className="api-key__actions">
                    <button
                      type="button"
                      className="btn btn--secondary btn--sm"
                      disabled={busy}
                      onClick={() => setModal({ mode: 'edit', setting })}
                    >
                      Edit<span className="sr-only"> {setting.key}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn--danger-ghost btn--sm"
                      disabled={busy}
                      aria-busy={busy || undefined}
                      onClick={() => confirmRemove(setting)}
                    >
                      {busy ? 'Deleting...' : 'Delete'}
                      <span className="sr-only"> {setting.key}</span>
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </PanelQueryState>

      {modal && (
        <ApiKeyModal
          setting={modal.mode === 'edit' ? modal.setting : null}
          onClose={() => setModal(null)}
          onSaved={() => onReload()}
        />
      )}
    </SettingsCard>
  );
}
