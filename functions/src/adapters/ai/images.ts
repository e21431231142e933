/** Crops and resizes one source image to the two sizes the app publishes (docs/integrations.md, OpenAI). */
import type { Sharp } from 'sharp';
import type { GeneratedImages } from '../../domain/ai.js';

/** sharp is native and slow-ish to load (~60 ms): loaded on first use, not at cold start. */
export const loadSharp = async () => (await import('sharp')).default;

export const BLOG_IMAGE = { width: 1200, height: 800 } as const;
export const LINKEDIN_IMAGE = { width: 1200, height: 627 } as const;

/**
 * Cover-crops `source` to 1200×800 (blog, 3:2) and 1200×627 (LinkedIn). Photos go out as JPEG
 * (quality 85, alpha flattened on white); `png` keeps flat artwork such as the offline card crisp.
 * The crop keeps the most interesting region (sharp's attention strategy).
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
  const [blog, linkedin] = await Promise.all([one(BLOG_IMAGE), one(LINKEDIN_IMAGE)]);
  return { blog, linkedin, contentType: format === 'png' ? 'image/png' : 'image/jpeg' };
}
