import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { Pagination } from "~/components/Pagination";
import { TokenTable } from "~/components/tokens/TokenTable";
import { readChatPresets } from "~/domain/chats/chat-links";
import { options } from "~/domain/options/store.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import {
  deleteToken,
  listTokens,
  revealTokenKey,
  searchTokens,
  setTokenStatus,
  toTokenJson,
} from "~/domain/tokens/tokens.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { listPageUrl } from "~/utils/list-url";
import { requireUser } from "~/web/guards.server";
import { rememberedListPrefs } from "~/utils/prefs.server";
import { readForm, readId } from "~/utils/edge-input";
import { readPage } from "~/utils/pagination";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "令牌");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const keyword = url.searchParams.get("keyword") ?? "";
  const key = url.searchParams.get("token") ?? "";
  const prefs = await rememberedListPrefs(request, "token", "size");
  const { page } = readPage(url);
  const searching = Boolean(keyword.trim() || key.trim());
  const { items, total } = searching
    ? await searchTokens(user.id, keyword, key).then((rows) => ({ items: rows, total: rows.length }))
    : await listTokens(user.id, page, prefs.size);
  const body = {
    tokens: items.map(toTokenJson),
    total,
    page: searching ? 0 : page,
    size: searching ? Math.max(total, 1) : prefs.size,
    keyword,
    key,
    chats: readChatPresets(options.json("Chats")).map((c) => c.name),
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
  return data(body, prefs.setCookie ? { headers: { "Set-Cookie": prefs.setCookie } } : undefined);
}

type ActionResult = { error?: string; revealed?: { id: number; key: string }; copied?: string[] };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  // 0 names no row: an intent given a bad id answers "not found" like a missing one.
  const id = readId(form.get("id")) ?? 0;
  const back = listPageUrl(request, "/token");
  switch (intent) {
    case "reveal": {
      const key = await revealTokenKey(user.id, id);
      return data<ActionResult>(key ? { revealed: { id, key: `sk-${key}` } } : { error: "令牌不存在" });
    }
    case "copy-selected": {
      const ids = form
        .getAll("ids")
        .map(readId)
        .filter((n) => n !== undefined);
      if (ids.length === 0) return data<ActionResult>({ error: "请至少选择一个令牌！" }, { status: 400 });
      const keys = await Promise.all(ids.map((tokenId) => revealTokenKey(user.id, tokenId)));
      return data<ActionResult>({ copied: keys.filter((k): k is string => Boolean(k)).map((k) => `sk-${k}`) });
    }
    case "enable":
    case "disable": {
      const result = await setTokenStatus(
        user.id,
        id,
        intent === "enable" ? TOKEN_STATUS.enabled : TOKEN_STATUS.disabled,
      );
      return result.ok
        ? redirectWithFlash(back, { type: "success", message: "操作成功完成！" })
        : data<ActionResult>({ error: result.message }, { status: 400 });
    }
    case "delete": {
      const result = await deleteToken(user.id, id);
      return result.ok
        ? redirectWithFlash(back, { type: "success", message: "操作成功完成！" })
        : data<ActionResult>({ error: result.message }, { status: 400 });
    }
    default:
      return data<ActionResult>({ error: "未知操作" }, { status: 400 });
  }
}

export default function TokenPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("我的令牌")}</h1>
      <p className="rounded border border-yellow-300 bg-yellow-50 px-3 py-2 text-sm text-yellow-900 dark:border-yellow-700 dark:bg-yellow-950 dark:text-yellow-100">
        {t("令牌无法精确控制使用额度，只允许自用，请勿直接将令牌分发给用户。")}
      </p>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      {result?.copied ? (
        <div className="card">
          <label className="label" htmlFor="copied-keys">
            {t("已选令牌的密钥（可直接复制）")}
          </label>
          <textarea
            id="copied-keys"
            readOnly
            rows={Math.min(8, result.copied.length)}
            className="input font-mono"
            value={result.copied.join("\n")}
            data-testid="copied-keys"
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-end gap-2">
        <Form method="get" className="flex w-full flex-wrap items-end gap-2 sm:w-auto" role="search">
          <input
            name="keyword"
            defaultValue={page.keyword}
            placeholder={t("搜索令牌的名称 ...")}
            className="input w-full sm:w-48"
            aria-label={t("令牌名称")}
          />
          <input
            name="token"
            defaultValue={page.key}
            placeholder={t("搜索令牌的密钥 ...")}
            className="input min-w-0 flex-1 sm:w-56 sm:flex-none"
            aria-label={t("令牌密钥")}
          />
          <button type="submit" className="btn-secondary">
            {t("查询")}
          </button>
        </Form>
        <Link to="/token/add" className="btn-primary ml-auto">
          {t("添加令牌")}
        </Link>
        {/* Row checkboxes join this form through their form= attribute, so it works without JS;
            with the enhancement script the keys the answer shows go straight to the clipboard. */}
        <Form method="post" id="token-selection" className="hidden" data-copy-reply="#copied-keys" />
        <button type="submit" form="token-selection" name="intent" value="copy-selected" className="btn-secondary">
          {t("复制所选令牌到剪贴板")}
        </button>
      </div>
      <TokenTable
        tokens={page.tokens}
        revealed={result?.revealed}
        chats={page.chats}
        displayInCurrency={page.displayInCurrency}
        quotaPerUnit={page.quotaPerUnit}
      />
      <Pagination page={page.page} size={page.size} total={page.total} />
    </div>
  );
}
