import type { User } from "../../../db/schema";
import { listTopUps } from "~/domain/payments/topup-orders.server";
import { options } from "~/domain/options/store.server";
import { readPage } from "~/utils/pagination";
import type { TopUpHistoryPage } from "./online-topup-view";

/** One page of the user's own top-up orders for the wallet (`?p=` 0-based, `?size=`). */
export async function loadTopUpHistory(user: User, url: URL): Promise<TopUpHistoryPage> {
  const { page, size } = readPage(url, "size");
  const { items, total } = await listTopUps(user.id, page, size);
  return {
    items,
    total,
    page,
    size,
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}
