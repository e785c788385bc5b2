import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import type { SettingsActionResult } from "./tabs";

/** The other tab (root only; the route has checked the role). */
export async function loadOtherTab(_user: User, _request: Request) {
  return {};
}

export async function otherTabAction(_user: User, intent: string, _form: FormData, _request: Request) {
  return data<SettingsActionResult>({ intent, error: "未知的操作" }, { status: 400 });
}
