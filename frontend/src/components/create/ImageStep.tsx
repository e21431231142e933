import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImageRequestSchema, type Article, type ArticleImage, type ImageStatus } from '@app/shared';
import { errorText, request } from '../../api/client';
import { useZodForm } from '../../lib/form';
import { timing } from '../../lib/timing';
import { BusyButton, Spinner } from '../Spinner';
import { articleIdOf, articleQueryKey, CreateMessages } from './articleQuery';
import { ImagePreview } from './ImagePreview';

class ImageTimeout extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Polls the image status (images.status) until the generation is no longer pending (or ~3 minutes pass). */
async function waitForImage(articleId: string, signal: AbortSignal): Promise<ImageStatus> {
  const started = Date.now();
  for (;;) {
    await sleep(timing.imagePollMs, signal);
    const status = await request('images.status', { params: { articleId } }, { signal });
    if (!status.pending) return status;
    if (Date.now() - started >= timing.imageTimeoutMs) throw new ImageTimeout(CreateMessages.imageTimeout);
  }
}

interface ImageStepProps {
  article: Article;
  onGenerated?: (message: string) => void;
}

/**
 * Step 2 (docs/product.md, Create): description, Generate Image (Regenerate Image once an image exists),
 * progress while the worker renders it, and the preview.
 */
export function ImageStep({ article, onGenerated }: ImageStepProps) {
  const queryClient = useQueryClient();
  const uid = useId();
  const articleId = articleIdOf(article);
  const form = useZodForm(ImageRequestSchema, {
    description: article.imageDescription || article.image?.description || '',
  });
  const [image, setImage] = useState<ArticleImage | null>(article.image ?? null);
  // Why the last generation gave no image.
  const [failure, setFailure] = useState('');
  const controllerRef = useRef<AbortController | null>(null);

  const hasImage = image !== null;
  const inputId = `${uid}-description`;
  const errorId = `${uid}-error`;
  const error = form.formState.errors.description?.message ?? failure;

  const finish = (status: ImageStatus, previous: string | null, fallback: string) => {
    const next = status.image;
    if (next && next.generatedAt !== previous) {
      setImage(next);
      setFailure('');
      queryClient.setQueryData<Article>(articleQueryKey(articleId), (current) =>
        current ? { ...current, image: next, imageDescription: next.description || current.imageDescription } : current,
      );
      onGenerated?.('Image generated.');
    } else {
      setFailure(status.error?.message || fallback);
    }
  };

  // Starts the generation (unless one is running already), then waits until it is no longer pending.
  const generation = useMutation({
    mutationFn: async ({ start, signal }: { start?: () => Promise<ImageStatus>; signal: AbortSignal }) => {
      const first = start ? await start() : null;
      return first && !first.pending ? first : waitForImage(articleId, signal);
    },
    onSettled: (_status, _error, { signal }) => {
      if (controllerRef.current?.signal === signal) controllerRef.current = null;
    },
  });

  /** Generates (or follows a running generation), then shows the new image or the reason it failed. */
  const follow = (start: (() => Promise<ImageStatus>) | undefined, previous: string | null, fallback: string) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    // Callbacks of the latest run only: a run followed by a newer one (or the step closed) shows nothing.
    generation.mutate(
      { start, signal: controller.signal },
      {
        onSuccess: (status) => finish(status, previous, fallback),
        onError: (err) => setFailure(err instanceof ImageTimeout ? err.message : errorText(err, fallback)),
      },
    );
  };
  const pending = generation.isPending;

  // Opening the step while an earlier generation still runs (modal closed and reopened): follow it.
  const onOpenStatus = useEffectEvent((status: ImageStatus) => {
    if (controllerRef.current) return;
    if (status.pending) follow(undefined, image?.generatedAt ?? null, CreateMessages.imageFailed.generate);
    else if (status.image && status.image.generatedAt !== image?.generatedAt) setImage(status.image);
  });
  useEffect(() => {
    let live = true;
    request('images.status', { params: { articleId } })
      .then((status) => {
        if (live) onOpenStatus(status);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      controllerRef.current?.abort();
      controllerRef.current = null;
    };
    // Once per article.
  }, [articleId]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setFailure('');
    void form.handleSubmit(({ description }) => {
      const regenerate = hasImage;
      const start = () =>
        request(regenerate ? 'images.regenerate' : 'images.generate', { params: { articleId }, body: { description } });
      follow(
        start,
        image?.generatedAt ?? null,
        regenerate ? CreateMessages.imageFailed.regenerate : CreateMessages.imageFailed.generate,
      );
    })(event);
  };

  const buttonLabel = hasImage ? 'Regenerate Image' : 'Generate Image';

  return (
    <div className="image-step">
      <form className="image-step__form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            Image Description
          </label>
          <textarea
            // Typing clears the last failure.
            {...form.register('description', { onChange: () => setFailure('') })}
            id={inputId}
            className={`input textarea${form.formState.errors.description ? ' input--invalid' : ''}`}
            rows={3}
            placeholder="e.g. A clean flat illustration of a content calendar with a laptop"
            disabled={pending}
            aria-describedby={error ? errorId : `${inputId}-hint`}
          />
          <p id={`${inputId}-hint`} className="field__hint">
            Used for the blog featured image (3:2) and the LinkedIn image (1200×627).
          </p>
        </div>
        {error && (
          <div id={errorId} className="alert alert--error" role="alert">
            {error}
          </div>
        )}
        <div className="image-step__actions">
          <BusyButton
            type="submit"
            className="btn btn--primary"
            disabled={pending}
            busy={pending}
            label={buttonLabel}
            busyLabel="Generating..."
          />
        </div>
      </form>

      <div className="image-step__preview" aria-busy={pending || undefined}>
        {pending && image && (
          <div className="image-step__progress" role="status">
            <Spinner size="sm" label="Generating image" />
            <span>Generating a new image… the current one stays until it is ready.</span>
          </div>
        )}
        {image ? (
          <ImagePreview articleId={articleId} image={image} />
        ) : pending ? (
          <div className="image-step__empty" role="status">
            <Spinner size="lg" label="Generating image" />
            <p>Generating your image…</p>
            <p className="muted">This can take up to a minute.</p>
          </div>
        ) : (
          <div className="image-step__empty">
            <p>No image yet.</p>
            <p className="muted">Describe the picture you want, then choose Generate Image.</p>
          </div>
        )}
      </div>
    </div>
  );
}
