/**
 * The dashboard's charts. This is the only module that imports recharts, and the Dashboard page
 * loads it lazily, so the chart library is fetched only on /dashboard (docs/testing.md, Performance budgets).
 *
 * Colours are CSS variables (base.css --chart-*), so the charts follow the light or dark theme
 * without re-rendering. Each chart is drawn for sighted users only (role="img" with a label that
 * states the data); the card around it also prints a short text summary.
 */
import type { CSSProperties, ReactElement } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TrendPoint } from '@app/shared';

export const CHART_HEIGHT = 240;
/**
 * The charts draw at once: recharts' entrance animations re-render every chart on each frame for about
 * a second, the main-thread work that held the dashboard's Lighthouse performance score under 80.
 */
const CHART_ANIMATION = false;

const axisTick = { fill: 'var(--text-muted)', fontSize: 12 };
const tooltipStyle: CSSProperties = {
  background: 'var(--surface-raised)',
  border: '1px solid var(--border)',
  borderRadius: 8,
  boxShadow: 'var(--shadow)',
  color: 'var(--text)',
  fontSize: 12.5,
};
const tooltipLabelStyle: CSSProperties = { color: 'var(--text)', fontWeight: 600 };
const tooltipItemStyle: CSSProperties = { color: 'var(--text)' };
const legendStyle: CSSProperties = { fontSize: 12.5, color: 'var(--text-muted)' };

/** The palette of the keyword donut, in order. */
export const KEYWORD_COLOURS = [
  'var(--chart-1)',
  'var(--chart-2)',
  'var(--chart-3)',
  'var(--chart-4)',
  'var(--chart-5)',
];

interface ChartFrameProps {
  label: string;
  children: ReactElement;
  height?: number;
}

function ChartFrame({ label, children, height = CHART_HEIGHT }: ChartFrameProps) {
  return (
    <div className="chart-frame" role="img" aria-label={label} style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/**
 * The two lines of Publishing Trends, told apart by more than their colour (docs/product.md, Dashboard): Blog
 * is a solid line with round markers, LinkedIn a dashed one with square markers, in colours of distant hues
 * in both themes (base.css --chart-blog, --chart-linkedin). Where the two counts are equal the lines lie on
 * each other, and the dashes still show both.
 */
export const TREND_SERIES = [
  { dataKey: 'blog', name: 'Blog', colour: 'var(--chart-blog)', dash: undefined, marker: 'circle' },
  { dataKey: 'linkedin', name: 'LinkedIn', colour: 'var(--chart-linkedin)', dash: '6 4', marker: 'square' },
] as const;
type TrendSeries = (typeof TREND_SERIES)[number];

function TrendMarker({ series, cx, cy }: { series: TrendSeries; cx?: number; cy?: number }) {
  if (cx === undefined || cy === undefined) return null;
  const className = `trend-marker trend-marker--${series.marker}`;
  return series.marker === 'square' ? (
    <rect className={className} x={cx - 3.5} y={cy - 3.5} width={7} height={7} fill={series.colour} />
  ) : (
    <circle className={className} cx={cx} cy={cy} r={3.5} fill={series.colour} />
  );
}

/** The legend draws each series as it is drawn in the chart: its line (solid or dashed) and its marker. */
function TrendsLegend() {
  return (
    <ul className="trends-legend">
      {TREND_SERIES.map((series) => (
        <li key={series.dataKey} className="trends-legend__item">
          <svg width={28} height={10} viewBox="0 0 28 10" aria-hidden="true">
            <line x1={0} y1={5} x2={28} y2={5} stroke={series.colour} strokeWidth={2} strokeDasharray={series.dash} />
            <TrendMarker series={series} cx={14} cy={5} />
          </svg>
          {series.name}
        </li>
      ))}
    </ul>
  );
}

/** Publishing Trends: publications per ISO week, Blog and LinkedIn. */
export function TrendsChart({ data, label }: { data: TrendPoint[]; label: string }) {
  return (
    <ChartFrame label={label}>
      <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
        <defs>
          {TREND_SERIES.map((series) => (
            <linearGradient key={series.dataKey} id={`trend-${series.dataKey}`} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={series.colour} stopOpacity={0.3} />
              <stop offset="100%" stopColor={series.colour} stopOpacity={0.02} />
            </linearGradient>
          ))}
        </defs>
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
        {/* Every week gets its label; the padding keeps the first and last ones inside the chart. */}
        <XAxis
          dataKey="week"
          interval={0}
          padding={{ left: 28, right: 28 }}
          tick={axisTick}
          tickLine={false}
          axisLine={{ stroke: 'var(--border-strong)' }}
        />
        <YAxis allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} width={40} />
        <Tooltip
          contentStyle={tooltipStyle}
          labelStyle={tooltipLabelStyle}
          itemStyle={tooltipItemStyle}
          cursor={{ stroke: 'var(--border-strong)' }}
        />
        <Legend wrapperStyle={legendStyle} content={<TrendsLegend />} />
        {TREND_SERIES.map((series) => (
          <Area
            key={series.dataKey}
            type="monotone"
            dataKey={series.dataKey}
            name={series.name}
            stroke={series.colour}
            strokeWidth={2}
            strokeDasharray={series.dash}
            fill={`url(#trend-${series.dataKey})`}
            dot={({ cx, cy, index }: { cx?: number; cy?: number; index?: number }) => (
              <TrendMarker key={`${series.dataKey}-${index}`} series={series} cx={cx} cy={cy} />
            )}
            activeDot={({ cx, cy }: { cx?: number; cy?: number }) => <TrendMarker series={series} cx={cx} cy={cy} />}
            isAnimationActive={CHART_ANIMATION}
          />
        ))}
      </AreaChart>
    </ChartFrame>
  );
}

/** Platform Distribution: published posts per platform as horizontal bars. */
export function DistributionChart({ data, label }: { data: { platform: string; count: number }[]; label: string }) {
  const bars = data.map((d) => ({
    ...d,
    fill: d.platform === 'LinkedIn' ? 'var(--chart-linkedin)' : 'var(--chart-blog)',
  }));
  return (
    <ChartFrame label={label} height={160}>
      <BarChart
        data={bars}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} />
        <YAxis type="category" dataKey="platform" tick={axisTick} tickLine={false} axisLine={false} width={80} />
        <Tooltip
          contentStyle={tooltipStyle}
          labelStyle={tooltipLabelStyle}
          itemStyle={tooltipItemStyle}
          cursor={{ fill: 'var(--surface-hover)' }}
        />
        <Bar
          dataKey="count"
          name="Published posts"
          radius={[0, 6, 6, 0]}
          barSize={22}
          isAnimationActive={CHART_ANIMATION}
        />
      </BarChart>
    </ChartFrame>
  );
}

/** Top Keywords: a donut of the most used keywords. */
export function KeywordsChart({ data, label }: { data: { keyword: string; count: number }[]; label: string }) {
  const slices = data.map((d, i) => ({ ...d, fill: KEYWORD_COLOURS[i % KEYWORD_COLOURS.length] }));
  return (
    <ChartFrame label={label} height={200}>
      <PieChart accessibilityLayer={false}>
        <Tooltip contentStyle={tooltipStyle} labelStyle={tooltipLabelStyle} itemStyle={tooltipItemStyle} />
        <Pie
          data={slices}
          dataKey="count"
          nameKey="keyword"
          innerRadius="58%"
          outerRadius="88%"
          paddingAngle={2}
          stroke="var(--surface)"
          strokeWidth={2}
          isAnimationActive={CHART_ANIMATION}
        />
      </PieChart>
    </ChartFrame>
  );
}
