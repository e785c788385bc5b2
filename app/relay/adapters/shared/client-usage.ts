import type { AdapterContext } from "../types";

/** The client asked for a usage chunk at the end of its stream (stream_options.include_usage). */
export function clientWantsUsage(ctx: Pick<AdapterContext, "body">): boolean {
  const options = ctx.body.stream_options as { include_usage?: unknown } | undefined;
  return options?.include_usage === true;
}
