import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { deleteLogsBefore } from "~/domain/logs/logs.server";
import { resetModelRatio } from "~/domain/options/reset.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseWallClock } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";
import { cardView, saveCard, type CardResult } from "./card-save.server";
import { findCard, OPERATION_CARDS } from "./option-cards.server";

const TAB_URL = "/setting?tab=operation";

/** The operation tab (root only; the route has checked the role). */
export async function loadOperationTab(_user: User, _request: Request) {
  return { cards: OPERATION_CARDS.map(cardView) };
}

/** 清除历史日志: logs older than a wall-clock time in the console's zone (the same domain call as DELETE /api/log/). */
async function clearLogs(form: FormData, request: Request) {
  const intent = "clear-logs";
  const text = String(form.get("before") ?? "").trim();
  if (!text) return data<CardResult>({ intent, error: messages.logTimeRequired }, { status: 400 });
  const before = parseWallClock(text, requestTimeZone(request));
  if (!Number.isFinite(before) || before <= 0)
    return data<CardResult>({ intent, error: messages.logTimeRequired, values: { before: text } }, { status: 400 });
  try {
    const count = await deleteLogsBefore(before);
    return redirectWithFlash(TAB_URL, { type: "success", message: messages.logsCleared.replace("{n}", String(count)) });
  } catch (error) {
    // The page answers (no error page): the card shows 日志清理失败：… and the form stays usable.
    console.error("[settings] clearing logs failed:", (error as Error).message);
    return data<CardResult>({
      intent,
      error: messages.logClearFailed.replace("{message}", (error as Error).message),
      values: { before: text },
    });
  }
}

export async function operationTabAction(_user: User, intent: string, form: FormData, request: Request) {
  if (intent === "clear-logs") return clearLogs(form, request);
  if (intent === "reset-model-ratio") {
    const result = await resetModelRatio();
    if (!result.ok)
      return data<CardResult>({ intent: "ratio", error: `${messages.saveFailed}：${result.message}` }, { status: 400 });
    return redirectWithFlash(TAB_URL, { type: "success", message: messages.modelRatioReset });
  }
  const card = findCard(OPERATION_CARDS, intent);
  if (!card) return data<CardResult>({ intent, error: "未知的操作" }, { status: 400 });
  return saveCard(card, form, { tabUrl: TAB_URL });
}
