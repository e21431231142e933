/**
 * The dashboard's charts. This is the only module that imports recharts, and the Dashboard page
 * loads it lazily, so the chart library is fetched only on /dashboard (docs/testing.md, Performance budgets).
 *
 * Colours are CSS variables (base.css --chart-*), so the charts follow the light or dark theme
 * without re-rendering. Each chart is drawn for sighted users only (role="img" with a label that
 * states the data); the card around it also prints a short text summary.
 */
import { useContext, type CSSProperties, type ReactElement } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TrendPoint } from '@app/shared';
import { ChartWidth } from './chartSize';
import { channelColour } from '../../channels/registry';
import { seriesStyle, TrendMarker, TrendsLegend, type ChartSeries } from './trendsLegend';

export { SERIES_STYLES, seriesStyle, type ChartSeries } from './trendsLegend';

export const CHART_HEIGHT = 240;
/**
 * The charts draw at once: recharts' entrance animations re-render every chart on each frame for about
 * a second, the main-thread work that held the dashboard's Lighthouse performance score under 80.
 */
const CHART_ANIMATION = false;

interface AxisTickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  textAnchor?: 'start' | 'middle' | 'end' | 'inherit';
  verticalAnchor?: 'start' | 'middle' | 'end';
  className?: string;
}

/**
 * An axis label drawn as recharts' own label draws a one-line text (its `Text`: the same offsets for the label's
 * anchor), without measuring its words: given the axis' width, `Text` measured each label in the page to wrap it,
 * a forced layout of the page for every label on each of the chart's passes (most of the trends chart's one long
 * task on Lighthouse's phone, docs/testing.md). The labels here are short and never wrap.
 */
function axisTick({ x, y, payload, textAnchor, verticalAnchor, className }: AxisTickProps): ReactElement {
  const dy = verticalAnchor === 'start' ? '0.71em' : verticalAnchor === 'middle' ? '0.355em' : undefined;
  return (
    <text x={x} y={y} textAnchor={textAnchor} fill="var(--text-muted)" fontSize={12} className={className}>
      <tspan x={x} dy={dy}>
        {String(payload?.value ?? '')}
      </tspan>
    </text>
  );
}
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
  // Its place's width when the page measured it (chartSize.ts): the chart is drawn in this render, and the container's
  // own measurement, equal to it, changes nothing. Without it the container renders empty and draws the chart in
  // the update its measurement makes.
  const width = useContext(ChartWidth);
  return (
    <div className="chart-frame" role="img" aria-label={label} style={{ height }}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={width ? { width, height } : undefined}>
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** Publishing Trends: publications per ISO week, a series per channel. */
export function TrendsChart({
  data,
  series,
  label,
}: {
  data: TrendPoint[];
  series: readonly ChartSeries[];
  label: string;
}) {
  // One row per week with a number per channel, as recharts reads a series (its dataKey).
  const rows = data.map((point) => ({ week: point.week, ...point.counts }));
  // The legend is drawn under the chart, not by recharts: its Legend measured itself once drawn, and the plot's
  // new size redrew the whole chart again in the same task. The page's placeholder has it too (pages/Dashboard.tsx).
  return (
    <>
      <ChartFrame label={label}>
        <AreaChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
          <defs>
            {series.map(({ channel }, i) => {
              const { colour } = seriesStyle(i, channel);
              return (
                <linearGradient key={channel} id={`trend-${i}`} x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor={colour} stopOpacity={0.3} />
                  <stop offset="100%" stopColor={colour} stopOpacity={0.02} />
                </linearGradient>
              );
            })}
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
          {/* Every count gets its label (a few, far apart): recharts measures no label's text to drop some. */}
          <YAxis allowDecimals={false} interval={0} tick={axisTick} tickLine={false} axisLine={false} width={40} />
          <Tooltip
            contentStyle={tooltipStyle}
            labelStyle={tooltipLabelStyle}
            itemStyle={tooltipItemStyle}
            cursor={{ stroke: 'var(--border-strong)' }}
          />
          {series.map(({ channel, name }, i) => {
            const style = seriesStyle(i, channel);
            return (
              <Area
                key={channel}
                type="monotone"
                dataKey={channel}
                name={name}
                stroke={style.colour}
                strokeWidth={2}
                strokeDasharray={style.dash}
                fill={`url(#trend-${i})`}
                dot={({ cx, cy, index }: { cx?: number; cy?: number; index?: number }) => (
                  <TrendMarker key={`${channel}-${index}`} style={style} cx={cx} cy={cy} />
                )}
                activeDot={({ cx, cy }: { cx?: number; cy?: number }) => <TrendMarker style={style} cx={cx} cy={cy} />}
                isAnimationActive={CHART_ANIMATION}
              />
            );
          })}
        </AreaChart>
      </ChartFrame>
      <TrendsLegend series={series} />
    </>
  );
}

/** Platform Distribution: published posts per channel as horizontal bars, each in its channel's colour. */
export function DistributionChart({
  data,
  label,
}: {
  data: { channel: string; name: string; count: number }[];
  label: string;
}) {
  const bars = data.map((d) => ({ ...d, fill: channelColour(d.channel) }));
  return (
    <ChartFrame label={label} height={Math.max(160, 44 * bars.length + 32)}>
      <BarChart
        data={bars}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} />
        <YAxis type="category" dataKey="name" tick={axisTick} tickLine={false} axisLine={false} width={80} />
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
