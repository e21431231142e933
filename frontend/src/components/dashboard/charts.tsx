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

/** Publishing Trends: publications per ISO week, Blog and LinkedIn. */
export function TrendsChart({ data, label }: { data: TrendPoint[]; label: string }) {
  return (
    <ChartFrame label={label}>
      <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
        <defs>
          <linearGradient id="trend-blog" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="var(--chart-blog)" stopOpacity={0.35} />
            <stop offset="100%" stopColor="var(--chart-blog)" stopOpacity={0.02} />
          </linearGradient>
          <linearGradient id="trend-linkedin" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="var(--chart-linkedin)" stopOpacity={0.35} />
            <stop offset="100%" stopColor="var(--chart-linkedin)" stopOpacity={0.02} />
          </linearGradient>
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
        <Legend wrapperStyle={legendStyle} iconType="circle" iconSize={8} />
        <Area
          type="monotone"
          dataKey="blog"
          name="Blog"
          stroke="var(--chart-blog)"
          strokeWidth={2}
          fill="url(#trend-blog)"
          dot={{ r: 3, fill: 'var(--chart-blog)', strokeWidth: 0 }}
          isAnimationActive={CHART_ANIMATION}
        />
        <Area
          type="monotone"
          dataKey="linkedin"
          name="LinkedIn"
          stroke="var(--chart-linkedin)"
          strokeWidth={2}
          fill="url(#trend-linkedin)"
          dot={{ r: 3, fill: 'var(--chart-linkedin)', strokeWidth: 0 }}
          isAnimationActive={CHART_ANIMATION}
        />
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
