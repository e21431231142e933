import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { CreateArticleSchema, type Article, type CreateArticleInput } from '@app/shared';
import { errorText, request } from '../../api/client';
import { firstError, useZodForm } from '../../lib/form';
import { BusyButton } from '../Spinner';
import { CreateMessages } from './articleQuery';

/** docs/product.md (Create): the five fields, kept in the browser under the key `draft`. */
export const DRAFT_STORAGE_KEY = 'draft';
const FIELDS = ['title', 'topic', 'keyword', 'details', 'imageDescription'] as const;
type Field = (typeof FIELDS)[number];
export type Draft = Record<Field, string>;

const EMPTY: Draft = { title: '', topic: '', keyword: '', details: '', imageDescription: '' };

export function readDraft(): Draft {
  try {
    const raw = window.localStorage.getItem(DRAFT_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object') return { ...EMPTY };
    const record = parsed as Record<string, unknown>;
    const draft = { ...EMPTY };
    for (const field of FIELDS) if (typeof record[field] === 'string') draft[field] = record[field];
    return draft;
  } catch {
    return { ...EMPTY };
  }
}

function writeDraft(draft: Partial<Draft> | null): void {
  try {
    if (draft) window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
    else window.localStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Storage full or blocked: the form still works, only the draft is not kept.
  }
}

interface FieldSpec {
  field: Field;
  label: string;
  placeholder: string;
  required?: boolean;
  multiline?: number;
  hint?: string;
}

const FIELD_SPECS: FieldSpec[] = [
  { field: 'title', label: 'Title', placeholder: 'e.g. 5 ways to automate your content calendar', required: true },
  { field: 'topic', label: 'Topic', placeholder: 'What is the article about?', required: true },
  {
    field: 'keyword',
    label: 'Keyword',
    placeholder: 'e.g. content automation',
    hint: 'The main search term to focus on.',
  },
  {
    field: 'details',
    label: 'Details',
    placeholder: 'Key points, audience, tone, facts or examples to include. One point per line works well.',
    multiline: 6,
  },
  {
    field: 'imageDescription',
    label: 'Image Description',
    placeholder: 'e.g. A clean flat illustration of a content calendar on a laptop',
    multiline: 2,
    hint: 'Used to generate the featured image. You can change it later.',
  },
];

/** docs/product.md (Create): the Create Article form. */
export function CreateArticleForm({ onCreated }: { onCreated: (article: Article) => void }) {
  const uid = useId();
  const [draft] = useState(readDraft);
  const form = useZodForm(CreateArticleSchema(), draft);
  const [title, topic] = useWatch({ control: form.control, name: ['title', 'topic'] });
  const ready = title.trim() !== '' && topic.trim() !== '';

  // Every change is kept as the draft.
  useEffect(
    () => form.subscribe({ formState: { values: true }, callback: ({ values }) => writeDraft(values) }),
    [form],
  );

  const create = useMutation({
    mutationFn: async (body: CreateArticleInput) => (await request('articles.create', { body })).article,
    onSuccess: (article) => {
      form.reset({ ...EMPTY });
      writeDraft(null);
      onCreated(article);
    },
  });
  const loading = create.isPending;
  // The first problem of the fields (the schema's order), else the server's.
  const error =
    firstError(form.formState.errors, FIELDS) ?? (create.error && errorText(create.error, CreateMessages.createFailed));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready || loading) return;
    create.reset();
    void form.handleSubmit((input) => create.mutate(input))(event);
  };

  return (
    <form className="card create-form" onSubmit={onSubmit} noValidate aria-labelledby={`${uid}-heading`}>
      <div className="create-form__header">
        <h2 id={`${uid}-heading`} className="card-title">
          New article
        </h2>
        <p className="card-description">
          Describe the article once: a blog version and a LinkedIn post are drafted from it.
        </p>
      </div>
      {error && (
        <div className="alert alert--error" role="alert">
          Error: {error}
        </div>
      )}
      {FIELD_SPECS.map(({ field, label, placeholder, required, multiline, hint }) => {
        const id = `${uid}-${field}`;
        const common = {
          ...form.register(field),
          id,
          placeholder,
          disabled: loading,
          'aria-required': required || undefined,
          'aria-describedby': hint ? `${id}-hint` : undefined,
        };
        return (
          <div className="field" key={field}>
            <div className="field__label-row">
              <label className="field__label" htmlFor={id}>
                {label}
              </label>
              {required && (
                <span className="field__required" aria-hidden="true">
                  *
                </span>
              )}
            </div>
            {multiline ? (
              <textarea {...common} className="input textarea" rows={multiline} />
            ) : (
              <input {...common} className="input" type="text" autoComplete="off" />
            )}
            {hint && (
              <p id={`${id}-hint`} className="field__hint">
                {hint}
              </p>
            )}
          </div>
        );
      })}
      <div className="create-form__actions">
        <BusyButton
          type="submit"
          className="btn btn--primary btn--lg"
          disabled={!ready || loading}
          busy={loading}
          label="Create & Schedule"
          busyLabel="Creating..."
        />
        {!ready && !loading && <span className="field__hint">Title and topic are required.</span>}
      </div>
    </form>
  );
}
