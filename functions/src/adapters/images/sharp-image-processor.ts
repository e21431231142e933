/** The upload checks and crops with sharp (loaded on first use: adapters/ai/images.ts loadSharp). */
import type { Sharp } from 'sharp';
import type { ImageInfo, ImageProcessor } from '../../domain/ports.js';
import { loadSharp } from '../ai/images.js';

/**
 * Pixels a picture may have: 50 megapixels (a 48 MP phone photo passes). A 15 MB file can hold a picture
 * of far more, which would need gigabytes to decode; sharp refuses it instead (its default is 268 MP).
 */
export const MAX_INPUT_PIXELS = 50_000_000;

const FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * Output: a picture with transparency stays transparent (PNG crops), everything else is JPEG (quality
 * 85). sharp writes no metadata unless asked (no withMetadata/keepExif here): EXIF with its GPS
 * position, XMP and IPTC are all dropped; `.rotate()` first applies the EXIF orientation to the pixels.
 */
const encode = (img: Sharp, alpha: boolean, quality = 85) =>
  alpha ? img.png({ compressionLevel: 9 }) : img.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });

export class SharpImageProcessor implements ImageProcessor {
  async inspect(bytes: Buffer): Promise<ImageInfo | undefined> {
    const sharp = await loadSharp();
    try {
      const meta = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if (!meta.format || !FORMATS.has(meta.format) || !meta.width || !meta.height) return undefined;
      // Decoding the pixels (not only the header) finds a truncated or corrupt file now, not at the crop.
      await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }).resize(8, 8).raw().toBuffer();
      const turned = (meta.orientation ?? 1) >= 5;
      return {
        format: meta.format as ImageInfo['format'],
        width: turned ? meta.height : meta.width,
        height: turned ? meta.width : meta.height,
      };
    } catch {
      return undefined;
    }
  }

  async normalise(bytes: Buffer, maxSide: number) {
    const sharp = await loadSharp();
    const input = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS });
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
