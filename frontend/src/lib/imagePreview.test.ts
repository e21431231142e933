import { describe, expect, it } from 'vitest';
import { imagePreviewCandidates } from './imagePreview';

describe('imagePreviewCandidates', () => {
  const t = '2025-03-01T11:00:00.000Z';

  it('tries the url, its /api form for /uploads/ paths, then the preview route, each with t', () => {
    expect(imagePreviewCandidates('a1', { url: '/uploads/a1.png', generatedAt: t })).toEqual([
      `/uploads/a1.png?t=${encodeURIComponent(t)}`,
      `/api/uploads/a1.png?t=${encodeURIComponent(t)}`,
      `/api/image/preview/a1?platform=blog&t=${encodeURIComponent(t)}`,
    ]);
  });

  it('keeps a url that already carries t and drops duplicates', () => {
    const url = `/api/image/preview/a1?platform=blog&t=${encodeURIComponent(t)}`;
    expect(imagePreviewCandidates('a1', { url, generatedAt: t })).toEqual([url]);
  });

  it('has no candidates without an image', () => {
    expect(imagePreviewCandidates('a1', null)).toEqual([]);
  });
});
