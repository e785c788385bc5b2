import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/i18n/locale-context";
import { PricingPage } from "~/components/pricing/PricingPage";
import type { PricingRow } from "~/components/pricing/PricingTable";
import { messages } from "~/messages";
import { options } from "~/domain/options/store.server";
import { formatPrice, matchesModelFilter, unitPrices, type PricingEntry } from "~/relay/billing/price-list";
import { buildPriceList, groupRatioOf, pricingAudience } from "~/relay/billing/price-list.server";
import { pricedModel } from "~/relay/billing/price-tables.server";
import { optionalUser } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "模型价格");

/** Longest filter text honoured; a model name is far shorter. */
const MAX_QUERY = 100;

/**
 * The public price list. Everything is a GET: `q` filters, `group` picks the group the prices
 * are shown in (a link per group), `copy` with `model` checkboxes shows the chosen names to copy
 * — so the whole page works without JavaScript, and a filtered view can be bookmarked.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  const audience = pricingAudience(user);
  const list = await buildPriceList(audience);
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY);
  const requested = url.searchParams.get("group") ?? "";
  const group = requested in list.usableGroups ? requested : audience.ownGroup;
  const displayInCurrency = options.bool("DisplayInCurrencyEnabled");
  const quotaPerUnit = options.float("QuotaPerUnit");

  const rows = list.entries
    .filter((entry) => matchesModelFilter(entry.model_name, query))
    .flatMap((entry) => rowOf(entry, group, displayInCurrency))
    .sort((a, b) => Number(b.available) - Number(a.available) || a.name.localeCompare(b.name));
  const names = new Set(rows.map((r) => r.name));
  const copying = url.searchParams.has("copy");
  const selected = copying ? url.searchParams.getAll("model").filter((m) => names.has(m)) : [];

  const viewedRatio = groupRatioOf(group);
  return {
    banner: audience.signedIn
      ? messages.pricingSignedIn
          .replace("{group}", audience.ownGroup)
          .replace("{ratio}", String(groupRatioOf(audience.ownGroup)))
      : messages.pricingSignedOut.replace("{ratio}", String(groupRatioOf(audience.ownGroup))),
    viewing:
      group === audience.ownGroup
        ? ""
        : messages.pricingViewing.replace("{group}", group).replace("{ratio}", String(viewedRatio)),
    formula: displayInCurrency
      ? messages.pricingRatioFormula.replace("{unit}", String(quotaPerUnit))
      : messages.pricingRatioFormulaQuota,
    priceFormula: messages.pricingPriceFormula,
    query,
    group,
    groups: Object.entries(list.usableGroups).map(([name, label]) => ({ name, label, ratio: groupRatioOf(name) })),
    rows,
    unpriced: list.unpriced.map((u) => u.model_name).filter((m) => matchesModelFilter(m, query)),
    selection: copying ? { names: selected, empty: selected.length === 0 } : null,
  };
}

/** One table row, priced by the relay's own lookup for the viewed group. */
function rowOf(entry: PricingEntry, group: string, displayInCurrency: boolean): PricingRow[] {
  const priced = pricedModel(entry.model_name, group);
  if (!priced) return [];
  const prices = unitPrices(priced.pricing, priced.quotaPerUnit);
  const show = (quota: number) => formatPrice(quota, displayInCurrency, priced.quotaPerUnit);
  return [
    {
      name: entry.model_name,
      available: entry.enable_groups.includes(group),
      quotaType: entry.quota_type,
      modelRatio: entry.model_ratio,
      completionRatio: Number(entry.completion_ratio.toFixed(3)),
      cacheRatio: Number(entry.cache_ratio.toFixed(3)),
      createCacheRatio: Number(entry.create_cache_ratio.toFixed(3)),
      groupRatio: priced.pricing.groupRatio,
      groups: entry.enable_groups,
      price:
        prices.kind === "price"
          ? { kind: "price", perCall: show(prices.perCall) }
          : {
              kind: "ratio",
              prompt1K: show(prices.promptPer1K),
              completion1K: show(prices.completionPer1K),
              prompt1M: show(prices.promptPer1K * 1000),
              completion1M: show(prices.completionPer1K * 1000),
              ...(entry.cache_ratio === 1 ? {} : { cached1K: show(prices.cachedPer1K) }),
              ...(entry.create_cache_ratio === 1 ? {} : { cacheWrite1K: show(prices.cacheWritePer1K) }),
            },
    },
  ];
}

export default function Pricing() {
  return <PricingPage {...useLoaderData<typeof loader>()} />;
}
