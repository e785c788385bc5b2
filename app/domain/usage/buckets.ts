import { formatTimestamp } from "~/utils/time-zone";

/**
 * Grouping hourly usage into the dashboard's time buckets (DataExportDefaultTime: hour, day or
 * week), in the zone the viewer reads times in: a "day" is the viewer's day, not UTC's.
 */
export const GRANULARITIES = ["hour", "day", "week"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const GRANULARITY_LABELS: Record<Granularity, string> = { hour: "小时", day: "天", week: "周" };

export function readGranularity(value: string | null | undefined, fallback: Granularity): Granularity {
  return (GRANULARITIES as readonly string[]).includes(value ?? "") ? (value as Granularity) : fallback;
}

export type HourlyUsage = { model_name: string; created_at: number; count: number; token_used: number; quota: number };

/** The bucket label of an hour: "2030-01-31 08:00", "2030-01-31", or the Monday starting its week. */
export function bucketOf(hourStart: number, granularity: Granularity, timeZone: string): string {
  const local = formatTimestamp(hourStart, timeZone); // "YYYY-MM-DD HH:mm:ss"
  if (granularity === "hour") return local.slice(0, 16);
  const day = local.slice(0, 10);
  if (granularity === "day") return day;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - sinceMonday);
  return date.toISOString().slice(0, 10);
}

export type Metric = "quota" | "count" | "token_used";

export type UsageSeries = {
  buckets: string[];
  /** One entry per model (the largest by quota first; the rest folded into 其他 past `maxModels`). */
  models: { name: string; quota: number; count: number; token_used: number; byBucket: Record<Metric, number[]> }[];
  totals: Record<Metric, number>;
};

export const OTHER_MODELS = "其他";

/** Hourly rows → per-bucket sums per model, buckets in time order with empty ones left out. */
export function toSeries(rows: HourlyUsage[], granularity: Granularity, timeZone: string, maxModels = 8): UsageSeries {
  const bucketSet = new Map<string, number>(); // label → earliest hour (for ordering)
  const perModel = new Map<
    string,
    { quota: number; count: number; token_used: number; buckets: Map<string, Record<Metric, number>> }
  >();
  for (const row of rows) {
    const bucket = bucketOf(row.created_at, granularity, timeZone);
    bucketSet.set(bucket, Math.min(bucketSet.get(bucket) ?? Infinity, row.created_at));
    const model = perModel.get(row.model_name) ?? { quota: 0, count: 0, token_used: 0, buckets: new Map() };
    model.quota += row.quota;
    model.count += row.count;
    model.token_used += row.token_used;
    const cell = model.buckets.get(bucket) ?? { quota: 0, count: 0, token_used: 0 };
    cell.quota += row.quota;
    cell.count += row.count;
    cell.token_used += row.token_used;
    model.buckets.set(bucket, cell);
    perModel.set(row.model_name, model);
  }
  const buckets = [...bucketSet.entries()].sort((a, b) => a[1] - b[1]).map(([label]) => label);
  const ranked = [...perModel.entries()].sort(
    (a, b) => b[1].quota - a[1].quota || b[1].count - a[1].count || a[0].localeCompare(b[0]),
  );
  const shown = ranked.length > maxModels ? ranked.slice(0, maxModels - 1) : ranked;
  const folded = ranked.length > maxModels ? ranked.slice(maxModels - 1) : [];
  const seriesOf = (entries: typeof ranked, name: string) => {
    const byBucket: Record<Metric, number[]> = { quota: [], count: [], token_used: [] };
    for (const bucket of buckets) {
      for (const metric of ["quota", "count", "token_used"] as const) {
        byBucket[metric].push(entries.reduce((sum, [, m]) => sum + (m.buckets.get(bucket)?.[metric] ?? 0), 0));
      }
    }
    return {
      name,
      quota: entries.reduce((s, [, m]) => s + m.quota, 0),
      count: entries.reduce((s, [, m]) => s + m.count, 0),
      token_used: entries.reduce((s, [, m]) => s + m.token_used, 0),
      byBucket,
    };
  };
  const models = shown.map((entry) => seriesOf([entry], entry[0]));
  if (folded.length) models.push(seriesOf(folded, OTHER_MODELS));
  const totals = { quota: 0, count: 0, token_used: 0 };
  for (const m of models) {
    totals.quota += m.quota;
    totals.count += m.count;
    totals.token_used += m.token_used;
  }
  return { buckets, models, totals };
}
