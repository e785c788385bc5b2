import type { loadOperationTab } from "~/web/settings/operation.server";

type Props = { data: Awaited<ReturnType<typeof loadOperationTab>> };

/** 运营/系统/其他 cards are built in issue 12. */
export function OperationSettings(_props: Props) {
  return <section className="card">TODO</section>;
}
