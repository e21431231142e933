import { channelColour } from '../../channels/registry';

/**
 * How Publishing Trends draws each channel's series, and its legend: no recharts here, so that the Dashboard page
 * draws the legend in the chart's placeholder (the chart, charts.tsx, is loaded later) and nothing moves when the
 * chart comes.
 */
/**
 * How each channel's series is drawn: the channels are told apart by more than their colour (docs/product.md,
 * Dashboard): each has its own line (solid, dashed, dotted, …) and marker (circle, square, triangle, …), by its place
 * in the answer (the registry's order), in its channel's colour (channelColour: distant hues in both themes, base.css
 * --chart-channel-*, the same as its row on a Schedule card). Where two counts are equal the lines lie on each other,
 * and the dashes still show both.
 */
export const SERIES_STYLES = [
  { dash: undefined, marker: 'circle' },
  { dash: '6 4', marker: 'square' },
  { dash: '2 3', marker: 'triangle' },
  { dash: '10 3 2 3', marker: 'diamond' },
  { dash: '12 5', marker: 'cross' },
] as const;
type SeriesStyle = (typeof SERIES_STYLES)[number] & { colour: string };

/** The style of the series at `index` (past the list, the lines and markers come round again) of `channel`. */
export const seriesStyle = (index: number, channel: string): SeriesStyle => ({
  ...SERIES_STYLES[index % SERIES_STYLES.length]!,
  colour: channelColour(channel),
});

/** A channel's series: its id (the key of its counts) and its name. */
export interface ChartSeries {
  channel: string;
  name: string;
}

export function TrendMarker({ style, cx, cy }: { style: SeriesStyle; cx?: number; cy?: number }) {
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
export function TrendsLegend({ series }: { series: readonly ChartSeries[] }) {
  return (
    // Hidden from assistive technology as it was inside the chart's image: the chart's label names every series.
    <ul className="trends-legend" aria-hidden="true">
      {series.map(({ channel, name }, i) => {
        const style = seriesStyle(i, channel);
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
