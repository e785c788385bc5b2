import type { loadSystemTab } from "~/web/settings/system.server";
import { OptionCardForm } from "./OptionCardForm";

type Props = { data: Awaited<ReturnType<typeof loadSystemTab>> };

/** Secrets show only 已设置 / 未设置; an empty secret box keeps the stored one. */
export function SystemSettings({ data }: Props) {
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      {data.cards.map((card) => (
        <OptionCardForm key={card.intent} card={card} />
      ))}
    </div>
  );
}
