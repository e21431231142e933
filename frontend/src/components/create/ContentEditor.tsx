import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  ArticleMessages,
  isPlatform,
  GptEditSchema,
  offlineDraftNoteLines,
  withoutOfflineDraftNote,
  wordCount,
  type Article,
  type GptEditInput,
  type Platform,
} from '@app/shared';
import { ApiError, errorText, request } from '../../api/client';
import { channelById, channelFor } from '../../channels/registry';
import { firstError, useZodForm } from '../../lib/form';
import { BusyButton } from '../Spinner';
import { articleQueryKey, CreateMessages } from './articleQuery';
import { NoteHighlight, NoteMessage } from './OfflineDraftNote';
import type { ContentDraft } from './useContentDraft';

export type EditorMode = 'manual' | 'gpt';

interface ContentEditorProps {
  articleId: string;
  title: string;
  draft: ContentDraft;
  /** Called after a GPT edit was applied (for the modal's inline notification). */
  onEdited?: (message: string) => void;
  /** The text only, no editing controls: the current role may not edit (docs/product.md, Workspaces). */
  locked?: boolean;
}

/**
 * One version's editor (docs/product.md, Create, step 1): Manual / GPT toggle, word count, and for a
 * channel with a text limit (shared/src/channels.ts) the `n / max` counter. Manual text is saved as it is typed (useContentDraft), on blur or with Save; GPT mode shows the text
 * read-only and sends an edit request. Its preview is beside it (the channel's, channels/registry.ts).
 */
export function ContentEditor({ articleId, title, draft, onEdited, locked = false }: ContentEditorProps) {
  const queryClient = useQueryClient();
  const uid = useId();
  const { platform } = draft;
  // A channel with a text of its own (channels/types.ts, ownVersion) counts it its own way; the GPT edit route takes
  // its version by the channel's id as it takes the others.
  const own = isPlatform(platform) ? undefined : channelById(platform);
  const channel = own ?? channelFor(platform as Platform);
  const labels = channel.texts.editor;
  const limit = own?.ownVersion ? { max: own.ownVersion.max } : channel.textLimit;
  const [mode, setMode] = useState<EditorMode>('manual');
  // The request is checked with the payload's own schema, the article and version being this editor's.
  const form = useZodForm(
    z.pipe(
      z.pipe(
        z.object({ editRequest: z.string() }),
        z.transform(({ editRequest }): GptEditInput => ({ articleId, contentType: platform, editRequest })),
      ),
      GptEditSchema(),
    ),
    { editRequest: '' },
  );
  const edit = useMutation({
    mutationFn: (body: GptEditInput) => request('articles.gptEdit', { body }),
    onSuccess: ({ article, editedContent }) => {
      queryClient.setQueryData<Article>(articleQueryKey(articleId), article);
      draft.accept(editedContent);
      form.reset();
      onEdited?.(`Edit applied to the ${labels.noun}.`);
    },
  });
  const editing = edit.isPending;
  const requestError =
    firstError(form.formState.errors, ['articleId', 'contentType', 'editRequest']) ??
    (edit.error ? errorText(edit.error, CreateMessages.processEditFailed) : '');
  // Without an OpenAI key the server edits offline and refuses what it cannot do (functions/src/adapters/ai/
  // offline/edit.ts): its message says so; the way on from here is editing by hand.
  const offlineRefusal = edit.error instanceof ApiError && edit.error.code === 'ai_unavailable';

  const length = own?.ownVersion ? own.ownVersion.count(draft.text) : draft.text.length;
  const words = wordCount(draft.text);
  // An offline draft's own note: publishing refuses the version while it is in the text (shared/src/offline-draft.ts).
  const notes = useMemo(() => offlineDraftNoteLines(draft.text), [draft.text]);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const ids = {
    title: `${uid}-title`,
    textarea: `${uid}-text`,
    meta: `${uid}-meta`,
    limit: `${uid}-limit`,
    request: `${uid}-request`,
    requestError: `${uid}-request-error`,
    error: `${uid}-error`,
    note: `${uid}-note`,
  };

  const switchMode = async (next: EditorMode) => {
    if (next === mode) return;
    form.clearErrors();
    edit.reset();
    // GPT edits start from the saved text: save what was typed first.
    if (next === 'gpt' && draft.dirty && !(await draft.save())) return;
    setMode(next);
  };

  const sendEdit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (editing) return;
    if (!articleId) {
      window.alert(ArticleMessages.articleIdMissing);
      return;
    }
    edit.reset();
    void form.handleSubmit(async (input) => {
      if (draft.dirty && !(await draft.save())) return;
      edit.mutate(input);
    })(event);
  };

  const readOnly = locked || mode === 'gpt' || editing;
  const describedBy = [
    ids.meta,
    notes.length ? ids.note : '',
    draft.tooLong ? ids.limit : '',
    draft.error ? ids.error : '',
  ]
    .filter(Boolean)
    .join(' ');
  const saveState =
    draft.status === 'saving' ? 'Saving...' : draft.dirty ? 'Unsaved changes' : draft.status === 'saved' ? 'Saved' : '';

  return (
    <section className={`editor editor--${platform}`} aria-labelledby={ids.title}>
      <div className="editor__header">
        <h3 id={ids.title} className="editor__title">
          {title}
        </h3>
        {!locked && (
          <div className="editor__tools">
            <div className="segmented" role="group" aria-label={`${title} editing mode`}>
              {(['manual', 'gpt'] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  className={`segmented__option${mode === value ? ' is-active' : ''}`}
                  aria-pressed={mode === value}
                  disabled={editing}
                  onClick={() => void switchMode(value)}
                >
                  {value === 'manual' ? 'Manual' : 'GPT'}
                </button>
              ))}
            </div>
          </div>
        )}
      </div>

      <div className="editor__field">
        {notes.length > 0 && (
          <NoteHighlight text={draft.text} notes={notes} textareaRef={textareaRef} readOnly={readOnly} />
        )}
        <textarea
          ref={textareaRef}
          id={ids.textarea}
          className={`input textarea editor__text${draft.tooLong ? ' input--invalid' : ''}${notes.length ? ' editor__text--noted' : ''}`}
          aria-label={labels.textarea}
          aria-describedby={describedBy}
          aria-invalid={draft.tooLong || undefined}
          rows={labels.rows}
          value={draft.text}
          readOnly={readOnly}
          placeholder={readOnly ? '' : `Write the ${labels.noun} here…`}
          onChange={(event) => draft.setText(event.target.value)}
          onBlur={() => {
            if (draft.dirty && !draft.tooLong) void draft.save();
          }}
        />
      </div>

      <div className="editor__meta" id={ids.meta}>
        <span className="editor__count">
          {words} {words === 1 ? 'word' : 'words'}
        </span>
        {limit && (
          <span
            className={`editor__count${draft.tooLong || length > limit.max ? ' is-over' : ''}`}
            data-testid={`${platform}-counter`}
          >
            {length} / {limit.max}
            {length > limit.max && <span className="sr-only"> characters: over the limit</span>}
          </span>
        )}
        <span className="editor__save-state" aria-live="polite">
          {saveState}
        </span>
        {mode === 'manual' && !locked && (
          <button
            type="button"
            className="btn btn--secondary btn--sm editor__save"
            disabled={!draft.dirty || draft.tooLong || draft.status === 'saving'}
            onClick={() => void draft.save()}
          >
            Save
          </button>
        )}
      </div>

      {notes.length > 0 && (
        <NoteMessage
          id={ids.note}
          notes={notes}
          onRemove={
            readOnly
              ? undefined
              : () => {
                  draft.setText(withoutOfflineDraftNote(draft.text));
                  void draft.save();
                }
          }
        />
      )}
      {draft.tooLong && (
        <p id={ids.limit} className="field__error" role="alert">
          {draft.limitMessage}
        </p>
      )}
      {draft.error && (
        <p id={ids.error} className="field__error" role="alert">
          {draft.error}
        </p>
      )}

      {mode === 'gpt' && (
        <form className="editor__gpt" onSubmit={sendEdit} noValidate>
          <label className="field__label" htmlFor={ids.request}>
            Edit request
          </label>
          <div className="editor__gpt-row">
            <input
              // Typing clears the last failure.
              {...form.register('editRequest', { onChange: () => edit.reset() })}
              id={ids.request}
              className={`input${requestError ? ' input--invalid' : ''}`}
              placeholder={platform === 'blog' ? 'e.g. Make it shorter' : 'e.g. Add hashtags #marketing'}
              disabled={editing}
              aria-invalid={requestError ? true : undefined}
              aria-describedby={requestError ? ids.requestError : undefined}
            />
            <BusyButton
              type="submit"
              className="btn btn--primary"
              disabled={editing}
              busy={editing}
              label="Send"
              busyLabel="Applying..."
            />
          </div>
          {requestError && (
            <p id={ids.requestError} className="field__error" role="alert">
              {requestError}
            </p>
          )}
          {offlineRefusal && (
            <button
              type="button"
              className="btn btn--secondary btn--sm editor__gpt-manual"
              onClick={() => void switchMode('manual')}
            >
              Switch to Manual
            </button>
          )}
        </form>
      )}
    </section>
  );
}
