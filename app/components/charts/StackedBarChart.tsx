import { scaleBand, scaleLinear } from "d3-scale";

/**
 * A stacked bar chart drawn on the server as plain SVG: no chart script reaches the browser.
 * Text and grid use currentColor, so the chart follows the page's light or dark theme; each bar
 * segment carries a <title>, the browser's own tooltip, so values show on hover without script.
 */
export type ChartSeries = { name: string; color: string; values: number[] };

type Props = {
  title: string;
  buckets: string[];
  series: ChartSeries[];
  format: (value: number) => string;
  width?: number;
  height?: number;
};

const MARGIN = { top: 12, right: 12, bottom: 48, left: 64 };
const MAX_X_LABELS = 12;

/** A bucket label short enough for the axis: the year goes ("01-31 08:00", "01-31"). */
const shortLabel = (bucket: string): string => bucket.slice(5);

export function StackedBarChart({ title, buckets, series, format, width = 760, height = 260 }: Props) {
  const totals = buckets.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const x = scaleBand<string>().domain(buckets).range([MARGIN.left, width - MARGIN.right]).padding(0.2);
  const y = scaleLinear().domain([0, Math.max(1, ...totals)]).nice().range([height - MARGIN.bottom, MARGIN.top]);
  const every = Math.max(1, Math.ceil(buckets.length / MAX_X_LABELS));
  const summary = `${title}：${buckets.length} 个时间段，合计 ${format(totals.reduce((a, b) => a + b, 0))}`;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full text-gray-600 dark:text-gray-300" role="img" aria-label={summary}>
      <title>{summary}</title>
      {y.ticks(5).map((tick) => (
        <g key={tick}>
          <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="currentColor" strokeOpacity={0.15} />
          <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={11} fill="currentColor">
            {format(tick)}
          </text>
        </g>
      ))}
      {buckets.map((bucket, i) => {
        let base = 0;
        return (
          <g key={bucket} data-bucket={bucket}>
            {series.map((s) => {
              const value = s.values[i] ?? 0;
              if (value <= 0) return null;
              const top = y(base + value);
              const bottom = y(base);
              base += value;
              return (
                <rect key={s.name} x={x(bucket)} y={top} width={x.bandwidth()} height={Math.max(1, bottom - top)} fill={s.color}>
                  <title>{`${bucket} · ${s.name}：${format(value)}`}</title>
                </rect>
              );
            })}
            {i % every === 0 ? (
              <text x={(x(bucket) ?? 0) + x.bandwidth() / 2} y={height - MARGIN.bottom + 16} textAnchor="middle" fontSize={11} fill="currentColor">
                {shortLabel(bucket)}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.4} />
    </svg>
  );
}

/** Colours legible on both the light and the dark theme; the last one is for 其他. */
export const SERIES_COLORS = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#9ca3af"];
