import { useRouteLoaderData } from "@remix-run/react";

/** The zone this page shows times in (chosen by the root loader, so server and browser agree). */
export function useTimeZone(): string {
  return useRouteLoaderData<{ timeZone?: string }>("root")?.timeZone ?? "UTC";
}
