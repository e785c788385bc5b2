import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import fileSeconds from "./vitest-file-seconds.json" with { type: "json" };

/**
 * Deals the files out to `--shard`s by how long each takes (vitest-file-seconds.json: seconds
 * per `<project>:<file>` from a sharded run on a two-core machine, unit files halved as they run
 * two at a time), longest first, each to the shard with the least so far: vitest's own split,
 * by count, gave one shard 394 s and another 919 s. Every shard computes the same deal.
 * A file not in the table counts as a typical one of its kind.
 */
const seconds = fileSeconds as Record<string, number>;
const UNKNOWN_SECONDS = { unit: 1, integration: 10 };

/** Projects whose files stay in one shard: their shared server is costly to start (PGlite's initdb). */
const KEPT_TOGETHER = new Set(["integration-pglite"]);

export default class WeightedShards extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const lots = new Map<string, { specs: TestSpecification[]; weight: number }>();
    for (const spec of files) {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const unknown = spec.project.name === "unit" ? UNKNOWN_SECONDS.unit : UNKNOWN_SECONDS.integration;
      const lotKey = KEPT_TOGETHER.has(spec.project.name) ? spec.project.name : key;
      const lot = lots.get(lotKey) ?? { specs: [], weight: 0 };
      lot.specs.push(spec);
      lot.weight += seconds[key] ?? unknown;
      lots.set(lotKey, lot);
    }
    const weighed = [...lots.entries()].sort(([a, x], [b, y]) => y.weight - x.weight || (a < b ? -1 : 1));
    const loads = new Array<number>(count).fill(0);
    const mine: TestSpecification[] = [];
    for (const [, lot] of weighed) {
      const lightest = loads.indexOf(Math.min(...loads));
      loads[lightest]! += lot.weight;
      if (lightest === index - 1) mine.push(...lot.specs);
    }
    return mine;
  }
}
