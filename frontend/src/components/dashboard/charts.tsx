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
 * How each channel's series is drawn, by its place in the answer (the registry's order): the channels are told
 * apart by more than their colour (docs/product.md, Dashboard): each has its own line (solid, dashed, dotted, …) and
 * marker (circle, square, triangle, …), in colours of distant hues in both themes (base.css --chart-blog,
 * --chart-linkedin, --chart-channel-*). Where two counts are equal the lines lie on each other, and the dashes still
 * show both.
 */
export const SERIES_STYLES = [
  { colour: 'var(--chart-blog)', dash: undefined, marker: 'circle' },
  { colour: 'var(--chart-linkedin)', dash: '6 4', marker: 'square' },
  { colour: 'var(--chart-channel-3)', dash: '2 3', marker: 'triangle' },
  { colour: 'var(--chart-channel-4)', dash: '10 3 2 3', marker: 'diamond' },
  { colour: 'var(--chart-channel-5)', dash: '12 5', marker: 'cross' },
] as const;
type SeriesStyle = (typeof SERIES_STYLES)[number];

/** The style of the series at `index` (past the list, the styles come round again). */
export const seriesStyle = (index: number): SeriesStyle => SERIES_STYLES[index % SERIES_STYLES.length]!;

/** A channel's series: its id (the key of its counts) and its name. */
export interface ChartSeries {
  channel: string;
  name: string;
}

function TrendMarker({ style, cx, cy }: { style: SeriesStyle; cx?: number; cy?: number }) {
  if (cx === undefined || cy === undefined) return null;
  const className = `trend-marker trend-marker--${style.marker}`;
  const r = 3.5;
  switch (style.marker) {
    case 'square':
      return <rect className={className} x={cx - r} y={cy - r} width={2 * r} height={2 * r} fill={style.colour} />;
    case 'triangle':
      return (
        <polygon
          className={className}
          points={`${cx},${cy - r - 1} ${cx + r + 0.5},${cy + r} ${cx - r - 0.5},${cy + r}`}
          fill={style.colour}
        />
      );
    case 'diamond':
      return (
        <polygon
          className={className}
          points={`${cx},${cy - r - 1} ${cx + r + 1},${cy} ${cx},${cy + r + 1} ${cx - r - 1},${cy}`}
          fill={style.colour}
        />
      );
    case 'cross':
      return (
        <path
          className={className}
          d={`M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`}
          stroke={style.colour}
          strokeWidth={2}
          fill="none"
        />
      );
    default:
      return <circle className={className} cx={cx} cy={cy} r={r} fill={style.colour} />;
  }
}

/** The legend draws each series as it is drawn in the chart: its line (solid or dashed) and its marker. */
function TrendsLegend({ series }: { series: readonly ChartSeries[] }) {
  return (
    <ul className="trends-legend">
      {series.map(({ channel, name }, i) => {
        const style = seriesStyle(i);
        return (
          <li key={channel} className="trends-legend__item">
            <svg width={28} height={10} viewBox="0 0 28 10" aria-hidden="true">
              <line x1={0} y1={5} x2={28} y2={5} stroke={style.colour} strokeWidth={2} strokeDasharray={style.dash} />
              <TrendMarker style={style} cx={14} cy={5} />
            </svg>
            {name}
          </li>
        );
      })}
    </ul>
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
  return (
    <ChartFrame label={label}>
      <AreaChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
        <defs>
          {series.map(({ channel }, i) => (
            <linearGradient key={channel} id={`trend-${i}`} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={seriesStyle(i).colour} stopOpacity={0.3} />
              <stop offset="100%" stopColor={seriesStyle(i).colour} stopOpacity={0.02} />
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
        <Legend wrapperStyle={legendStyle} content={<TrendsLegend series={series} />} />
        {series.map(({ channel, name }, i) => {
          const style = seriesStyle(i);
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
  );
}

/** Platform Distribution: published posts per channel as horizontal bars, each in its series' colour. */
export function DistributionChart({ data, label }: { data: { name: string; count: number }[]; label: string }) {
  const bars = data.map((d, i) => ({ ...d, fill: seriesStyle(i).colour }));
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
