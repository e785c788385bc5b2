import type { loadOtherTab } from "~/web/settings/other.server";

type Props = { data: Awaited<ReturnType<typeof loadOtherTab>> };

/** 运营/系统/其他 cards are built in issue 12. */
export function OtherSettings(_props: Props) {
  return <section className="card">TODO</section>;
}
