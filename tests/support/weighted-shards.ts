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

export default class WeightedShards extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const weighed = files
      .map((spec) => {
        const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
        const unknown = spec.project.name === "unit" ? UNKNOWN_SECONDS.unit : UNKNOWN_SECONDS.integration;
        return { spec, key, weight: seconds[key] ?? unknown };
      })
      .sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : 1));
    const loads = new Array<number>(count).fill(0);
    const mine: TestSpecification[] = [];
    for (const file of weighed) {
      const lightest = loads.indexOf(Math.min(...loads));
      loads[lightest]! += file.weight;
      if (lightest === index - 1) mine.push(file.spec);
    }
    return mine;
  }
}
