import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { messages } from "~/messages";
import { cardView, saveCard, type CardResult } from "./card-save.server";
import type { OptionCard } from "./option-cards.server";
import type { OptionKey } from "~/domain/options/registry";

/** 其他设置: one form per site text, each with its own success and failure message (docs/product.md, Settings). */
type SiteTextCard = OptionCard & { saved: string; failed: string };

const card = (
  intent: string,
  title: string,
  key: OptionKey,
  kind: "text" | "textarea",
  saved: string,
  failed: string,
  help: string,
): SiteTextCard => ({
  intent,
  title,
  fields: [{ key, label: title, kind, help }],
  saved,
  failed,
});

export const SITE_TEXT_CARDS: readonly SiteTextCard[] = [
  card(
    "notice",
    "公告",
    "Notice",
    "textarea",
    messages.noticeUpdated,
    messages.noticeUpdateFailed,
    "在首页顶部展示给所有人，支持 Markdown（不执行 HTML）",
  ),
  card(
    "system-name",
    "系统名称",
    "SystemName",
    "text",
    messages.systemNameUpdated,
    messages.systemNameUpdateFailed,
    "显示在顶栏与页面标题",
  ),
  card(
    "logo",
    "Logo",
    "Logo",
    "text",
    messages.logoUpdated,
    messages.logoUpdateFailed,
    "图片的 http(s) 地址或以 / 开头的站内路径，留空使用默认图标",
  ),
  card(
    "home",
    "首页内容",
    "HomePageContent",
    "textarea",
    messages.homePageUpdated,
    messages.homePageUpdateFailed,
    "支持 Markdown；填入一个 https:// 链接则以 iframe 展示该页面",
  ),
  card(
    "about",
    "关于",
    "About",
    "textarea",
    messages.aboutUpdated,
    messages.aboutUpdateFailed,
    "支持 Markdown；填入一个 https:// 链接则以 iframe 展示该页面",
  ),
  card(
    "footer",
    "页脚",
    "Footer",
    "textarea",
    messages.footerUpdated,
    messages.footerUpdateFailed,
    "HTML，显示在每个页面底部；留空使用默认页脚",
  ),
];

/** The other tab (root only; the route has checked the role). */
export async function loadOtherTab(_user: User, _request: Request) {
  return { cards: SITE_TEXT_CARDS.map(cardView) };
}

export async function otherTabAction(_user: User, intent: string, form: FormData, _request: Request) {
  const found = SITE_TEXT_CARDS.find((c) => c.intent === intent);
  if (!found) return data<CardResult>({ intent, error: "未知的操作" }, { status: 400 });
  return saveCard(found, form, {
    tabUrl: "/setting?tab=other",
    successMessage: found.saved,
    failureMessage: found.failed,
    unchangedIsSuccess: true,
  });
}
