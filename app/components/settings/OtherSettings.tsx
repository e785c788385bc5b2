import type { loadOtherTab } from "~/web/settings/other.server";
import { OptionCardForm } from "./OptionCardForm";

type Props = { data: Awaited<ReturnType<typeof loadOtherTab>> };

/** 公告, 系统名称, Logo, 首页内容, 关于, 页脚: each its own form and message. */
export function OtherSettings({ data }: Props) {
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      {data.cards.map((card) => (
        <OptionCardForm key={card.intent} card={card} />
      ))}
    </div>
  );
}
