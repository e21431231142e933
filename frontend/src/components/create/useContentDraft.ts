import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  BlogContentSchema,
  firstIssueMessage,
  LinkedInContentSchema,
  isPlatform,
  type Article,
  type Platform,
  type VersionId,
} from '@app/shared';
import type { RouteId } from '@app/shared/api';
import { errorText, request } from '../../api/client';
import { channelById } from '../../channels/registry';
import { timing } from '../../lib/timing';
import { articleQueryKey, CreateMessages } from './articleQuery';

/**
 * Whose text a draft is: an article's version (blog, linkedin) or the id of a channel with a text of its own
 * (`ownVersion`, channels/types.ts: `versions[id]`, saved with articles.updateVersion).
 */
export type DraftVersion = VersionId;

/** Why the text cannot be saved, in the words of the payload's own schema (as the API checks it); '' when it can. */
function limitMessageOf(platform: DraftVersion, text: string): string {
  if (!isPlatform(platform)) return channelById(platform)?.ownVersion?.limitMessage(text) ?? '';
  const checked = (platform === 'blog' ? BlogContentSchema() : LinkedInContentSchema()).safeParse({ content: text });
  return checked.success ? '' : firstIssueMessage(checked.error);
}

/** The route that saves each version's text. */
const UPDATE_ROUTE = { blog: 'articles.updateBlog', linkedin: 'articles.updateLinkedIn' } as const satisfies Record<
  Platform,
  RouteId
>;

/** The saved answer, with every version but the one saved as cached. */
function keepOthers(cached: Article, answer: Article, saved: DraftVersion): Article {
  const own = answer.versions?.[saved];
  const versions = { ...cached.versions, ...(own ? { [saved]: own } : {}) };
  return {
    ...answer,
    blog: saved === 'blog' ? answer.blog : cached.blog,
    linkedin: saved === 'linkedin' ? answer.linkedin : cached.linkedin,
    ...(Object.keys(versions).length ? { versions } : {}),
  };
}

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

export interface ContentDraft {
  platform: DraftVersion;
  text: string;
  setText: (text: string) => void;
  /** Typed but not saved yet. */
  dirty: boolean;
  status: SaveStatus;
  /** "Failed to save … content: …" or the LinkedIn length message. */
  error: string;
  /** Over the platform's length limit (LinkedIn 3000 characters): saving is blocked. */
  tooLong: boolean;
  /** Why, in the words of the schema the API checks the same text with; '' when within the limit. */
  limitMessage: string;
  /** Saves when there is something to save; resolves false when it could not. */
  save: () => Promise<boolean>;
  /** Takes a text the server already saved (a GPT edit). */
  accept: (text: string) => void;
}

/**
 * The editable text of one version. It follows the server's content (drafts arriving, edits) while
 * the person has not typed; typed text is saved with its version's update route once typing pauses
 * (timing.autosaveMs), and at once on blur, Save, leaving the step or the page.
 */
export function useContentDraft(
  articleId: string,
  platform: DraftVersion,
  serverContent: string | undefined,
): ContentDraft {
  const queryClient = useQueryClient();
  const [text, setTextState] = useState(serverContent ?? '');
  const [dirty, setDirty] = useState(false);
  // The outcome of the last save; 'saving' comes from the save mutation.
  const [status, setStatus] = useState<Exclude<SaveStatus, 'saving'>>('idle');
  const [error, setError] = useState('');
  const textRef = useRef(text);
  const dirtyRef = useRef(false);

  const markDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirty(value);
  };

  useEffect(() => {
    if (serverContent === undefined || dirtyRef.current) return;
    textRef.current = serverContent;
    setTextState(serverContent);
  }, [serverContent]);

  const limitMessage = useMemo(() => limitMessageOf(platform, text), [platform, text]);
  const tooLong = limitMessage !== '';

  const setText = useCallback((next: string) => {
    textRef.current = next;
    setTextState(next);
    markDirty(true);
    setError('');
    setStatus('idle');
  }, []);

  const accept = useCallback((next: string) => {
    textRef.current = next;
    setTextState(next);
    markDirty(false);
    setError('');
    setStatus('saved');
  }, []);

  const mutationKey = ['content-save', articleId, platform];
  const update = useMutation({
    mutationKey,
    // One save at a time, in the order asked: each starts when the one before it has ended.
    scope: { id: mutationKey.join(':') },
    mutationFn: async (): Promise<'unchanged' | 'blocked' | 'saved'> => {
      // What to save is read when this save's turn comes: the one before may have saved it already.
      if (!dirtyRef.current) return 'unchanged';
      const sent = textRef.current;
      // Blocked: the editor already shows the limit message under the text.
      if (limitMessageOf(platform, sent)) return 'blocked';
      const { article } = isPlatform(platform)
        ? await request(UPDATE_ROUTE[platform], { params: { id: articleId }, body: { content: sent } })
        : await request('articles.updateVersion', {
            params: { id: articleId, channel: platform },
            body: { content: sent },
          });
      // Typed on meanwhile: still to save, and the answer (the text sent) does not replace the newer text.
      if (textRef.current === sent) dirtyRef.current = false;
      // The other versions stay as cached: this answer may predate their own saves, whose texts it would undo.
      queryClient.setQueryData<Article>(articleQueryKey(articleId), (cached) =>
        cached ? keepOthers(cached, article, platform) : article,
      );
      return 'saved';
    },
    onSuccess: (outcome) => {
      if (outcome !== 'saved') return;
      setDirty(dirtyRef.current);
      setError('');
      setStatus('saved');
    },
    onError: (err) => {
      const noun = isPlatform(platform) ? platform : (channelById(platform)?.label ?? platform);
      const fallback = isPlatform(platform)
        ? CreateMessages.updateFailed[platform]
        : `Failed to update ${noun} content`;
      setError(`Failed to save ${noun} content: ${errorText(err, fallback)}`);
      setStatus('error');
    },
  });
  const { mutateAsync } = update;

  const save = useCallback(async (): Promise<boolean> => {
    // Nothing typed and no save under way (whose outcome a caller waits for): nothing to do.
    const idle = queryClient.isMutating({ mutationKey: ['content-save', articleId, platform] }) === 0;
    if (idle && !dirtyRef.current) return true;
    if (idle && limitMessageOf(platform, textRef.current)) return false;
    return mutateAsync().then(
      (outcome) => outcome !== 'blocked',
      () => false,
    );
  }, [articleId, platform, queryClient, mutateAsync]);

  // Saved as typed: each change waits for a pause in typing, so a burst of keystrokes is one request.
  useEffect(() => {
    if (!dirty || tooLong) return;
    const timer = setTimeout(() => void save(), timing.autosaveMs);
    return () => clearTimeout(timer);
  }, [text, dirty, tooLong, save]);
  // Leaving (another page while the modal is open) saves what is still waiting rather than dropping it.
  useEffect(() => () => void save(), [save]);

  return {
    platform,
    text,
    setText,
    dirty,
    status: update.isPending ? 'saving' : status,
    error,
    tooLong,
    limitMessage,
    save,
    accept,
  };
}
