import { useEffect, useEffectEvent, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CENTRE,
  IMAGE_UPLOAD_ACCEPT,
  IMAGE_UPLOAD_MAX_MB,
  ImageRequestSchema,
  ImageUploadMessages,
  imageFileProblem,
  type Article,
  type ArticleImage,
  type FocalPoint,
  type ImageStatus,
} from '@app/shared';
import { errorText, request } from '../../api/client';
import { useZodForm } from '../../lib/form';
import { UploadError, uploadImage, type UploadProgress } from '../../lib/imageUpload';
import { timing } from '../../lib/timing';
import { BusyButton, ButtonSpinner, Spinner } from '../Spinner';
import { articleIdOf, articleQueryKey, CreateMessages } from './articleQuery';
import { FocalPointPicker } from './FocalPointPicker';
import { ImagePreview } from './ImagePreview';
import '../../styles/image-upload.css';

/** What to do when a crop could not be saved (the chosen point stays on screen). */
const CROP_FAILED =
  'The crop could not be saved. Your point is kept: check your connection and choose Apply crop again.';

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
  /** The image only: no generation, upload or crop (the current role may not edit: docs/product.md, Workspaces). */
  locked?: boolean;
}

/**
 * Step 2 (docs/product.md, Create): description, Generate Image (Regenerate Image once an image exists),
 * progress while the worker renders it, and the preview; or Upload image (the user's own JPEG, PNG or WebP,
 * with upload progress), then the focal point both crops are cut around (Adjust crop, Apply crop).
 */
export function ImageStep({ article, onGenerated, locked = false }: ImageStepProps) {
  const queryClient = useQueryClient();
  const uid = useId();
  const articleId = articleIdOf(article);
  const form = useZodForm(ImageRequestSchema(), {
    description: article.imageDescription || article.image?.description || '',
  });
  const [image, setImage] = useState<ArticleImage | null>(article.image ?? null);
  // Why the last generation gave no image.
  const [failure, setFailure] = useState('');
  const controllerRef = useRef<AbortController | null>(null);
  // The upload under way, cancelled (the post to the store included) when the step closes.
  const uploadControllerRef = useRef<AbortController | null>(null);

  // The upload under way (what has been sent, then the server's checks), and why the last one failed.
  const [uploadProgress, setUploadProgress] = useState<UploadProgress | null>(null);
  const [uploadError, setUploadError] = useState('');
  // The focal point picker: open, the point chosen, and why the last Apply crop failed.
  const [cropping, setCropping] = useState(false);
  const [focal, setFocal] = useState<FocalPoint>(article.image?.focalPoint ?? CENTRE);
  const [cropError, setCropError] = useState('');

  const hasImage = image !== null;
  // Over the user's own picture a generation is a first one, not a "regenerate" of their photo.
  const regenerates = hasImage && image.source !== 'uploaded';
  const inputId = `${uid}-description`;
  const errorId = `${uid}-error`;
  const fileId = `${uid}-file`;
  const error = form.formState.errors.description?.message ?? failure;

  /** Shows `next` as the article's image (here and in the article's cached query); a generated one brings its description. */
  const adopt = (next: ArticleImage) => {
    setImage(next);
    setFailure('');
    const description = next.source === 'generated' ? next.description : '';
    queryClient.setQueryData<Article>(articleQueryKey(articleId), (current) =>
      current ? { ...current, image: next, imageDescription: description || current.imageDescription } : current,
    );
  };

  const finish = (status: ImageStatus, previous: string | null, fallback: string) => {
    const next = status.image;
    if (next && next.generatedAt !== previous) {
      adopt(next);
      setCropping(false);
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
  const generating = generation.isPending;

  const upload = useMutation({
    mutationFn: (file: File) => {
      const controller = new AbortController();
      uploadControllerRef.current = controller;
      return uploadImage(articleId, file, { onProgress: setUploadProgress, signal: controller.signal });
    },
    onSuccess: (answer) => {
      if (!answer.image) return;
      adopt(answer.image);
      // The picture is in, cut around the centre: now the point that matters, on the whole picture.
      setFocal(answer.image.focalPoint ?? CENTRE);
      setCropError('');
      setCropping(answer.image.original !== null);
      onGenerated?.(answer.message);
    },
    onError: (err) => {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      setUploadError(err instanceof UploadError ? err.message : errorText(err, ImageUploadMessages.uploadFailed));
    },
    onSettled: () => {
      uploadControllerRef.current = null;
      setUploadProgress(null);
    },
  });

  const applyCrop = useMutation({
    mutationFn: (point: FocalPoint) =>
      request('images.focalPoint', { params: { articleId }, body: { focalPoint: point } }),
    onSuccess: (answer) => {
      if (answer.image) adopt(answer.image);
      setCropping(false);
      onGenerated?.(answer.message);
    },
    onError: (err) => setCropError(errorText(err, CROP_FAILED)),
  });

  const pending = generating || upload.isPending || applyCrop.isPending;

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Choosing the same file again (after fixing something) fires change again.
    event.target.value = '';
    if (!file || pending) return;
    setUploadError('');
    const problem = imageFileProblem(file);
    if (problem) return setUploadError(problem);
    upload.mutate(file);
  };

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
      uploadControllerRef.current?.abort();
    };
    // Once per article.
  }, [articleId]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setFailure('');
    setUploadError('');
    void form.handleSubmit(({ description }) => {
      const start = () =>
        request(hasImage ? 'images.regenerate' : 'images.generate', { params: { articleId }, body: { description } });
      follow(
        start,
        image?.generatedAt ?? null,
        regenerates ? CreateMessages.imageFailed.regenerate : CreateMessages.imageFailed.generate,
      );
    })(event);
  };

  const buttonLabel = regenerates ? 'Regenerate Image' : 'Generate Image';
  const original = image?.original ?? null;
  const uploadPercent = uploadProgress?.stage === 'sending' ? Math.round(uploadProgress.fraction * 100) : null;

  return (
    <div className={`image-step${locked ? ' image-step--locked' : ''}`}>
      {!locked && (
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
              disabled={generating}
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
              busy={generating}
              label={buttonLabel}
              busyLabel="Generating..."
            />
            <span className="image-step__or">or</span>
            {/* A real file input (keyboard and screen readers reach it), shown as its label. */}
            <input
              id={fileId}
              type="file"
              className="file-button__input sr-only"
              accept={IMAGE_UPLOAD_ACCEPT}
              disabled={pending}
              onChange={chooseFile}
              aria-describedby={uploadError ? `${fileId}-error` : `${fileId}-hint`}
            />
            <label
              htmlFor={fileId}
              className={`btn btn--secondary file-button${pending ? ' is-disabled' : ''}`}
              aria-busy={upload.isPending || undefined}
            >
              {upload.isPending ? (
                <>
                  <ButtonSpinner /> Uploading...
                </>
              ) : (
                'Upload image'
              )}
            </label>
          </div>
          <p id={`${fileId}-hint`} className="field__hint">
            Your own picture: JPEG, PNG or WebP, up to {IMAGE_UPLOAD_MAX_MB} MB. Its location and camera data are
            removed.
          </p>
          {uploadError && (
            <div id={`${fileId}-error`} className="alert alert--error" role="alert">
              {uploadError}
            </div>
          )}
        </form>
      )}

      <div className="image-step__preview" aria-busy={pending || undefined}>
        {uploadProgress && (
          <div className="image-step__progress" role="status">
            {uploadPercent !== null ? (
              <>
                <progress className="upload-progress" max={100} value={uploadPercent} aria-label="Upload progress" />
                <span>Uploading your picture… {uploadPercent}%</span>
                {/* Only while the file travels: once the server checks and cuts it, the change is under way. */}
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => uploadControllerRef.current?.abort()}
                >
                  Cancel upload
                </button>
              </>
            ) : (
              <>
                <Spinner size="sm" label="Checking the picture" />
                <span>Checking your picture and cutting both sizes…</span>
              </>
            )}
          </div>
        )}
        {generating && image && (
          <div className="image-step__progress" role="status">
            <Spinner size="sm" label="Generating image" />
            <span>Generating a new image… the current one stays until it is ready.</span>
          </div>
        )}
        {image && cropping && original ? (
          <section className="image-step__crop" aria-label="Choose the focal point">
            <FocalPointPicker
              original={original}
              value={focal}
              onChange={(point) => {
                setFocal(point);
                setCropError('');
              }}
              disabled={applyCrop.isPending}
            />
            {cropError && (
              <div className="alert alert--error" role="alert">
                {cropError}
              </div>
            )}
            <div className="image-step__actions">
              <BusyButton
                type="button"
                className="btn btn--primary"
                disabled={applyCrop.isPending}
                busy={applyCrop.isPending}
                label="Apply crop"
                busyLabel="Applying..."
                onClick={() => applyCrop.mutate(focal)}
              />
              <button
                type="button"
                className="btn btn--ghost"
                disabled={applyCrop.isPending}
                onClick={() => {
                  setCropping(false);
                  setCropError('');
                  setFocal(image.focalPoint ?? CENTRE);
                }}
              >
                Cancel
              </button>
            </div>
          </section>
        ) : image ? (
          <>
            <ImagePreview articleId={articleId} image={image} />
            {original && !locked && (
              <div className="image-step__crop-bar">
                <span className="muted">
                  {image.source === 'uploaded' ? 'Your picture' : 'Generated picture'}, cut around{' '}
                  {image.focalPoint
                    ? `${Math.round(image.focalPoint.x * 100)}% across, ${Math.round(image.focalPoint.y * 100)}% down`
                    : 'its most interesting part'}
                  .
                </span>
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  disabled={pending}
                  onClick={() => {
                    setFocal(image.focalPoint ?? CENTRE);
                    setCropError('');
                    setCropping(true);
                  }}
                >
                  Adjust crop
                </button>
              </div>
            )}
          </>
        ) : generating ? (
          <div className="image-step__empty" role="status">
            <Spinner size="lg" label="Generating image" />
            <p>Generating your image…</p>
            <p className="muted">This can take up to a minute.</p>
          </div>
        ) : (
          <div className="image-step__empty">
            <p>No image yet.</p>
            {!locked && (
              <p className="muted">Describe the picture you want, then choose Generate Image, or upload your own.</p>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
