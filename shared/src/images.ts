/**
 * Your own image (docs/product.md, Create): the upload's limits and texts, the request schemas, and the
 * crop around a focal point that both the server (the published sizes) and the browser (the preview of
 * those crops) compute.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';

/** The largest image file one may upload: the presigned POST's content-length-range and the server's re-check. */
export const IMAGE_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;
export const IMAGE_UPLOAD_MAX_MB = IMAGE_UPLOAD_MAX_BYTES / (1024 * 1024);
/** The types one may upload, as the browser names them (File.type) and as the server finds them by content. */
export const IMAGE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageUploadType = (typeof IMAGE_UPLOAD_TYPES)[number];
/** What the file input offers. */
export const IMAGE_UPLOAD_ACCEPT = IMAGE_UPLOAD_TYPES.join(',');

/** The two sizes the app publishes (docs/integrations.md). */
export const IMAGE_SIZES = {
  blog: { width: 1200, height: 800 },
  linkedin: { width: 1200, height: 627 },
} as const;

export const ImageUploadMessages = {
  wrongType: 'This file is not a JPEG, PNG or WebP image. Choose a .jpg, .png or .webp picture and upload it again.',
  tooLarge: `This image is larger than ${IMAGE_UPLOAD_MAX_MB} MB. Choose a smaller file (or export it at a smaller size) and upload it again.`,
  empty: 'This file is empty. Choose another picture.',
  unreadable:
    'This image could not be read (it may be damaged or too large in pixels). Choose another picture or save it again as JPEG.',
  uploadMissing: 'The uploaded file was not found (uploads expire after a few minutes). Upload the image again.',
  uploadKeyInvalid: 'This upload does not belong to this article. Upload the image again.',
  uploadFailed: 'The upload did not finish. Check your connection and upload the image again.',
  noOriginal: 'This image has no kept original to crop again. Upload the picture, or generate a new image.',
  noImage: 'This article has no image yet',
  focalPointInvalid: 'The focal point must have x and y between 0 and 1.',
  uploaded: 'Image uploaded.',
  cropSaved: 'Crop saved.',
} as const;

/** An upload refused by its pixel count (read from the file's header, before it is decoded). */
export function imageTooManyPixels(
  size: { width: number; height: number },
  maxMegapixels: number,
  progressive: boolean,
): string {
  const megapixels = Math.round((size.width * size.height) / 1_000_000);
  const which = progressive ? 'A progressive JPEG or interlaced PNG may have' : 'An image may have';
  const fix = progressive ? 'Save it smaller, or as a standard (baseline) JPEG,' : 'Save it smaller';
  return `This image is ${size.width} × ${size.height} pixels (${megapixels} megapixels). ${which} at most ${maxMegapixels} megapixels. ${fix} and upload it again.`;
}

/**
 * The type the browser gives, or the size, refused before anything is sent (the same texts as the server's):
 * the message, or null when the file may go.
 */
export function imageFileProblem(file: { type: string; size: number }): string | null {
  if (!(IMAGE_UPLOAD_TYPES as readonly string[]).includes(file.type)) return ImageUploadMessages.wrongType;
  if (file.size <= 0) return ImageUploadMessages.empty;
  if (file.size > IMAGE_UPLOAD_MAX_BYTES) return ImageUploadMessages.tooLarge;
  return null;
}

/** Where the picture's subject is, as fractions of its width and height (0,0 top left; 0.5,0.5 the centre). */
export interface FocalPoint {
  x: number;
  y: number;
}
export const CENTRE: FocalPoint = { x: 0.5, y: 0.5 };

const fraction = () =>
  z
    .number({ error: ImageUploadMessages.focalPointInvalid })
    .check(z.minimum(0, ImageUploadMessages.focalPointInvalid), z.maximum(1, ImageUploadMessages.focalPointInvalid));
export const FocalPointSchema = lazySchema(() =>
  z.strictObject({ x: fraction(), y: fraction() }, { error: ImageUploadMessages.focalPointInvalid }),
);

/** POST /api/image/upload/{articleId}: what the browser is about to send. */
export const ImageUploadStartSchema = lazySchema(() =>
  z.strictObject({
    contentType: z.enum(IMAGE_UPLOAD_TYPES, { error: ImageUploadMessages.wrongType }),
    size: z
      .int({ error: 'size must be the file size in bytes' })
      .check(z.minimum(1, ImageUploadMessages.empty), z.maximum(IMAGE_UPLOAD_MAX_BYTES, ImageUploadMessages.tooLarge)),
  }),
);
export type ImageUploadStartInput = z.infer<ReturnType<typeof ImageUploadStartSchema>>;

/** POST /api/image/upload/{articleId}/complete: the key the start answered, and the focal point (default: centre). */
export const ImageUploadCompleteSchema = lazySchema(() =>
  z.strictObject({
    key: z
      .string({ error: ImageUploadMessages.uploadKeyInvalid })
      .check(
        z.minLength(1, ImageUploadMessages.uploadKeyInvalid),
        z.maxLength(300, ImageUploadMessages.uploadKeyInvalid),
        z.regex(/^[A-Za-z0-9/_.-]+$/, ImageUploadMessages.uploadKeyInvalid),
      ),
    focalPoint: z.optional(FocalPointSchema()),
  }),
);
export type ImageUploadCompleteInput = z.infer<ReturnType<typeof ImageUploadCompleteSchema>>;

/** PUT /api/image/focal-point/{articleId}: crop the kept original again around this point. */
export const ImageFocalPointSchema = lazySchema(() => z.strictObject({ focalPoint: FocalPointSchema() }));

/** GET /api/image/original/{articleId}: `t`, the image's version, makes the URL cacheable for good. */
export const OriginalQuerySchema = lazySchema(() =>
  z.strictObject({
    t: z.optional(z.string().check(z.maxLength(40, 't (the image version) must be at most 40 characters'))),
  }),
);

/** A rectangle of whole pixels in the source image. */
export interface CropRectangle {
  left: number;
  top: number;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The crop of a `width`×`height` picture for a `target` size: the largest window of the target's aspect
 * ratio that fits, placed so that its centre is as close to the focal point as the picture allows (a
 * point near an edge gives a window against that edge). The caller then scales the window to the target.
 */
export function cropRectangle(
  source: { width: number; height: number },
  target: { width: number; height: number },
  focal: FocalPoint = CENTRE,
): CropRectangle {
  const { width, height } = source;
  const aspect = target.width / target.height;
  const wider = width / height > aspect;
  const cropWidth = wider ? clamp(Math.round(height * aspect), 1, width) : width;
  const cropHeight = wider ? height : clamp(Math.round(width / aspect), 1, height);
  const left = clamp(Math.round(clamp(focal.x, 0, 1) * width - cropWidth / 2), 0, width - cropWidth);
  const top = clamp(Math.round(clamp(focal.y, 0, 1) * height - cropHeight / 2), 0, height - cropHeight);
  return { left, top, width: cropWidth, height: cropHeight };
}
