import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import type { TrendPoint } from '@app/shared';
import { CHANNEL_REGISTRY, channelColour } from '../../channels/registry';
import { DistributionChart, SERIES_STYLES, TrendsChart } from './charts';

// jsdom has no layout: give the charts a fixed size instead of ResponsiveContainer's measurement.
vi.mock('recharts', async (importOriginal) => (await import('../../test/recharts')).fixedSizeRecharts(importOriginal));

// The registry's first three channels, by their place in the answer (named here First, Second, Third).
const [first, second, third] = CHANNEL_REGISTRY.map((channel) => channel.id);
// Equal counts on purpose: the lines lie on each other, as on a dashboard that publishes everywhere.
const counts = (n: number) => ({ [first!]: n, [second!]: n, [third!]: n });
const weeks: TrendPoint[] = [
  { week: '2026-W45', counts: counts(2) },
  { week: '2026-W46', counts: counts(1) },
  { week: '2026-W47', counts: counts(3) },
  { week: '2026-W48', counts: counts(0) },
];
const series = [
  { channel: first!, name: 'First' },
  { channel: second!, name: 'Second' },
  { channel: third!, name: 'Third' },
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

describe('Publishing Trends: each channel told apart by more than hue', () => {
  it('draws a series per channel, each with its own line, marker and colour, and the legend shows each', () => {
    const { container } = render(<TrendsChart data={weeks} series={series} label="Publishing trends" />);
    const curves = [...container.querySelectorAll('.recharts-area-curve')];
    expect(curves).toHaveLength(3);
    const [first, second, third] = curves;
    expect(first).toHaveAttribute('stroke', 'var(--chart-channel-1)');
    expect(first).not.toHaveAttribute('stroke-dasharray');
    expect(second).toHaveAttribute('stroke', 'var(--chart-channel-2)');
    expect(second).toHaveAttribute('stroke-dasharray', '6 4');
    expect(third).toHaveAttribute('stroke', 'var(--chart-channel-3)');
    expect(third).toHaveAttribute('stroke-dasharray', '2 3');

    // One marker per week and series: circles, squares, triangles, each in its series' colour.
    const markers = (shape: string) => [...container.querySelectorAll(`.recharts-area-dots .trend-marker--${shape}`)];
    for (const [shape, colour] of [
      ['circle', 'var(--chart-channel-1)'],
      ['square', 'var(--chart-channel-2)'],
      ['triangle', 'var(--chart-channel-3)'],
    ] as const) {
      expect(markers(shape)).toHaveLength(weeks.length);
      for (const m of markers(shape)) expect(m).toHaveAttribute('fill', colour);
    }

    // The legend: each name with its line (solid or dashed) and its marker.
    const items = [...container.querySelectorAll('.trends-legend__item')];
    expect(items.map((li) => li.textContent)).toEqual(['First', 'Second', 'Third']);
    expect(items[0]!.querySelector('line')).not.toHaveAttribute('stroke-dasharray');
    expect(items[0]!.querySelector('circle')).toHaveAttribute('fill', 'var(--chart-channel-1)');
    expect(items[1]!.querySelector('line')).toHaveAttribute('stroke-dasharray', '6 4');
    expect(items[1]!.querySelector('rect')).toHaveAttribute('fill', 'var(--chart-channel-2)');
    expect(items[2]!.querySelector('line')).toHaveAttribute('stroke-dasharray', '2 3');
    expect(items[2]!.querySelector('polygon')).toHaveAttribute('fill', 'var(--chart-channel-3)');
  });

  it('draws a channel in its own colour wherever it is in the answer: its place in the registry, as on a Schedule card', () => {
    // The registry's first channel and its last, which is second in this answer.
    const last = CHANNEL_REGISTRY[CHANNEL_REGISTRY.length - 1]!.id;
    const shown = [
      { channel: first!, name: 'First' },
      { channel: last, name: 'Last' },
    ];
    const { container } = render(
      <TrendsChart
        data={weeks.map((w) => ({ week: w.week, counts: { [first!]: 1, [last]: 2 } }))}
        series={shown}
        label="Publishing trends"
      />,
    );
    const curves = [...container.querySelectorAll('.recharts-area-curve')];
    expect(curves.map((c) => c.getAttribute('stroke'))).toEqual([
      'var(--chart-channel-1)',
      `var(--chart-channel-${CHANNEL_REGISTRY.length})`,
    ]);
    // Its line and marker still follow its place: the second series is dashed, with squares.
    expect(curves[1]).toHaveAttribute('stroke-dasharray', '6 4');
    const items = [...container.querySelectorAll('.trends-legend__item')];
    expect(items[1]!.querySelector('rect')).toHaveAttribute('fill', channelColour(last));
    expect(channelColour(last)).toBe(`var(--chart-channel-${CHANNEL_REGISTRY.length})`);
    expect(channelColour('not-a-channel')).toBe(`var(--chart-channel-${CHANNEL_REGISTRY.length + 1})`);

    const bars = render(
      <DistributionChart
        data={[
          { channel: first!, name: 'First', count: 1 },
          { channel: last, name: 'Last', count: 2 },
        ]}
        label="Platform distribution"
      />,
    );
    const fills = [...bars.container.querySelectorAll('.recharts-bar-rectangle path')].map((p) =>
      p.getAttribute('fill'),
    );
    expect(fills).toEqual(['var(--chart-channel-1)', `var(--chart-channel-${CHANNEL_REGISTRY.length})`]);
  });

  it('gives every series style its own line and marker', () => {
    expect(new Set(SERIES_STYLES.map((s) => s.dash)).size).toBe(SERIES_STYLES.length);
    expect(new Set(SERIES_STYLES.map((s) => s.marker)).size).toBe(SERIES_STYLES.length);
  });

  it.each(['light', 'dark'] as const)(
    'gives the series hues apart from the one before, each visible on the cards, in the %s theme',
    (theme) => {
      const tokens = themeTokens(theme);
      const colours = SERIES_STYLES.map((_, i) => tokens[`--chart-channel-${i + 1}`]!);
      const surface = tokens['--surface']!;
      const apart = (a: string, b: string) => {
        const d = Math.abs(hue(a) - hue(b));
        return Math.min(d, 360 - d);
      };
      // Blog and LinkedIn, the pair most shown together: far apart.
      expect(apart(colours[0]!, colours[1]!)).toBeGreaterThanOrEqual(90);
      for (const [i, colour] of colours.entries()) {
        expect(colour).toMatch(/^#/);
        if (i > 0) expect(apart(colour, colours[i - 1]!)).toBeGreaterThanOrEqual(45);
        // WCAG 1.4.11: graphical objects at least 3:1 against what they are drawn on.
        expect(contrast(colour, surface)).toBeGreaterThanOrEqual(3);
      }
    },
  );
});

// docs/testing.md, Performance budgets (Lighthouse on the dashboard): recharts' own label, given the axis' width,
// measured every label in the page to wrap it, a forced layout each on each of the chart's passes.
describe('Publishing Trends: the axis labels', () => {
  it('are drawn at their ticks without measuring their text in the page', () => {
    document.getElementById('recharts_measurement_span')?.remove();
    // Labels and counts no other test draws, so that no measurement of theirs is kept from before.
    const unmeasured: TrendPoint[] = ['2031-W10', '2031-W11', '2031-W12', '2031-W13'].map((week, i) => ({
      week,
      counts: counts(37 + i * 9),
    }));
    const { container } = render(<TrendsChart data={unmeasured} series={series} label="Trends" />);
    const labels = [...container.querySelectorAll('.recharts-cartesian-axis-tick-value')];
    expect(labels.map((label) => label.textContent)).toEqual(expect.arrayContaining(['2031-W10', '2031-W13', '0']));
    // The X axis' labels hang under their ticks, the Y axis' are centred on theirs (as recharts' own label places them).
    const week = labels.find((label) => label.textContent === '2031-W10')!;
    expect(week.querySelector('tspan')).toHaveAttribute('dy', '0.71em');
    expect(week).toHaveAttribute('text-anchor', 'middle');
    const zero = labels.find((label) => label.textContent === '0')!;
    expect(zero.querySelector('tspan')).toHaveAttribute('dy', '0.355em');
    expect(zero).toHaveAttribute('text-anchor', 'end');
    expect(document.getElementById('recharts_measurement_span')).toBeNull();
  });
});
