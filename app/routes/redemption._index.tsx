import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { Pagination } from "~/components/Pagination";
import { useTimeZone } from "~/components/useTimeZone";
import { RedemptionTable, redeemerLabel, type RedemptionRow } from "~/components/redemptions/RedemptionTable";
import { options } from "~/domain/options/store.server";
import {
  REDEMPTION_STATUS,
  redemptionMessages,
  redemptionStatusLabel,
} from "~/domain/redemptions/redemption-constants";
import {
  deleteRedemption,
  describeRedemption,
  getRedemption,
  listRedemptions,
  redeemerNames,
  searchRedemptions,
  setRedemptionStatus,
  toRedemptionJson,
} from "~/domain/redemptions/redemptions.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { messages } from "~/messages";
import { readForm, readId } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { listPageUrl } from "~/utils/list-url";
import { renderQuota } from "~/utils/format";
import { readPage } from "~/utils/pagination";
import { formatTimestamp } from "~/utils/time-zone";
import { requireRole } from "~/web/guards.server";
import { requestLocale } from "~/i18n/locale";
import { pageText } from "~/i18n/translate";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "兑换码");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const url = new URL(request.url);
  const keyword = url.searchParams.get("keyword") ?? "";
  const { page, size } = readPage(url, "size");
  const searching = Boolean(keyword.trim());
  const { items, total } = searching
    ? await searchRedemptions(keyword).then((rows) => ({ items: rows, total: rows.length }))
    : await listRedemptions(page, size);
  return {
    rows: items.map(toRedemptionJson),
    redeemers: await redeemerNames(items),
    total,
    page: searching ? 0 : page,
    size: searching ? Math.max(total, 1) : size,
    keyword,
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}

type ActionResult = {
  error?: string;
  viewed?: RedemptionRow & { redeemers: Record<number, string> };
  copied?: string[];
};

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  // 0 names no row: an intent given a bad id answers "not found" like a missing one.
  const id = readId(form.get("id")) ?? 0;
  const back = listPageUrl(request, "/redemption");
  const done = () => redirectWithFlash(back, { type: "success", message: messages.operationDone });
  const refused = (message: string) => data<ActionResult>({ error: message }, { status: 400 });
  switch (intent) {
    case "view": {
      const row = await getRedemption(id);
      if (!row) return refused(redemptionMessages.notFound);
      return data<ActionResult>({ viewed: { ...toRedemptionJson(row), redeemers: await redeemerNames([row]) } });
    }
    case "copy":
    case "copy-selected": {
      const ids =
        intent === "copy"
          ? [id]
          : form
              .getAll("ids")
              .map(readId)
              .filter((n) => n !== undefined);
      if (ids.length === 0) return refused(redemptionMessages.selectFirst);
      const rows = (await Promise.all(ids.slice(0, 100).map(getRedemption))).filter((r) => r !== undefined);
      if (rows.length === 0) return refused(redemptionMessages.notFound);
      // Copied text, not page markup: the status word is put in the reader's language here.
      const locale = requestLocale(request);
      return data<ActionResult>({
        copied: rows.map((r) => describeRedemption(r, pageText(locale, redemptionStatusLabel(r.status).label))),
      });
    }
    case "enable":
    case "disable": {
      const result = await setRedemptionStatus(
        id,
        intent === "enable" ? REDEMPTION_STATUS.unused : REDEMPTION_STATUS.disabled,
      );
      return result.ok ? done() : refused(result.message);
    }
    case "delete": {
      const result = await deleteRedemption(id);
      return result.ok ? done() : refused(result.message);
    }
    default:
      return refused("未知操作");
  }
}

function ViewedCode({
  row,
  displayInCurrency,
  quotaPerUnit,
}: {
  row: NonNullable<ActionResult["viewed"]>;
  displayInCurrency: boolean;
  quotaPerUnit: number;
}) {
  const timeZone = useTimeZone();
  const t = useT();
  const items: [string, string][] = [
    ["ID", String(row.id)],
    ["名称", row.name],
    ["兑换码", row.key],
    ["状态", t(redemptionStatusLabel(row.status).label)],
    ["额度", renderQuota(row.quota, displayInCurrency, quotaPerUnit)],
    ["创建时间", formatTimestamp(row.created_time, timeZone)],
    ["兑换时间", row.redeemed_time ? formatTimestamp(row.redeemed_time, timeZone) : t("无")],
    ["兑换人ID", redeemerLabel(row, row.redeemers, t)],
  ];
  return (
    <div className="card" data-testid="redemption-view">
      <h2 className="mb-2 font-semibold">{t("兑换码详情")}</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {items.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-gray-500">{t(label)}</dt>
            <dd className={label === "兑换码" ? "font-mono" : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-gray-500">
        {t("兑换码只在创建时显示一次；系统只保存其哈希，此处仅显示首尾四位。")}
      </p>
    </div>
  );
}

export default function RedemptionPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("兑换码")}</h1>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      {result?.viewed ? (
        <ViewedCode row={result.viewed} displayInCurrency={page.displayInCurrency} quotaPerUnit={page.quotaPerUnit} />
      ) : null}
      {result?.copied ? (
        <div className="card">
          <label className="label" htmlFor="copied-codes">
            {t("已选兑换码（可直接复制；密钥本身只在创建时显示）")}
          </label>
          <textarea
            id="copied-codes"
            readOnly
            rows={Math.min(8, result.copied.length)}
            className="input font-mono"
            value={result.copied.join("\n")}
            data-testid="copied-codes"
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-end gap-2">
        <Form method="get" className="flex w-full flex-wrap items-end gap-2 sm:w-auto" role="search">
          <input
            name="keyword"
            defaultValue={page.keyword}
            placeholder={t("搜索兑换码的 ID 和名称 ...")}
            className="input min-w-0 flex-1 sm:w-64 sm:flex-none"
            aria-label={t("兑换码 ID 或名称")}
          />
          <button type="submit" className="btn-secondary">
            {t("查询")}
          </button>
        </Form>
        <Link to="/redemption/add" className="btn-primary ml-auto">
          {t("添加新的兑换码")}
        </Link>
        {/* Row checkboxes join this form through their form= attribute, so it works without JS;
            with the enhancement script the lines the answer shows go straight to the clipboard. */}
        <Form method="post" id="redemption-selection" className="hidden" data-copy-reply="#copied-codes" />
        <button type="submit" form="redemption-selection" name="intent" value="copy-selected" className="btn-secondary">
          {t("复制所选兑换码到剪贴板")}
        </button>
      </div>
      <RedemptionTable
        rows={page.rows}
        redeemers={page.redeemers}
        displayInCurrency={page.displayInCurrency}
        quotaPerUnit={page.quotaPerUnit}
        selectionForm="redemption-selection"
      />
      <Pagination page={page.page} size={page.size} total={page.total} />
    </div>
  );
}
