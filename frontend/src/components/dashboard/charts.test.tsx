import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneElement, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import type { TrendPoint } from '@app/shared';
import { TrendsChart } from './charts';

// jsdom has no layout: give the charts a fixed size instead of ResponsiveContainer's measurement.
vi.mock('recharts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('recharts')>();
  return {
    ...actual,
    ResponsiveContainer: ({ children }: { children: ReactElement<{ width?: number; height?: number }> }) => (
      <div className="recharts-responsive-container" style={{ width: 600, height: 240 }}>
        {cloneElement(children, { width: 600, height: 240 })}
      </div>
    ),
  };
});

// Equal counts on purpose: the two lines lie on each other, as on a dashboard that publishes to both.
const weeks: TrendPoint[] = [
  { week: '2026-W45', blog: 2, linkedin: 2 },
  { week: '2026-W46', blog: 1, linkedin: 1 },
  { week: '2026-W47', blog: 3, linkedin: 3 },
  { week: '2026-W48', blog: 0, linkedin: 0 },
];

/** The colour tokens of base.css in one theme: the `:root` blocks, or the dark theme's over them. */
function themeTokens(theme: 'light' | 'dark'): Record<string, string> {
  const css = readFileSync(join(__dirname, '../../styles/base.css'), 'utf8');
  const tokens: Record<string, string> = {};
  const blocks = [...css.matchAll(/^(:root(?:\[data-theme='dark'\])?)\s*\{([^}]*)\}/gm)];
  for (const [, selector, body] of blocks) {
    if (selector !== ':root' && theme === 'light') continue;
    if (selector === ':root' || theme === 'dark')
      for (const [, name, value] of body!.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)) tokens[name!] = value!;
  }
  return tokens;
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];

function hue(hex: string): number {
  const [r, g, b] = rgb(hex);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** WCAG contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = rgb(hex).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as number[];
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('Publishing Trends: Blog and LinkedIn told apart by more than hue', () => {
  it('draws Blog solid with round markers and LinkedIn dashed with square markers, and the legend shows both', () => {
    const { container } = render(<TrendsChart data={weeks} label="Publishing trends" />);
    const curves = [...container.querySelectorAll('.recharts-area-curve')];
    expect(curves).toHaveLength(2);
    const [blog, linkedin] = curves;
    expect(blog).toHaveAttribute('stroke', 'var(--chart-blog)');
    expect(blog).not.toHaveAttribute('stroke-dasharray');
    expect(linkedin).toHaveAttribute('stroke', 'var(--chart-linkedin)');
    expect(linkedin).toHaveAttribute('stroke-dasharray', '6 4');

    // One marker per week and series: circles for Blog, squares for LinkedIn, each in its series' colour.
    const circles = [...container.querySelectorAll('.recharts-area-dots circle.trend-marker')];
    const squares = [...container.querySelectorAll('.recharts-area-dots rect.trend-marker')];
    expect(circles).toHaveLength(weeks.length);
    expect(squares).toHaveLength(weeks.length);
    for (const c of circles) expect(c).toHaveAttribute('fill', 'var(--chart-blog)');
    for (const s of squares) expect(s).toHaveAttribute('fill', 'var(--chart-linkedin)');

    // The legend: each name with its line (solid or dashed) and its marker.
    const items = [...container.querySelectorAll('.trends-legend__item')];
    expect(items.map((li) => li.textContent)).toEqual(['Blog', 'LinkedIn']);
    const [blogKey, linkedinKey] = items;
    expect(blogKey!.querySelector('line')).not.toHaveAttribute('stroke-dasharray');
    expect(blogKey!.querySelector('circle')).toHaveAttribute('fill', 'var(--chart-blog)');
    expect(linkedinKey!.querySelector('line')).toHaveAttribute('stroke-dasharray', '6 4');
    expect(linkedinKey!.querySelector('rect')).toHaveAttribute('fill', 'var(--chart-linkedin)');
  });

  it.each(['light', 'dark'] as const)(
    'gives Blog and LinkedIn hues far apart, each visible on the cards, in the %s theme',
    (theme) => {
      const tokens = themeTokens(theme);
      const [blog, linkedin, surface] = [tokens['--chart-blog']!, tokens['--chart-linkedin']!, tokens['--surface']!];
      const apart = Math.abs(hue(blog) - hue(linkedin));
      expect(Math.min(apart, 360 - apart)).toBeGreaterThanOrEqual(90);
      // WCAG 1.4.11: graphical objects at least 3:1 against what they are drawn on.
      expect(contrast(blog, surface)).toBeGreaterThanOrEqual(3);
      expect(contrast(linkedin, surface)).toBeGreaterThanOrEqual(3);
    },
  );
});
