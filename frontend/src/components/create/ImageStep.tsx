import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ImageRequestSchema, firstIssueMessage, type Article, type ArticleImage, type ImageStatus } from '@app/shared';
import { imagesApi } from '../../api/images';
import { errorText } from '../../api/client';
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

/** Polls GET /api/image/{id} until the generation is no longer pending (or ~3 minutes pass). */
async function waitForImage(articleId: string, signal: AbortSignal): Promise<ImageStatus> {
  const started = Date.now();
  for (;;) {
    await sleep(timing.imagePollMs, signal);
    const status = await imagesApi.status(articleId, { signal });
    if (!status?.pending) return status;
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
  const [description, setDescription] = useState(article.imageDescription || article.image?.description || '');
  const [image, setImage] = useState<ArticleImage | null>(article.image ?? null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  const controllerRef = useRef<AbortController | null>(null);
  const imageRef = useRef(image);
  imageRef.current = image;

  const hasImage = image !== null;
  const inputId = `${uid}-description`;
  const errorId = `${uid}-error`;

  const finish = (status: ImageStatus, previous: string | null, fallback: string) => {
    const next = status?.image ?? null;
    if (next && next.generatedAt !== previous) {
      setImage(next);
      setError('');
      queryClient.setQueryData<Article>(articleQueryKey(articleId), (current) =>
        current ? { ...current, image: next, imageDescription: next.description || current.imageDescription } : current,
      );
      onGenerated?.('Image generated.');
    } else {
      setError(status?.error?.message || fallback);
    }
  };

  /** Waits for a running generation, then shows the new image or the reason it failed. */
  const follow = async (first: ImageStatus | null, previous: string | null, fallback: string) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setPending(true);
    try {
      const status = first && !first.pending ? first : await waitForImage(articleId, controller.signal);
      finish(status, previous, fallback);
    } catch (err) {
      if (controller.signal.aborted) return;
      setError(err instanceof ImageTimeout ? err.message : errorText(err, fallback));
    } finally {
      if (controllerRef.current === controller) {
        controllerRef.current = null;
        setPending(false);
      }
    }
  };

  // Opening the step while an earlier generation still runs (modal closed and reopened): follow it.
  useEffect(() => {
    let live = true;
    imagesApi
      .status(articleId)
      .then((status) => {
        if (!live || controllerRef.current) return;
        const current = imageRef.current;
        if (status?.pending) void follow(null, current?.generatedAt ?? null, CreateMessages.imageFailed.generate);
        else if (status?.image && status.image.generatedAt !== current?.generatedAt) setImage(status.image);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      controllerRef.current?.abort();
      controllerRef.current = null;
    };
    // Once per article.
  }, [articleId]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const parsed = ImageRequestSchema.safeParse({ description });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    const regenerate = hasImage;
    const fallback = regenerate ? CreateMessages.imageFailed.regenerate : CreateMessages.imageFailed.generate;
    const previous = image?.generatedAt ?? null;
    setError('');
    setPending(true);
    let started: ImageStatus;
    try {
      started = await (regenerate ? imagesApi.regenerate : imagesApi.generate)(articleId, parsed.data.description);
    } catch (err) {
      setPending(false);
      setError(errorText(err, fallback));
      return;
    }
    await follow(started ?? null, previous, fallback);
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
            id={inputId}
            className={`input textarea${error && !description.trim() ? ' input--invalid' : ''}`}
            rows={3}
            value={description}
            placeholder="e.g. A clean flat illustration of a content calendar with a laptop"
            disabled={pending}
            aria-describedby={error ? errorId : `${inputId}-hint`}
            onChange={(event) => {
              setDescription(event.target.value);
              if (error) setError('');
            }}
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
