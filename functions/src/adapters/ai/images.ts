/** Crops and resizes one source image to the two sizes the app publishes (docs/integrations.md, OpenAI). */
import type { Sharp } from 'sharp';
import type { GeneratedImages } from '../../domain/ai.js';
import { ORIGINAL_MAX_SIDE } from '../../domain/images.js';

/** sharp is native and slow-ish to load (~60 ms): loaded on first use, not at cold start. */
export const loadSharp = async () => (await import('sharp')).default;

export const BLOG_IMAGE = { width: 1200, height: 800 } as const;
export const LINKEDIN_IMAGE = { width: 1200, height: 627 } as const;

/**
 * Cover-crops `source` to 1200×800 (blog, 3:2) and 1200×627 (LinkedIn). Photos go out as JPEG
 * (quality 85, alpha flattened on white); `png` keeps flat artwork such as the offline card crisp.
 * The crop keeps the most interesting region (sharp's attention strategy). The source is kept too (upright,
 * no metadata, at most ORIGINAL_MAX_SIDE a side), so the user can cut both sizes again around a focal point.
 */
export async function toPlatformSizes(source: Buffer, format: 'jpeg' | 'png' = 'jpeg'): Promise<GeneratedImages> {
  const sharp = await loadSharp();
  const one = (size: { width: number; height: number }) => {
    const img: Sharp = sharp(source, { failOn: 'error' })
      .rotate()
      .resize({ ...size, fit: 'cover', position: sharp.strategy.attention });
    return format === 'png'
      ? img.png({ compressionLevel: 9 }).toBuffer()
      : img.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
  };
  const original = async () => {
    const img = sharp(source, { failOn: 'error' })
      .rotate()
      .resize({ width: ORIGINAL_MAX_SIDE, height: ORIGINAL_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    const { data, info } = await (
      format === 'png'
        ? img.png({ compressionLevel: 9 })
        : img.flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: true })
    ).toBuffer({ resolveWithObject: true });
    return { body: data, width: info.width, height: info.height, contentType };
  };
  const contentType = format === 'png' ? ('image/png' as const) : ('image/jpeg' as const);
  const [blog, linkedin, kept] = await Promise.all([one(BLOG_IMAGE), one(LINKEDIN_IMAGE), original()]);
  return { blog, linkedin, contentType, original: kept };
}
