import { createCookie } from "@remix-run/node";

/** Dark mode is a plain cookie set by a POSTed form, so the switch works without JavaScript. */
export type Theme = "light" | "dark";

const themeCookie = createCookie("theme", { path: "/", sameSite: "lax", maxAge: 365 * 24 * 3600, httpOnly: true });

export async function readTheme(request: Request): Promise<Theme> {
  const value: unknown = await themeCookie.parse(request.headers.get("Cookie"));
  return value === "dark" ? "dark" : "light";
}

export function serializeTheme(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme);
}
