import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_SIZES, cropRectangle, imageTooManyPixels } from '@app/shared';
import { SharpImageProcessor } from '../src/adapters/images/sharp-image-processor.js';
import type { ArticleRecord } from '../src/domain/articles.js';
import {
  ImageService,
  MAX_PROGRESSIVE_PIXELS,
  MAX_UPLOAD_PIXELS,
  imageKeys,
  replaceImage,
  sniffImageType,
  uploadPrefix,
} from '../src/domain/images.js';
import type { ArticleStore, ImageInfo, ImageProcessor, ObjectStore } from '../src/domain/ports.js';
import { articleRecord } from './helpers/article-record.js';

/** The EXIF tag that points at the GPS block (0x8825), as it is written little-endian. */
const GPS_POINTER = Buffer.from([0x25, 0x88]);

/** A 3000×1000 photo-like JPEG, left half red, right half blue, with a camera's EXIF and a GPS position. */
async function photoWithGps(orientation?: number) {
  const halves = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#ff0000' } })
    .composite([
      {
        input: { create: { width: 1500, height: 1000, channels: 3, background: '#0000ff' } },
        left: 1500,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
  let img = sharp(halves)
    .jpeg({ quality: 95 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Secret Phone' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 12/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 40/1',
      },
    });
  if (orientation) img = img.withMetadata({ orientation });
  return img.toBuffer();
}

/** The mean colour of a picture, rounded. */
async function meanColour(bytes: Buffer) {
  const { channels } = await sharp(bytes).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
}

describe('sniffImageType: the type by content, not by name or claim', () => {
  it('knows JPEG, PNG and WebP by their signatures', async () => {
    const base = sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } });
    expect(sniffImageType(await base.clone().jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffImageType(await base.clone().png().toBuffer())).toBe('image/png');
    expect(sniffImageType(await base.clone().webp().toBuffer())).toBe('image/webp');
  });

  it('refuses a text file, a GIF, a RIFF that is not WebP and an empty file', async () => {
    expect(sniffImageType(Buffer.from('just some text pretending to be a .png'))).toBeUndefined();
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .gif()
      .toBuffer();
    expect(gif.subarray(0, 4).toString('latin1')).toBe('GIF8');
    expect(sniffImageType(gif)).toBeUndefined();
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('SharpImageProcessor', () => {
  const processor = new SharpImageProcessor();

  it('inspect reads the format and the upright size from the header; a GIF is no image; a truncated JPEG fails at decoding', async () => {
    const photo = await photoWithGps(6);
    // Orientation 6: the stored 3000×1000 pixels are shown turned, 1000×3000.
    expect(await processor.inspect(photo)).toEqual({ format: 'jpeg', width: 1000, height: 3000, progressive: false });
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .gif()
      .toBuffer();
    expect(await processor.inspect(gif)).toBeUndefined();
    // The header of a file cut short is whole; its pixels are not, and the one decode refuses them.
    const cut = photo.subarray(0, Math.floor(photo.length / 2));
    expect(await processor.inspect(cut)).toMatchObject({ format: 'jpeg', width: 1000, height: 3000 });
    await expect(processor.normalise(cut, 2400)).rejects.toThrow();
  });

  it('inspect tells a progressive JPEG of 7000×7000 by its header without decoding it; normalise refuses it over the limit given', async () => {
    const big = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#6688aa' } })
      .jpeg({ progressive: true })
      .toBuffer();
    const started = performance.now();
    expect(await processor.inspect(big)).toEqual({ format: 'jpeg', width: 7000, height: 7000, progressive: true });
    // A decode of it takes most of a second and hundreds of MB; reading the header, a few milliseconds.
    expect(performance.now() - started).toBeLessThan(250);
    await expect(processor.normalise(big, 2400, MAX_PROGRESSIVE_PIXELS)).rejects.toThrow(/pixel limit/i);
  });

  it('strips EXIF with its GPS position from the kept original and from both sizes, and turns the picture upright', async () => {
    const photo = await photoWithGps(6);
    const input = await sharp(photo).metadata();
    // The test picture really carries what must go.
    expect(input.exif).toBeDefined();
    expect(input.exif!.includes(GPS_POINTER)).toBe(true);
    expect(input.exif!.includes(Buffer.from('Secret Phone'))).toBe(true);

    const original = await processor.normalise(photo, 2400);
    expect(original).toMatchObject({ contentType: 'image/jpeg', width: 800, height: 2400 });
    const crops = await Promise.all(
      (['blog', 'linkedin'] as const).map((platform) =>
        processor.crop(
          original.body,
          cropRectangle(original, IMAGE_SIZES[platform], { x: 0.5, y: 0.5 }),
          IMAGE_SIZES[platform],
        ),
      ),
    );
    for (const out of [original.body, ...crops.map((c) => c.body)]) {
      const meta = await sharp(out).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
      expect(out.includes(Buffer.from('Secret Phone'))).toBe(false);
      expect(out.includes(Buffer.from('Exif\0\0'))).toBe(false);
    }
    expect(await sharp(crops[0]!.body).metadata()).toMatchObject({ width: 1200, height: 800 });
    expect(await sharp(crops[1]!.body).metadata()).toMatchObject({ width: 1200, height: 627 });
  });

  it('cuts around the focal point: the left edge of the red|blue picture is red, the right edge blue', async () => {
    const original = await processor.normalise(await photoWithGps(), 2400);
    expect(original).toMatchObject({ width: 2400, height: 800 });
    const cut = (x: number) =>
      processor.crop(original.body, cropRectangle(original, IMAGE_SIZES.blog, { x, y: 0.5 }), IMAGE_SIZES.blog);
    const [red, green, blue] = await meanColour((await cut(0)).body);
    expect(red).toBeGreaterThan(240);
    expect(green).toBeLessThan(15);
    expect(blue).toBeLessThan(15);
    const right = await meanColour((await cut(1)).body);
    expect(right[0]).toBeLessThan(15);
    expect(right[2]).toBeGreaterThan(240);
    // The centre straddles both halves.
    const middle = await meanColour((await cut(0.5)).body);
    expect(middle[0]).toBeGreaterThan(100);
    expect(middle[2]).toBeGreaterThan(100);
  });

  it('keeps the original compressed: JPEG, or WebP with its transparency; crops of a transparent one are PNG', async () => {
    const png = await sharp({
      create: { width: 600, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const transparent = await processor.normalise(png, 2400);
    expect(transparent.contentType).toBe('image/webp');
    expect((await sharp(transparent.body).metadata()).hasAlpha).toBe(true);
    const cut = await processor.crop(transparent.body, { left: 0, top: 0, width: 600, height: 400 }, IMAGE_SIZES.blog);
    expect(cut.contentType).toBe('image/png');
    expect((await sharp(cut.body).metadata()).hasAlpha).toBe(true);
    const webp = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#00ff00' } })
      .webp()
      .toBuffer();
    const fromWebp = await processor.normalise(webp, 2400);
    expect(fromWebp.contentType).toBe('image/jpeg');
    expect((await sharp(fromWebp.body).metadata()).format).toBe('jpeg');
  });

  it('keeps a large PNG photo well under Lambda and e-mail sizes (a 2400 px PNG photo is over 10 MB)', async () => {
    // Noise compresses like a photo's detail does not: the worst case for a lossless PNG.
    const { width, height } = { width: 3000, height: 2000 };
    const noise = randomBytes(width * height * 3);
    const photoPng = await sharp(noise, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    expect(photoPng.length).toBeGreaterThan(10 * 1024 * 1024);
    const kept = await processor.normalise(photoPng, 2400);
    expect(kept.contentType).toBe('image/jpeg');
    expect(kept.body.length).toBeLessThan(6 * 1024 * 1024);
  });
});

describe('imageKeys', () => {
  it('names the sizes and the kept original of an image, nothing without one', () => {
    expect(imageKeys(null)).toEqual([]);
    expect(
      imageKeys({
        blogKey: 'b',
        linkedinKey: 'l',
        contentType: 'image/jpeg',
        description: '',
        generatedAt: '2026-01-01T00:00:00.000Z',
        original: { key: 'o', contentType: 'image/jpeg', width: 1, height: 1 },
      }),
    ).toEqual(['b', 'l', 'o']);
  });
});

describe('replaceImage: the order of writes when image changes race', () => {
  type Image = NonNullable<ArticleRecord['image']>;
  const image = (name: string, original?: string): Image => ({
    blogKey: `${name}-blog`,
    linkedinKey: `${name}-linkedin`,
    contentType: 'image/jpeg',
    description: '',
    generatedAt: '2026-01-01T00:00:00.000Z',
    ...(original ? { original: { key: original, contentType: 'image/jpeg', width: 10, height: 10 } } : {}),
  });

  /**
   * An article store holding one article's image and image job, honouring update's onlyIfImage and
   * onlyIfImageJob as DynamoDB's conditions do; `beforeUpdate` runs once, between a read and the write.
   */
  function harness(initial: { image: Image | null; requestedAt?: string }) {
    const state = { image: initial.image, imageJob: initial.requestedAt ? { requestedAt: initial.requestedAt } : null };
    const deleted: string[] = [];
    let beforeUpdate: (() => void) | undefined;
    const articles = {
      get: async () => ({ ...state }) as unknown as ArticleRecord,
      update: async (
        _u: string,
        _id: string,
        changes: Record<string, unknown>,
        options: { onlyIfImage?: string | null; onlyIfImageJob?: string } = {},
      ) => {
        const hook = beforeUpdate;
        beforeUpdate = undefined;
        hook?.();
        if (options.onlyIfImage !== undefined && (state.image?.blogKey ?? null) !== options.onlyIfImage)
          return undefined;
        if (options.onlyIfImageJob !== undefined && state.imageJob?.requestedAt !== options.onlyIfImageJob)
          return undefined;
        Object.assign(state, changes);
        return { ...state } as unknown as ArticleRecord;
      },
    } as unknown as ArticleStore;
    const objects = {
      put: async () => undefined,
      get: async () => undefined,
      delete: async (key: string) => void deleted.push(key),
    } as ObjectStore;
    return { state, deleted, deps: { articles, objects }, race: (fn: () => void) => (beforeUpdate = fn) };
  }

  it('deletes exactly the image it replaced, after the article points at the new one', async () => {
    const h = harness({ image: image('a', 'a-original') });
    const written = await replaceImage(h.deps, { userId: 'u', articleId: 'x', next: image('b', 'b-original') });
    expect(written?.image?.blogKey).toBe('b-blog');
    expect(h.deleted.sort()).toEqual(['a-blog', 'a-linkedin', 'a-original']);
  });

  it('a change that lands between its read and its write is replaced in turn, and its files (not the first read) go', async () => {
    const h = harness({ image: image('a') });
    // Another completion points the article at c (and deletes a itself) while this one is about to write.
    h.race(() => (h.state.image = image('c', 'c-original')));
    await replaceImage(h.deps, { userId: 'u', articleId: 'x', next: image('b') });
    expect(h.state.image?.blogKey).toBe('b-blog');
    expect(h.deleted.sort()).toEqual(['c-blog', 'c-linkedin', 'c-original']);
  });

  it('never deletes files the new image keeps (a new crop shares its original)', async () => {
    const h = harness({ image: image('a', 'shared-original') });
    await replaceImage(h.deps, { userId: 'u', articleId: 'x', next: image('b', 'shared-original') });
    expect(h.deleted.sort()).toEqual(['a-blog', 'a-linkedin']);
  });

  it('a stale change (a newer request meanwhile) writes nothing and deletes only its own files', async () => {
    const h = harness({ image: image('a'), requestedAt: 't1' });
    h.race(() => (h.state.imageJob = { requestedAt: 't2' }));
    const written = await replaceImage(h.deps, {
      userId: 'u',
      articleId: 'x',
      next: image('g', 'g-original'),
      stillApplies: (current) => current.imageJob?.requestedAt === 't1',
      onlyIfImageJob: 't1',
    });
    expect(written).toBeUndefined();
    expect(h.state.image?.blogKey).toBe('a-blog');
    expect(h.deleted.sort()).toEqual(['g-blog', 'g-linkedin', 'g-original']);
  });
});

describe('ImageService.completeUpload: the decoding cost is bounded before decoding', () => {
  /** An upload whose header says `info`; records whether anything was decoded. */
  async function complete(info: ImageInfo) {
    const article = articleRecord({ id: 'a1', userId: 'u1' });
    const key = `${uploadPrefix('u1', 'a1')}${'0'.repeat(32)}`;
    const decoded: string[] = [];
    const deleted: string[] = [];
    const images: ImageProcessor = {
      inspect: async () => info,
      normalise: async () => {
        decoded.push('normalise');
        throw new Error('not reached');
      },
      crop: async () => {
        decoded.push('crop');
        throw new Error('not reached');
      },
    };
    const service = new ImageService({
      articles: { get: async () => article } as unknown as ArticleStore,
      objects: {
        get: async () => ({ body: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), contentType: 'image/jpeg' }),
        put: async () => undefined,
        delete: async (k: string) => void deleted.push(k),
      } as unknown as ObjectStore,
      signer: { signUpload: async () => ({ url: '', fields: {} }), signDownload: async () => '' },
      images,
    });
    const result = await service.completeUpload('u1', 'a1', key).then(
      () => undefined,
      (err: Error & { code?: string }) => err,
    );
    return { result, decoded, deleted, key };
  }

  it('a progressive JPEG of 7000×7000 (49 MP, over 25) is refused with its size, nothing decoded, the upload deleted', async () => {
    const { result, decoded, deleted, key } = await complete({
      format: 'jpeg',
      width: 7000,
      height: 7000,
      progressive: true,
    });
    expect(result?.code).toBe('upload_too_many_pixels');
    expect(result?.message).toBe(imageTooManyPixels({ width: 7000, height: 7000 }, 25, true));
    expect(result?.message).toMatch(/7000 × 7000 pixels \(49 megapixels\)/);
    expect(decoded).toEqual([]);
    expect(deleted).toEqual([key]);
  });

  it('a baseline JPEG may have up to 50 MP (one row at a time), one pixel more is refused undecoded', async () => {
    expect(MAX_PROGRESSIVE_PIXELS).toBe(25_000_000);
    expect(MAX_UPLOAD_PIXELS).toBe(50_000_000);
    // 7000×7000 baseline is under 50 MP: it goes on to the decode.
    expect((await complete({ format: 'jpeg', width: 7000, height: 7000, progressive: false })).decoded).toEqual([
      'normalise',
    ]);
    const over = await complete({ format: 'jpeg', width: 10_000, height: 5_001 });
    expect(over.result?.message).toBe(imageTooManyPixels({ width: 10_000, height: 5_001 }, 50, false));
    expect(over.decoded).toEqual([]);
  });
});
