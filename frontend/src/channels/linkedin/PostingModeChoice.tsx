import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Article } from '@app/shared';
import type { PostingMode } from '@app/shared/api';
import { errorText, request } from '../../api/client';
import { articleListKey } from '../../hooks/useArticleLists';
import { useCan } from '../../hooks/useWorkspaces';
import { toast } from '../../lib/toast';
import { articleIdOf } from '../../components/create/articleQuery';
import { PostingModeMessages, POSTING_MODE_LABELS } from './postingModeMessages';
import { linkedInStatusQuery } from './status';

const MODES: PostingMode[] = ['personal', 'company'];

export const NO_PAGE_ACCESS_NOTE = 'Business Page needs page access: see Settings → LinkedIn.';

/**
 * Whether the connected LinkedIn account is known to lack page access, from the LinkedIn status
 * (the Settings panel's query). Every card shares the one cached request; a failed one shows no note.
 */
function useKnownNoPageAccess(): boolean {
  const { data } = useQuery({ ...linkedInStatusQuery, staleTime: 5 * 60_000 });
  return !!data?.connected && data.canPostAsPage === false;
}

/**
 * Per article (docs/product.md, Schedule): post on LinkedIn as the member (Personal Profile) or as the page
 * they administer (Business Page). A change is saved at once; a failure puts the choice back.
 */
export function PostingModeChoice({ article, disabled = false }: { article: Article; disabled?: boolean }) {
  const queryClient = useQueryClient();
  const uid = useId();
  const id = articleIdOf(article);
  const saved = article.linkedInMode === 'company' ? 'company' : 'personal';
  const [mode, setMode] = useState<PostingMode>(saved);
  const save = useMutation({
    mutationFn: ({ next }: { next: PostingMode; previous: PostingMode }) =>
      request('linkedin.setPostingMode', { params: { id }, body: { mode: next } }),
    onSuccess: ({ mode: confirmed, message }) => {
      setMode(confirmed);
      queryClient.setQueryData<Article[]>(articleListKey.unpublished, (list) =>
        list?.map((a) => (articleIdOf(a) === id ? { ...a, linkedInMode: confirmed } : a)),
      );
      toast.success(message);
    },
    onError: (err, { previous }) => {
      setMode(previous);
      toast.error(PostingModeMessages.modeError(errorText(err, PostingModeMessages.modeFailed)));
    },
  });
  const saving = save.isPending;
  const noPageAccess = useKnownNoPageAccess();
  const noteId = `${uid}-page-note`;

  // Follow the server when the list refreshes, unless a change of ours is on its way.
  const [lastSaved, setLastSaved] = useState(saved);
  if (saved !== lastSaved) {
    setLastSaved(saved);
    if (!saving) setMode(saved);
  }

  const change = (next: PostingMode) => {
    if (saving || next === mode) return;
    setMode(next);
    save.mutate({ next, previous: mode });
  };

  return (
    <fieldset className="segmented" aria-busy={saving || undefined} disabled={disabled}>
      <legend className="segmented__legend">LinkedIn posting mode</legend>
      <div className="segmented__options">
        {MODES.map((value) => (
          <label key={value} className={`segmented__option${mode === value ? ' is-selected' : ''}`}>
            <input
              type="radio"
              className="segmented__input"
              name={`${uid}-mode`}
              value={value}
              checked={mode === value}
              onChange={() => change(value)}
              aria-describedby={value === 'company' && noPageAccess ? noteId : undefined}
            />
            {POSTING_MODE_LABELS[value]}
          </label>
        ))}
      </div>
      {noPageAccess && (
        <p id={noteId} className="field__hint">
          {NO_PAGE_ACCESS_NOTE}
        </p>
      )}
    </fieldset>
  );
}

/** The choice in the Schedule card's LinkedIn row: fixed once posted, and for a role that may not change it. */
export function PostingModeRow({ article, published }: { article: Article; published: boolean }) {
  const may = useCan();
  return <PostingModeChoice article={article} disabled={published || !may('linkedin.setPostingMode')} />;
}
