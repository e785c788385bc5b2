import { checkOptionPreconditions, getOptionDef, validateOptionValue } from "~/domain/options/registry";
import type { ImportStep } from "../types";
import { asString } from "../values";

/**
 * Every option Switchyard knows, validated exactly like a save from the settings page (a value
 * the page would refuse is refused here, with its message); secrets (`SMTPToken`,
 * `GitHubClientSecret`, `EpayKey`…) are stored as Switchyard stores them, write-only. Keys
 * Switchyard does not know are listed in the report.
 */
export const optionsStep: ImportStep = {
  name: "options",
  async run(ctx) {
    const report = ctx.report;
    report.table("options");
    const rows = await ctx.source.all("options", ["key", "value"]);
    const accepted = new Map<string, string>();
    const unknown: string[] = [];
    for (const row of rows) {
      report.found("options");
      const key = asString(row.key);
      const value = asString(row.value);
      if (!getOptionDef(key)) {
        unknown.push(key);
        continue;
      }
      const checked = validateOptionValue(key, value);
      if (!checked.ok) {
        report.note(
          "options",
          key,
          "refused",
          `${checked.message} (value ${JSON.stringify(value.slice(0, 80))}); the default stays`,
        );
        continue;
      }
      if (checked.value !== value)
        report.note("options", key, "changed", `stored as ${JSON.stringify(checked.value.slice(0, 80))}`);
      accepted.set(key, checked.value);
    }
    // A login method switched on without what it needs is refused as the settings page refuses it.
    for (const [key, value] of [...accepted]) {
      const problem = checkOptionPreconditions(key, value, (k) => accepted.get(k) ?? "");
      if (problem) {
        report.note("options", key, "refused", `${problem}; imported as false`);
        accepted.set(key, "false");
      }
    }
    if (unknown.length)
      report.remark("options", `keys Switchyard does not know, not imported: ${unknown.sort().join(", ")}`);

    const entries = [...accepted].map(([key, value]) => ({ key, value }));
    if (!ctx.apply) {
      const present = entries.length
        ? await ctx.target
            .selectFrom("options")
            .select("key")
            .where(
              "key",
              "in",
              entries.map((e) => e.key),
            )
            .execute()
        : [];
      const presentKeys = new Set(present.map((p) => p.key));
      for (const key of presentKeys) report.note("options", key, "present", "already in the target");
      report.written("options", entries.length - presentKeys.size);
      return;
    }
    await ctx.target.transaction().execute(async (trx) => {
      for (const entry of entries) {
        const inserted = await trx
          .insertInto("options")
          .values(entry)
          .onConflict((oc) => oc.column("key").doNothing())
          .returning("key")
          .executeTakeFirst();
        if (inserted) report.written("options");
        else report.note("options", entry.key, "present", "already in the target (an earlier --apply wrote it)");
      }
    });
  },
};
