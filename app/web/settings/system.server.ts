import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { cardView, saveCard, type CardResult } from "./card-save.server";
import { findCard, SYSTEM_CARDS } from "./option-cards.server";

/** The system tab (root only; the route has checked the role). Secrets reach the page only as "set or not". */
export async function loadSystemTab(_user: User, _request: Request) {
  return { cards: SYSTEM_CARDS.map(cardView) };
}

export async function systemTabAction(_user: User, intent: string, form: FormData, _request: Request) {
  const card = findCard(SYSTEM_CARDS, intent);
  if (!card) return data<CardResult>({ intent, error: "未知的操作" }, { status: 400 });
  return saveCard(card, form, { tabUrl: "/setting?tab=system" });
}
