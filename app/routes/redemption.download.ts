import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { looksLikeRedemptionKey } from "~/domain/redemptions/redemption-keys.server";
import { MAX_REDEMPTION_COUNT, redemptionNameFits } from "~/domain/redemptions/redemption-constants";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { readForm } from "~/utils/edge-input";
import { requireRole } from "~/web/guards.server";

/** Nothing to show on a GET: the file exists only as the answer to the created page's POST. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  return redirect("/redemption");
}

/** A file name from the code name: no path separators, quotes or control characters. */
function fileNameOf(name: string): string {
  const cleaned = Array.from(name)
    .filter((c) => c >= " " && !`/\\"*:<>?|\u007f`.includes(c))
    .join("")
    .trim();
  return `${cleaned || "redemption"}.txt`;
}

/**
 * Echoes the keys the created page holds back as `<name>.txt` (Content-Disposition), so the
 * download works as a plain form POST without JavaScript. Nothing is read from the database:
 * the keys are not stored (decision 020). Only admins, and only keys shaped like ours.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const form = await readForm(request);
  const name = String(form.get("name") ?? "").trim();
  const keys = form.getAll("keys").map(String);
  if (
    !redemptionNameFits(name) ||
    keys.length === 0 ||
    keys.length > MAX_REDEMPTION_COUNT ||
    !keys.every(looksLikeRedemptionKey)
  ) {
    return new Response("无效的参数", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const fileName = fileNameOf(name);
  // An ASCII fallback for old clients, the UTF-8 name (RFC 6266/5987) for the rest.
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_");
  return new Response(`${keys.join("\n")}\n`, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}
