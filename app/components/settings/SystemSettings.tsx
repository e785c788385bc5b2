import type { loadSystemTab } from "~/web/settings/system.server";

type Props = { data: Awaited<ReturnType<typeof loadSystemTab>> };

/** 运营/系统/其他 cards are built in issue 12. */
export function SystemSettings(_props: Props) {
  return <section className="card">TODO</section>;
}
