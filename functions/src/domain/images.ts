/**
 * The article's image beyond generation: the user's own picture (a presigned upload straight to the store,
 * then checked by content, stripped of metadata and cut to both sizes around a focal point), a new focal
 * point later, and the one rule every image change follows: the article points at the newest image only,
 * and the previous image's files are deleted once it no longer does (replaceImage).
 */
import { randomBytes } from 'node:crypto';
import {
  CENTRE,
  IMAGE_SIZES,
  IMAGE_UPLOAD_MAX_BYTES,
  ImageUploadMessages,
  PLATFORMS,
  cropRectangle,
  imageTooManyPixels,
  type FocalPoint,
  type ImageUploadType,
  type Platform,
  type VersionId,
} from '@app/shared';
import type { ArticleRecord, StoredImage } from './articles.js';
import { badRequest, conflict, notFound } from './errors.js';
import type { JobLimits } from './job-limits.js';
import type { ArticleStore, ImageProcessor, ObjectStore, StoredObject, UploadSigner } from './ports.js';

/** How long a signed upload may be used: long enough for 15 MB on a slow line, short enough not to linger. */
export const UPLOAD_EXPIRES_SECONDS = 10 * 60;
/** The kept original's longest side: twice the published width, plenty for any crop of it. */
export const ORIGINAL_MAX_SIDE = 2400;
/**
 * Pixels an uploaded picture may have, read from its header before anything is decoded: 50 megapixels (a
 * 48 MP phone photo passes). A 15 MB file can hold far more, which would take gigabytes to decode.
 */
export const MAX_UPLOAD_PIXELS = 50_000_000;
/**
 * A progressive JPEG or interlaced PNG is decoded whole (every scan refines the whole picture), where a
 * baseline one streams row by row: 49 MP took 1.7 s and 300 MB. 25 megapixels (a 24 MP camera's 6000×4000)
 * bounds it to about half that.
 */
export const MAX_PROGRESSIVE_PIXELS = 25_000_000;

/**
 * Image reads are signed for an hour-long window starting at the top of the hour and lasting two, so
 * the same image gets the same URL all hour (the browser's cache keeps it) and every URL handed out
 * stays valid for at least an hour.
 */
const DOWNLOAD_WINDOW_MS = 60 * 60 * 1000;
export const DOWNLOAD_EXPIRES_SECONDS = 2 * 60 * 60;
/** A stored image file never changes under its key (a new image or crop gets new keys). */
const IMMUTABLE = 'private, max-age=31536000, immutable';

/** A signed URL that reads one stored image file, the same all hour (DOWNLOAD_WINDOW_MS); the approval page's too. */
export function imageFileLink(signer: Pick<UploadSigner, 'signDownload'>, key: string, now: Date): Promise<string> {
  const windowStart = Math.floor(now.getTime() / DOWNLOAD_WINDOW_MS) * DOWNLOAD_WINDOW_MS;
  return signer.signDownload(key, {
    expiresInSeconds: DOWNLOAD_EXPIRES_SECONDS,
    cacheControl: IMMUTABLE,
    signingDate: new Date(windowStart),
  });
}

/**
 * Where one user's uploads for one article land (a random name follows). Outside `users/`, so the bucket
 * can expire abandoned uploads by prefix (infra/lib/content-publisher-stack.ts).
 */
export const uploadPrefix = (userId: string, articleId: string) => `uploads/${userId}/${articleId}/`;

/** The stored files of an image (the sizes and the kept original). */
export const imageKeys = (image: StoredImage | null | undefined): string[] =>
  image ? [image.blogKey, image.linkedinKey, ...(image.original ? [image.original.key] : [])] : [];

/** The type by its first bytes (the file's signature), whatever the browser or the file name said. */
export function sniffImageType(bytes: Buffer): ImageUploadType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

export interface ImageServiceDeps {
  articles: ArticleStore;
  objects: ObjectStore;
  signer: UploadSigner;
  images: ImageProcessor;
  /** Per-user limits: upload starts per hour (absent: none). */
  limits?: Pick<JobLimits, 'start'>;
  now?: () => Date;
}

export interface ReplaceImageInput {
  userId: string;
  articleId: string;
  next: StoredImage;
  /** Written with the image (e.g. the image job's state). */
  changes?: Record<string, unknown>;
  /**
   * Whether this change still applies to the article as it now is (a stale generation or crop does
   * not): when false, nothing is written and `next`'s own files are deleted.
   */
  stillApplies?: (article: ArticleRecord) => boolean;
  /** Also a condition of the write, for the image job (ArticleStore.update onlyIfImageJob). */
  onlyIfImageJob?: string;
}

/**
 * Points the article at `next` and then deletes the files of the image it replaced. The write is
 * conditional on the image read just before (ArticleStore.update onlyIfImage), so "the image it
 * replaced" is exact even when two changes race: the loser reads again and replaces the winner's image.
 * Files are deleted only after the article no longer points at them, and never `next`'s own; a change
 * that no longer applies deletes only its own files. Answers the article as written, or undefined
 * when the change did not apply (or the article is gone).
 */
export async function replaceImage(
  deps: Pick<ImageServiceDeps, 'articles' | 'objects'>,
  input: ReplaceImageInput,
): Promise<ArticleRecord | undefined> {
  const { userId, articleId, next } = input;
  const discard = () => deleteAll(deps.objects, imageKeys(next));
  for (let attempt = 1; attempt <= 5; attempt++) {
    const article = await deps.articles.get(userId, articleId);
    if (!article || (input.stillApplies && !input.stillApplies(article))) {
      await discard();
      return undefined;
    }
    const previous = article.image;
    const updated = await deps.articles.update(
      userId,
      articleId,
      { image: next, ...input.changes },
      {
        onlyIfImage: previous?.blogKey ?? null,
        ...(input.onlyIfImageJob !== undefined ? { onlyIfImageJob: input.onlyIfImageJob } : {}),
      },
    );
    if (updated) {
      const kept = new Set(imageKeys(next));
      await deleteAll(
        deps.objects,
        imageKeys(previous).filter((key) => !kept.has(key)),
      );
      return updated;
    }
  }
  // Five changes in between: let the caller's retry read the newest state.
  await discard();
  throw conflict('The image changed several times meanwhile. Please try again.', 'image_changed');
}

/**
 * The file of the article's newest image for `platform`, with that image. An image change deletes the
 * replaced files right after pointing the article at the new image (replaceImage), so a file missing for
 * the article as read usually means a newer image: the article is read again and that one's file used.
 * Undefined when there is no image, or its file is lost without a newer one.
 */
export async function newestImageFile(
  deps: { articles: Pick<ArticleStore, 'get'>; objects: Pick<ObjectStore, 'get'> },
  article: ArticleRecord,
  platform: VersionId,
): Promise<{ image: StoredImage; file: StoredObject } | undefined> {
  // A channel's own version goes out with the blog's picture (version-names.ts, imageVersion).
  const keyOf = (image: StoredImage) => (platform === 'linkedin' ? image.linkedinKey : image.blogKey);
  let image = article.image;
  for (let attempt = 1; image && attempt <= 3; attempt++) {
    const key = keyOf(image);
    const file = await deps.objects.get(key);
    if (file) return { image, file };
    const newest = (await deps.articles.get(article.userId, article.id))?.image;
    image = newest && keyOf(newest) !== key ? newest : null;
  }
  return undefined;
}

/** Best effort: a file left behind costs little, a failed answer after the article was written would mislead. */
async function deleteAll(objects: ObjectStore, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => objects.delete(key).catch(() => undefined)));
}

export class ImageService {
  private readonly now: () => Date;
  constructor(private readonly deps: ImageServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private async article(userId: string, id: string): Promise<ArticleRecord> {
    const article = await this.deps.articles.get(userId, id);
    if (!article) throw notFound('Article not found', 'article_not_found');
    return article;
  }

  /**
   * Where the browser reads one of the article's image files (a platform's crop, or the kept original):
   * a signed URL of the store, so the bytes never pass through a function (whose answer is at most 6 MB).
   */
  async imageLink(userId: string, id: string, which: Platform | 'original'): Promise<string> {
    const { image } = await this.article(userId, id);
    if (!image) throw notFound(ImageUploadMessages.noImage, 'image_not_found');
    const key = which === 'original' ? image.original?.key : which === 'blog' ? image.blogKey : image.linkedinKey;
    if (!key) throw notFound(ImageUploadMessages.noImage, 'image_not_found');
    return imageFileLink(this.deps.signer, key, this.now());
  }

  /** A signed form for one upload of this type and at most this size into the article's upload prefix. */
  async startUpload(userId: string, id: string, input: { contentType: ImageUploadType; size: number }) {
    const article = await this.article(userId, id);
    const key = `${uploadPrefix(userId, article.id)}${randomBytes(16).toString('hex')}`;
    // Each start leads to a decode of up to 15 MB at completion: counted per hour.
    const started = await this.deps.limits?.start(userId, 'upload', this.now().getTime());
    let form: Awaited<ReturnType<UploadSigner['signUpload']>>;
    try {
      form = await this.deps.signer.signUpload({
        key,
        contentType: input.contentType,
        maxBytes: IMAGE_UPLOAD_MAX_BYTES,
        expiresInSeconds: UPLOAD_EXPIRES_SECONDS,
      });
    } catch (err) {
      await started?.cancel().catch(() => undefined);
      throw err;
    }
    const expiresAt = new Date(this.now().getTime() + UPLOAD_EXPIRES_SECONDS * 1000).toISOString();
    return { ...form, key, expiresAt, maxBytes: IMAGE_UPLOAD_MAX_BYTES };
  }

  /**
   * Takes an uploaded file as the article's image: checks it again (the signed conditions bound the size and
   * the type the browser named, which is only a claim), keeps it upright and without metadata, and
   * cuts both sizes around `focal`. A bad file answers 400 and leaves the article as it was.
   */
  async completeUpload(userId: string, id: string, key: string, focal: FocalPoint = CENTRE): Promise<ArticleRecord> {
    const article = await this.article(userId, id);
    const prefix = uploadPrefix(userId, article.id);
    const name = key.slice(prefix.length);
    if (!key.startsWith(prefix) || !/^[a-f0-9]{32}$/.test(name))
      throw badRequest(ImageUploadMessages.uploadKeyInvalid, 'upload_key_invalid');
    const upload = await this.deps.objects.get(key);
    if (!upload) throw badRequest(ImageUploadMessages.uploadMissing, 'upload_missing');
    // The raw file is never used again, whatever happens next.
    const dropUpload = () => this.deps.objects.delete(key).catch(() => undefined);
    let original: Awaited<ReturnType<ImageProcessor['normalise']>>;
    try {
      original = await this.checkedOriginal(upload.body);
    } catch (err) {
      await dropUpload();
      throw err;
    }
    const at = this.now();
    const stored = await this.render(userId, article.id, at, original, {
      source: 'uploaded',
      description: article.imageDescription.trim() || 'Uploaded image',
      focal,
    });
    const requestedAt = at.toISOString();
    const updated = await replaceImage(this.deps, {
      userId,
      articleId: article.id,
      next: stored,
      // Newest wins: a generation still running is superseded (its result is then discarded, generateImage).
      changes: { imageJob: { status: 'done', requestedAt, error: null }, updatedAt: requestedAt },
    });
    await dropUpload();
    if (!updated) throw notFound('Article not found', 'article_not_found');
    return updated;
  }

  /** Cuts both sizes again from the kept original around `focal`. */
  async setFocalPoint(userId: string, id: string, focal: FocalPoint): Promise<ArticleRecord> {
    const article = await this.article(userId, id);
    const image = article.image;
    if (!image) throw notFound(ImageUploadMessages.noImage, 'image_not_found');
    if (!image.original) throw badRequest(ImageUploadMessages.noOriginal, 'no_original');
    const source = await this.deps.objects.get(image.original.key);
    if (!source) throw notFound('The image file is missing; upload or generate it again', 'image_not_found');
    const at = this.now();
    const crops = await this.cut(userId, article.id, at, source.body, image.original, focal);
    const next: StoredImage = { ...image, ...crops, focalPoint: focal, generatedAt: at.toISOString() };
    const originalKey = image.original.key;
    const updated = await replaceImage(this.deps, {
      userId,
      articleId: article.id,
      next,
      changes: { updatedAt: at.toISOString() },
      // Only while the image is still cut from this original: a new image meanwhile wins.
      stillApplies: (current) => current.image?.original?.key === originalKey,
    });
    if (!updated)
      throw conflict('The image was replaced meanwhile. Choose the focal point again on the new one.', 'image_changed');
    return updated;
  }

  /** The kept original's bytes, for choosing the focal point. */
  async originalBytes(userId: string, id: string) {
    const article = await this.article(userId, id);
    const original = article.image?.original;
    if (!article.image || !original) throw notFound(ImageUploadMessages.noImage, 'image_not_found');
    const object = await this.deps.objects.get(original.key);
    if (!object) throw notFound('The image file is missing; upload or generate it again', 'image_not_found');
    return { ...object, generatedAt: article.image.generatedAt };
  }

  /** Size, real type and readability; then the upright, metadata-free original. */
  private async checkedOriginal(body: Buffer) {
    if (body.length === 0) throw badRequest(ImageUploadMessages.empty, 'upload_empty');
    if (body.length > IMAGE_UPLOAD_MAX_BYTES) throw badRequest(ImageUploadMessages.tooLarge, 'upload_too_large');
    const type = sniffImageType(body);
    if (!type) throw badRequest(ImageUploadMessages.wrongType, 'upload_wrong_type');
    const info = await this.deps.images.inspect(body);
    if (!info || `image/${info.format}` !== type) throw badRequest(ImageUploadMessages.unreadable, 'upload_unreadable');
    // Refused by the size its header gives, before a single pixel is decoded.
    const maxPixels = info.progressive ? MAX_PROGRESSIVE_PIXELS : MAX_UPLOAD_PIXELS;
    if (info.width * info.height > maxPixels)
      throw badRequest(
        imageTooManyPixels(info, maxPixels / 1_000_000, info.progressive === true),
        'upload_too_many_pixels',
      );
    try {
      return await this.deps.images.normalise(body, ORIGINAL_MAX_SIDE, maxPixels);
    } catch {
      // Damage the header check did not see (the picture itself is cut short, say): the person's file, not our fault.
      throw badRequest(ImageUploadMessages.unreadable, 'upload_unreadable');
    }
  }

  /** Stores the original and both sizes cut around `focal`: the image, not yet the article's. */
  async render(
    userId: string,
    articleId: string,
    at: Date,
    original: { body: Buffer; contentType: string; width: number; height: number },
    meta: { source: 'generated' | 'uploaded'; description: string; focal: FocalPoint },
  ): Promise<StoredImage> {
    const base = imageBase(userId, articleId, at);
    const originalKey = `${base}-original.${extensionOf(original.contentType)}`;
    const kept = {
      key: originalKey,
      contentType: original.contentType,
      width: original.width,
      height: original.height,
    };
    const [crops] = await Promise.all([
      this.cut(userId, articleId, at, original.body, kept, meta.focal, base),
      this.deps.objects.put(originalKey, original.body, original.contentType),
    ]);
    return {
      ...crops,
      description: meta.description,
      generatedAt: at.toISOString(),
      source: meta.source,
      original: kept,
      focalPoint: meta.focal,
    };
  }

  /** Both sizes of `source` around `focal`, stored under new keys (never over the files an article may show). */
  private async cut(
    userId: string,
    articleId: string,
    at: Date,
    source: Buffer,
    size: { width: number; height: number },
    focal: FocalPoint,
    base = imageBase(userId, articleId, at),
  ): Promise<Pick<StoredImage, 'blogKey' | 'linkedinKey' | 'contentType'>> {
    const cuts = await Promise.all(
      PLATFORMS.map((platform: Platform) =>
        this.deps.images.crop(source, cropRectangle(size, IMAGE_SIZES[platform], focal), IMAGE_SIZES[platform]),
      ),
    );
    const contentType = cuts[0]!.contentType;
    const keys = PLATFORMS.map((platform) => `${base}-${platform}.${extensionOf(contentType)}`);
    await Promise.all(cuts.map((cut, i) => this.deps.objects.put(keys[i]!, cut.body, cut.contentType)));
    return { blogKey: keys[0]!, linkedinKey: keys[1]!, contentType };
  }
}

/** A fresh name for one image version: its time and a random part (two changes in one millisecond never share files). */
const imageBase = (userId: string, articleId: string, at: Date) =>
  `users/${userId}/articles/${articleId}/${at.getTime()}-${randomBytes(4).toString('hex')}`;

const extensionOf = (contentType: string) =>
  contentType === 'image/png' ? 'png' : contentType === 'image/webp' ? 'webp' : 'jpg';

/** The Content-ID an e-mail's HTML shows the platform's image by (the approval and review e-mails). */
export const IMAGE_CID = 'article-image';
export const inlineImage = (image: StoredObject) => ({
  cid: IMAGE_CID,
  filename: `image.${image.contentType === 'image/png' ? 'png' : 'jpg'}`,
  contentType: image.contentType,
  content: image.body,
});
