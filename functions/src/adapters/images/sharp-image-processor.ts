/** The upload checks and crops with sharp (loaded on first use: adapters/ai/images.ts loadSharp). */
import type { Sharp } from 'sharp';
import type { ImageInfo, ImageProcessor } from '../../domain/ports.js';
import { MAX_UPLOAD_PIXELS } from '../../domain/images.js';
import { loadSharp } from '../ai/images.js';

/**
 * What sharp decodes at most, whatever the caller asks: the upload rule's ceiling (domain/images.ts
 * MAX_UPLOAD_PIXELS) again, so a picture that got past the header check still cannot cost gigabytes
 * (sharp's own default is 268 MP).
 */
export const MAX_INPUT_PIXELS = MAX_UPLOAD_PIXELS;

const FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * Output: a picture with transparency stays transparent (PNG crops), everything else is JPEG (quality
 * 85). sharp writes no metadata unless asked (no withMetadata/keepExif here): EXIF with its GPS
 * position, XMP and IPTC are all dropped; `.rotate()` first applies the EXIF orientation to the pixels.
 */
const encode = (img: Sharp, alpha: boolean, quality = 85) =>
  alpha ? img.png({ compressionLevel: 9 }) : img.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });

export class SharpImageProcessor implements ImageProcessor {
  /** metadata() reads the header only: no pixel is decoded, whatever size the header claims. */
  async inspect(bytes: Buffer): Promise<ImageInfo | undefined> {
    const sharp = await loadSharp();
    try {
      // No pixel limit here: the caller refuses by the size read (domain/images.ts), with a message saying so.
      const meta = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
      if (!meta.format || !FORMATS.has(meta.format) || !meta.width || !meta.height) return undefined;
      const turned = (meta.orientation ?? 1) >= 5;
      return {
        format: meta.format as ImageInfo['format'],
        width: turned ? meta.height : meta.width,
        height: turned ? meta.width : meta.height,
        progressive: meta.isProgressive === true,
      };
    } catch {
      return undefined;
    }
  }

  /**
   * Decodes once, row by row where the format allows (sequentialRead), refusing more than `maxPixels`
   * (and MAX_INPUT_PIXELS) before decoding, and any damage (failOn 'error': a truncated file throws).
   */
  async normalise(bytes: Buffer, maxSide: number, maxPixels = MAX_INPUT_PIXELS) {
    const sharp = await loadSharp();
    const input = sharp(bytes, {
      failOn: 'error',
      limitInputPixels: Math.min(maxPixels, MAX_INPUT_PIXELS),
      sequentialRead: true,
    });
    const alpha = (await input.metadata()).hasAlpha === true;
    const resized = input.rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    // The kept original is compressed (a 2400 px PNG photo is over 10 MB): JPEG, or WebP where there is
    // transparency to keep (PNG of that size would not be much smaller than the photo's PNG).
    const { data, info } = await (
      alpha ? resized.webp({ quality: 90, alphaQuality: 100 }) : encode(resized, false, 90)
    ).toBuffer({ resolveWithObject: true });
    return { body: data, contentType: alpha ? 'image/webp' : 'image/jpeg', width: info.width, height: info.height };
  }

  async crop(
    source: Buffer,
    rect: { left: number; top: number; width: number; height: number },
    size: { width: number; height: number },
  ) {
    const sharp = await loadSharp();
    const input = sharp(source, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS });
    const alpha = (await input.metadata()).hasAlpha === true;
    const body = await encode(
      input
        .rotate()
        .extract(rect)
        // The window has the target's aspect within a pixel of rounding: cover absorbs that pixel.
        .resize({ ...size, fit: 'cover' }),
      alpha,
    ).toBuffer();
    return { body, contentType: alpha ? 'image/png' : 'image/jpeg' };
  }
}
