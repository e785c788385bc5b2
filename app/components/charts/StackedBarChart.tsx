import { scaleBand, scaleLinear } from "d3-scale";
import { useT } from "~/components/i18n/locale-context";

/**
 * A stacked bar chart drawn on the server: no chart script reaches the browser. The bars are an
 * SVG stretched to the card's width; the axis labels are HTML text laid over it, so they keep the
 * page's 12 px at every width (labels inside a scaled SVG shrank to 5–7 px on a phone and in the
 * two-column layout). Text and grid use currentColor, so the chart follows the light or dark
 * theme; each bar segment carries a <title>, the browser's own tooltip, so values show on hover
 * without script.
 */
export type ChartSeries = { name: string; color: string; values: number[] };

type Props = {
  title: string;
  buckets: string[];
  series: ChartSeries[];
  format: (value: number) => string;
  height?: number;
};

/** The plot area inside the chart box, in CSS px: room on the left for the value labels, below for the time labels. */
const PLOT = { top: 8, right: 8, bottom: 28, left: 64 };
/** The SVG's own width units; it is stretched horizontally to whatever width the card has. */
const VIEW_WIDTH = 1000;
/** Time labels shown at most on a wide chart; narrower charts show every second or fourth of them (container queries). */
const MAX_X_LABELS = 12;

/** A bucket label short enough for the axis: the year goes ("01-31 08:00", "01-31"). */
const shortLabel = (bucket: string): string => bucket.slice(5);

/** Classes hiding the labels a narrower chart has no room for: half of them under 48rem, three in four under 24rem. */
function thinning(step: number): string {
  if (step % 4 === 0) return "";
  return step % 2 === 0 ? "@max-sm:hidden" : "@max-sm:hidden @max-3xl:hidden";
}

export function StackedBarChart({ title, buckets, series, format, height = 260 }: Props) {
  const t = useT();
  const plotHeight = height - PLOT.top - PLOT.bottom;
  const totals = buckets.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const x = scaleBand<string>().domain(buckets).range([0, VIEW_WIDTH]).padding(0.2);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...totals)])
    .nice()
    .range([plotHeight, 0]);
  const every = Math.max(1, Math.ceil(buckets.length / MAX_X_LABELS));
  const summary = t("{{title}}：{{count}} 个时间段，合计 {{total}}", {
    title,
    count: buckets.length,
    total: format(totals.reduce((a, b) => a + b, 0)),
  });
  const plotBox = { left: PLOT.left, right: PLOT.right, top: PLOT.top, height: plotHeight };
  return (
    <div
      role="img"
      aria-label={summary}
      className="@container relative text-xs text-gray-600 dark:text-gray-300"
      style={{ height }}
    >
      <svg
        viewBox={`0 0 ${VIEW_WIDTH} ${plotHeight}`}
        preserveAspectRatio="none"
        className="absolute overflow-visible"
        style={{ ...plotBox, width: `calc(100% - ${PLOT.left + PLOT.right}px)` }}
        aria-hidden="true"
      >
        {y.ticks(5).map((tick) => (
          <line
            key={tick}
            x1={0}
            x2={VIEW_WIDTH}
            y1={y(tick)}
            y2={y(tick)}
            stroke="currentColor"
            strokeOpacity={0.15}
            vectorEffect="non-scaling-stroke"
          />
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
                  <rect
                    key={s.name}
                    x={x(bucket)}
                    y={top}
                    width={x.bandwidth()}
                    height={Math.max(1, bottom - top)}
                    fill={s.color}
                  >
                    <title>
                      {t("{{bucket}} · {{name}}：{{value}}", { bucket, name: s.name, value: format(value) })}
                    </title>
                  </rect>
                );
              })}
            </g>
          );
        })}
        <line
          x1={0}
          x2={VIEW_WIDTH}
          y1={y(0)}
          y2={y(0)}
          stroke="currentColor"
          strokeOpacity={0.4}
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      {/* A small total gives ticks that read the same once formatted ($0.00 twice): each label once. */}
      {y
        .ticks(5)
        .filter((tick, i, ticks) => i === 0 || format(tick) !== format(ticks[i - 1]!))
        .map((tick) => (
          <span
            key={tick}
            className="absolute -translate-y-1/2 whitespace-nowrap text-right"
            style={{ right: `calc(100% - ${PLOT.left - 6}px)`, top: PLOT.top + y(tick) }}
          >
            {format(tick)}
          </span>
        ))}
      <div className="absolute" style={{ left: PLOT.left, right: PLOT.right, top: PLOT.top + plotHeight + 4 }}>
        {buckets.map((bucket, i) =>
          i % every === 0 ? (
            <span
              key={bucket}
              className={`absolute -translate-x-1/2 whitespace-nowrap ${thinning(i / every)}`}
              style={{ left: `${(((x(bucket) ?? 0) + x.bandwidth() / 2) / VIEW_WIDTH) * 100}%` }}
            >
              {shortLabel(bucket)}
            </span>
          ) : null,
        )}
      </div>
    </div>
  );
}

/** Colours legible on both the light and the dark theme; the last one is for 其他. */
export const SERIES_COLORS = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#9ca3af"];
