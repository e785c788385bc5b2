import { Form, Link } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { messages } from "~/messages";
import { COPY_FORM_ID, groupHref, PricingTable, type PricingRow } from "./PricingTable";

type Props = {
  banner: string;
  viewing: string;
  formula: string;
  priceFormula: string;
  query: string;
  group: string;
  groups: { name: string; label: string; ratio: number }[];
  rows: PricingRow[];
  unpriced: string[];
  selection: { names: string[]; empty: boolean } | null;
};

/**
 * With the enhancement script the chosen names go straight to the clipboard; without it (or when
 * the clipboard refuses, or nothing is chosen) the form is submitted and the page shows them in a
 * box to copy by hand, or says that nothing was chosen.
 */
function CopySelectedButton() {
  const t = useT();
  return (
    <button
      type="submit"
      className="btn-secondary"
      data-copy-checked={`input[form="${COPY_FORM_ID}"][name="model"]`}
      data-copied-text={`${t(messages.copied)} {text}`}
      data-copied-into="#pricing-copied"
    >
      {t("复制选中模型")}
    </button>
  );
}

export function PricingPage(page: Props) {
  const usable = new Set(page.groups.map((g) => g.name));
  const selected = new Set(page.selection?.names ?? []);
  const t = useT();
  // The banner and formulas come from the loader finished (values in): read back in the reader's language.
  const message = useMessage();
  // A group's label is the operator's description, or the product's own 用户分组.
  const groupName = (g: { name: string; label: string }) =>
    g.label === g.name ? g.name : t("{{label}}（{{name}}）", { label: message(g.label), name: g.name });
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("模型价格")}</h1>
      <div
        role="status"
        data-testid="pricing-banner"
        className="rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-700 dark:bg-green-950 dark:text-green-100"
      >
        {message(page.banner)}
        {page.viewing ? <div data-testid="pricing-viewing">{message(page.viewing)}</div> : null}
      </div>
      <div
        className="rounded border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:border-blue-700 dark:bg-blue-950 dark:text-blue-100"
        data-testid="pricing-formula"
      >
        <div>{message(page.formula)}</div>
        <div>{message(page.priceFormula)}</div>
        <div>{t(messages.pricingCacheNote)}</div>
      </div>

      <nav aria-label={t("分组")} className="flex flex-wrap items-center gap-2 text-sm" data-testid="pricing-groups">
        <span className="text-gray-600 dark:text-gray-300">{t("分组：")}</span>
        {page.groups.map((g) =>
          g.name === page.group ? (
            <span key={g.name} aria-current="page" className="rounded bg-blue-600 px-2 py-1 text-white">
              {groupName(g)} ×{g.ratio}
            </span>
          ) : (
            <Link
              key={g.name}
              to={groupHref(g.name, page.query)}
              className="rounded border border-gray-300 px-2 py-1 hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800"
            >
              {groupName(g)} ×{g.ratio}
            </Link>
          ),
        )}
      </nav>

      <div className="flex flex-wrap items-end gap-2">
        <Form method="get" role="search" className="flex items-end gap-2">
          <input type="hidden" name="group" value={page.group} />
          <label className="text-sm">
            <span className="sr-only">{t("模型名称")}</span>
            <input
              type="search"
              name="q"
              defaultValue={page.query}
              maxLength={100}
              placeholder={t("模糊搜索模型名称")}
              className="input w-56"
            />
          </label>
          <button type="submit" className="btn-primary">
            {t("搜索")}
          </button>
          {page.query ? (
            <Link to={groupHref(page.group, "")} className="btn-secondary">
              {t("清除")}
            </Link>
          ) : null}
        </Form>
        <Form method="get" id={COPY_FORM_ID} className="flex items-end gap-2">
          <input type="hidden" name="group" value={page.group} />
          {page.query ? <input type="hidden" name="q" value={page.query} /> : null}
          <input type="hidden" name="copy" value="1" />
          <CopySelectedButton />
        </Form>
      </div>

      <FlashBanner type="success" message="" id="pricing-copied" hidden />
      {page.selection?.empty ? <FlashBanner type="error" message={t(messages.pricingNothingSelected)} /> : null}
      {page.selection && !page.selection.empty ? (
        <label className="card text-sm">
          {t("选中的模型（请手动复制）")}
          <textarea
            readOnly
            className="input mt-1 font-mono"
            rows={2}
            value={page.selection.names.join(",")}
            data-testid="pricing-selection"
          />
        </label>
      ) : null}

      <PricingTable rows={page.rows} group={page.group} query={page.query} usable={usable} selected={selected} />

      {page.unpriced.length > 0 ? (
        <p className="text-sm text-gray-500 dark:text-gray-400" data-testid="pricing-unpriced">
          {t(messages.pricingUnpriced)}
          {page.unpriced.join(t("，"))}
        </p>
      ) : null}
    </div>
  );
}
