/**
 * The offline image, used when no OpenAI key is configured: a branded card (gradient, title,
 * description, "Content Publisher" footer) drawn as SVG and rendered by sharp at 1200×800 and 1200×627.
 */
import type { ArticleBrief, GeneratedImages, ImageGenerator } from '../../../domain/ai.js';
import { BLOG_IMAGE, LINKEDIN_IMAGE, loadSharp } from '../images.js';
import { clip } from '../text.js';

const PALETTES: ReadonlyArray<readonly [string, string, string]> = [
  ['#1e3a8a', '#0e7490', '#38bdf8'], // navy → teal
  ['#4c1d95', '#be185d', '#f472b6'], // violet → magenta
  ['#064e3b', '#0f766e', '#34d399'], // forest → emerald
  ['#7c2d12', '#b45309', '#fbbf24'], // rust → amber
  ['#111827', '#334155', '#60a5fa'], // graphite → slate
];

const FONT = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif';

/** Escapes XML and drops characters XML 1.0 does not allow. */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Greedy word wrap by an estimated character width; the last allowed line ends in "…" on overflow. */
export function wrap(text: string, maxChars: number, maxLines: number): { lines: string[]; truncated: boolean } {
  const width = Math.max(1, maxChars);
  const words = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .flatMap((w) => (w.length <= width ? [w] : (w.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [w])));
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return { lines, truncated: false };
  const out = lines.slice(0, Math.max(0, maxLines));
  if (out.length) {
    const last = clip(out[out.length - 1]!, Math.max(1, width - 1)).replace(/[\s,;:.\u2026\u2013\u2014-]+$/u, '');
    out[out.length - 1] = `${last}…`;
  }
  return { lines: out, truncated: true };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function cardSvg(
  input: { title: string; subtitle: string; label: string },
  width: number,
  height: number,
): string {
  const [c1, c2, accent] = PALETTES[hash(`${input.title}|${input.label}`) % PALETTES.length]!;
  const pad = 80;
  const textWidth = width - 2 * pad;
  const footerY = height - 56;

  // Largest title size whose text fits in three lines.
  const sizes = height >= 800 ? [72, 62, 54] : [64, 56, 48];
  let titleSize = sizes[sizes.length - 1]!;
  let title = wrap(input.title, Math.floor(textWidth / (titleSize * 0.62)), 3);
  for (const size of sizes) {
    const attempt = wrap(input.title, Math.floor(textWidth / (size * 0.62)), 3);
    if (!attempt.truncated) {
      titleSize = size;
      title = attempt;
      break;
    }
  }
  const titleLead = Math.round(titleSize * 1.18);
  const labelY = pad + 10;
  const subSize = height >= 800 ? 30 : 26;
  const subLead = Math.round(subSize * 1.4);
  const gap = Math.round(subSize * 1.6); // from the last title baseline to the first subtitle line's top
  const top = labelY + 60; // below the label and its accent bar
  const bottom = footerY - 60; // above the footer
  const titleHeight = titleSize + (title.lines.length - 1) * titleLead;
  const subRoom = Math.floor((bottom - top - titleHeight - gap - subSize) / subLead) + 1;
  const subtitle = input.subtitle.trim()
    ? wrap(input.subtitle, Math.floor(textWidth / (subSize * 0.55)), Math.max(0, Math.min(3, subRoom)))
    : { lines: [], truncated: false };
  const blockHeight = titleHeight + (subtitle.lines.length ? gap + subSize + (subtitle.lines.length - 1) * subLead : 0);
  // The title block sits a little above the middle of the free space.
  const start = top + Math.max(0, Math.round((bottom - top - blockHeight) * 0.4));
  const titleY = start + titleSize;
  const subY = titleY + (title.lines.length - 1) * titleLead + gap + subSize;

  const tspans = (lines: string[], x: number, lead: number) =>
    lines.map((l, i) => `<tspan x="${x}" dy="${i === 0 ? 0 : lead}">${escapeXml(l)}</tspan>`).join('');

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${c1}"/>
      <stop offset="1" stop-color="${c2}"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="${width - 140}" cy="${120}" r="${Math.round(height * 0.42)}" fill="#ffffff" fill-opacity="0.06"/>
  <circle cx="${width - 40}" cy="${height - 60}" r="${Math.round(height * 0.28)}" fill="#ffffff" fill-opacity="0.05"/>
  ${
    input.label.trim()
      ? `<text x="${pad}" y="${labelY}" font-family="${FONT}" font-size="22" font-weight="bold" letter-spacing="3" fill="#ffffff" fill-opacity="0.85">${escapeXml(
          clip(input.label.toUpperCase(), 48),
        )}</text>`
      : ''
  }
  <rect x="${pad}" y="${labelY + 20}" width="96" height="6" rx="3" fill="${accent}"/>
  <text x="${pad}" y="${titleY}" font-family="${FONT}" font-size="${titleSize}" font-weight="bold" fill="#ffffff">${tspans(
    title.lines,
    pad,
    titleLead,
  )}</text>
  ${
    subtitle.lines.length
      ? `<text x="${pad}" y="${subY}" font-family="${FONT}" font-size="${subSize}" fill="#ffffff" fill-opacity="0.88">${tspans(
          subtitle.lines,
          pad,
          subLead,
        )}</text>`
      : ''
  }
  <rect x="${pad}" y="${footerY - 22}" width="26" height="26" rx="6" fill="${accent}"/>
  <text x="${pad + 40}" y="${footerY}" font-family="${FONT}" font-size="22" font-weight="bold" fill="#ffffff" fill-opacity="0.9">Content Publisher</text>
</svg>`;
}

async function renderCard(svg: string, size: { width: number; height: number }): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg), { density: 72 })
    .resize({ ...size, fit: 'fill' })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export class OfflineImageGenerator implements ImageGenerator {
  readonly kind = 'offline' as const;

  async generate(input: { brief: ArticleBrief; description: string }): Promise<GeneratedImages> {
    const { brief } = input;
    const card = {
      title: brief.title.trim() || brief.topic.trim() || 'Untitled article',
      subtitle: input.description.trim() || brief.imageDescription.trim() || brief.topic.trim(),
      label: brief.keyword.trim() || brief.tags.find((t) => t.trim()) || brief.topic.trim(),
    };
    const [blog, linkedin] = await Promise.all([
      renderCard(cardSvg(card, BLOG_IMAGE.width, BLOG_IMAGE.height), BLOG_IMAGE),
      renderCard(cardSvg(card, LINKEDIN_IMAGE.width, LINKEDIN_IMAGE.height), LINKEDIN_IMAGE),
    ]);
    return { blog, linkedin, contentType: 'image/png' };
  }
}
