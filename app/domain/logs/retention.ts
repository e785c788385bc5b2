/**
 * Which log partitions a retention cutoff drops whole and which keep rows to delete (decision
 * 029). Pure: the partitions come from the catalogue, the cutoff from the clock.
 */
export type LogPartition = {
  name: string;
  /** Range [from, to) in unix seconds; absent for the default partition. */ from?: number;
  to?: number;
};

export type RetentionPlan = {
  /** Every row is older than the cutoff: dropped (a catalogue change, not a scan). */
  drop: string[];
  /** Some rows may be older than the cutoff: those are deleted in batches (the edge month, the default partition). */
  trim: string[];
};

/**
 * A month still current (or ahead) at `now` (unix seconds) is never dropped, even for a cutoff in
 * the future (清除历史日志 with a later time): its rows are deleted instead and the partition
 * stays, so new logs do not fall into the default partition.
 */
export function planRetention(
  partitions: readonly LogPartition[],
  cutoff: number,
  now = Number.POSITIVE_INFINITY,
): RetentionPlan {
  const drop: string[] = [];
  const trim: string[] = [];
  for (const partition of partitions) {
    if (partition.from === undefined || partition.to === undefined) trim.push(partition.name);
    else if (partition.to <= cutoff && partition.to <= now) drop.push(partition.name);
    else if (partition.from < cutoff) trim.push(partition.name);
  }
  return { drop, trim };
}

/** The cutoff (unix seconds) of LogRetentionDays at `now` (unix ms); undefined when logs are kept forever. */
export function retentionCutoff(days: number, now: number): number | undefined {
  if (!Number.isFinite(days) || days <= 0) return undefined;
  return Math.floor(now / 1000) - Math.round(days * 86_400);
}

/** `FOR VALUES FROM ('1730419200') TO ('1733011200')` (pg_get_expr of a range partition's bound), or DEFAULT. */
export function parsePartitionBound(name: string, bound: string): LogPartition | undefined {
  if (/^\s*DEFAULT\s*$/i.test(bound)) return { name };
  const match = /FROM\s*\(\s*'?(-?\d+)'?\s*\)\s*TO\s*\(\s*'?(-?\d+)'?\s*\)/i.exec(bound);
  if (!match) return undefined;
  return { name, from: Number(match[1]), to: Number(match[2]) };
}
