import { describe, expect, it } from 'vitest';
import {
  IMAGE_SIZES,
  IMAGE_UPLOAD_MAX_BYTES,
  ImageUploadMessages,
  ImageUploadStartSchema,
  cropRectangle,
  imageFileProblem,
} from '../src/images.js';

describe('cropRectangle (the window both sizes are cut from)', () => {
  const blog = IMAGE_SIZES.blog;
  const linkedin = IMAGE_SIZES.linkedin;

  it('a wider picture keeps its full height and a window of the target aspect, centred by default', () => {
    expect(cropRectangle({ width: 4000, height: 1000 }, blog)).toEqual({
      left: 1250,
      top: 0,
      width: 1500,
      height: 1000,
    });
  });

  it('a taller picture keeps its full width', () => {
    expect(cropRectangle({ width: 1200, height: 3000 }, blog)).toEqual({
      left: 0,
      top: 1100,
      width: 1200,
      height: 800,
    });
  });

  it('centres the window on the focal point when the picture allows', () => {
    // 3000×2000 for LinkedIn's 1200:627: full width, height round(3000 × 627 / 1200) = 1568.
    expect(cropRectangle({ width: 3000, height: 2000 }, linkedin, { x: 0.5, y: 0.6 })).toEqual({
      left: 0,
      top: Math.round(0.6 * 2000 - 1568 / 2),
      width: 3000,
      height: 1568,
    });
    expect(cropRectangle({ width: 4000, height: 1000 }, blog, { x: 0.3, y: 0.5 }).left).toBe(1200 - 750);
  });

  it('a focal point near an edge puts the window against that edge, never outside the picture', () => {
    expect(cropRectangle({ width: 4000, height: 1000 }, blog, { x: 0, y: 0 })).toEqual({
      left: 0,
      top: 0,
      width: 1500,
      height: 1000,
    });
    expect(cropRectangle({ width: 4000, height: 1000 }, blog, { x: 1, y: 1 })).toEqual({
      left: 2500,
      top: 0,
      width: 1500,
      height: 1000,
    });
    expect(cropRectangle({ width: 1200, height: 3000 }, blog, { x: 0.9, y: 0.98 })).toEqual({
      left: 0,
      top: 2200,
      width: 1200,
      height: 800,
    });
  });

  it('a picture of exactly the target aspect is taken whole wherever the point is', () => {
    for (const focal of [
      { x: 0, y: 0 },
      { x: 0.5, y: 0.5 },
      { x: 1, y: 1 },
    ])
      expect(cropRectangle({ width: 2400, height: 1600 }, blog, focal)).toEqual({
        left: 0,
        top: 0,
        width: 2400,
        height: 1600,
      });
  });

  it('tiny and extreme pictures still give a window of at least one pixel inside the picture', () => {
    const thin = cropRectangle({ width: 1, height: 500 }, linkedin, { x: 0.5, y: 0.5 });
    expect(thin).toEqual({ left: 0, top: 250, width: 1, height: 1 });
    const flat = cropRectangle({ width: 5000, height: 1 }, blog, { x: 1, y: 0 });
    expect(flat).toEqual({ left: 4998, top: 0, width: 2, height: 1 });
  });

  it('every window lies inside the picture and has the target aspect within a pixel of rounding', () => {
    for (const size of [
      { width: 640, height: 480 },
      { width: 480, height: 640 },
      { width: 6000, height: 4000 },
      { width: 1201, height: 627 },
    ])
      for (const target of [blog, linkedin])
        for (const x of [0, 0.13, 0.5, 0.87, 1])
          for (const y of [0, 0.4, 1]) {
            const r = cropRectangle(size, target, { x, y });
            expect(r.left).toBeGreaterThanOrEqual(0);
            expect(r.top).toBeGreaterThanOrEqual(0);
            expect(r.left + r.width).toBeLessThanOrEqual(size.width);
            expect(r.top + r.height).toBeLessThanOrEqual(size.height);
            expect(Math.abs(r.width / r.height - target.width / target.height)).toBeLessThan(2 / r.height);
            expect(r.width === size.width || r.height === size.height).toBe(true);
          }
  });
});

describe('the upload limits (the browser checks them before sending; the server again)', () => {
  it('refuses other types, empty and too large files with the texts the server uses', () => {
    expect(imageFileProblem({ type: 'image/gif', size: 10 })).toBe(ImageUploadMessages.wrongType);
    expect(imageFileProblem({ type: 'text/plain', size: 10 })).toBe(ImageUploadMessages.wrongType);
    expect(imageFileProblem({ type: 'image/png', size: 0 })).toBe(ImageUploadMessages.empty);
    expect(imageFileProblem({ type: 'image/webp', size: IMAGE_UPLOAD_MAX_BYTES + 1 })).toBe(
      ImageUploadMessages.tooLarge,
    );
    expect(imageFileProblem({ type: 'image/jpeg', size: IMAGE_UPLOAD_MAX_BYTES })).toBeNull();
  });

  it('the start schema answers the same texts', () => {
    const problem = (input: unknown) => ImageUploadStartSchema().safeParse(input).error?.issues[0]?.message;
    expect(problem({ contentType: 'image/gif', size: 10 })).toBe(ImageUploadMessages.wrongType);
    expect(problem({ contentType: 'image/png', size: IMAGE_UPLOAD_MAX_BYTES + 1 })).toBe(ImageUploadMessages.tooLarge);
    expect(problem({ contentType: 'image/png', size: 1 })).toBeUndefined();
  });
});
