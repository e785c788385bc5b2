/**
 * Channel choice for one (group, model): tiers by priority, highest first; inside a tier a
 * weighted draw where each channel counts weight + 10 (the reference's smoothing, so weight-0
 * channels still see traffic). Retry n starts at the n-th tier, and a channel that already
 * failed this request is never picked again.
 */
export type RoutedChannel = { id: number; weight: number; priority: number };
export type Tier = { priority: number; channels: RoutedChannel[] };

const SMOOTHING = 10;

export function pickChannel(
  tiers: Tier[],
  attempt: number,
  excluded: ReadonlySet<number>,
  random: () => number = Math.random,
): RoutedChannel | undefined {
  if (tiers.length === 0) return undefined;
  // The usual first try: the top tier, nothing excluded yet.
  if (attempt === 0 && excluded.size === 0) return drawFrom(tiers[0]!.channels, random);
  const start = Math.min(attempt, tiers.length - 1);
  // Preferred tier first, then the lower ones, then (all lower exhausted) the higher ones.
  const order = [...tiers.slice(start), ...tiers.slice(0, start).reverse()];
  for (const tier of order) {
    const candidates = tier.channels.filter((c) => !excluded.has(c.id));
    if (candidates.length > 0) return drawFrom(candidates, random);
  }
  return undefined;
}

function drawFrom(candidates: RoutedChannel[], random: () => number): RoutedChannel | undefined {
  if (candidates.length === 1) return candidates[0];
  let total = 0;
  for (const c of candidates) total += c.weight + SMOOTHING;
  let point = random() * total;
  for (const candidate of candidates) {
    point -= candidate.weight + SMOOTHING;
    if (point < 0) return candidate;
  }
  return candidates[candidates.length - 1];
}

/** Groups a flat list of abilities into priority tiers, highest first. */
export function buildTiers(channels: RoutedChannel[]): Tier[] {
  const byPriority = new Map<number, RoutedChannel[]>();
  for (const c of channels) {
    const list = byPriority.get(c.priority) ?? [];
    list.push(c);
    byPriority.set(c.priority, list);
  }
  return [...byPriority.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([priority, list]) => ({ priority, channels: list }));
}
