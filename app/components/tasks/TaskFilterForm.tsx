import { Form } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";

/** The drawing and task logs' search: channel (admins), task id and a time range, as a GET form. */
export function TaskFilterForm({
  isAdmin,
  filters,
}: {
  isAdmin: boolean;
  filters: { channel_id?: string; task_id?: string; start?: string; end?: string };
}) {
  const t = useT();
  const f = filters;
  return (
    <Form method="get" className="card grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-5" role="search">
      {isAdmin ? (
        <label className="text-sm">
          {t("渠道 ID")}
          <input name="channel_id" inputMode="numeric" defaultValue={f.channel_id} className="input" />
        </label>
      ) : null}
      <label className="text-sm">
        {t("任务 ID")}
        <input name="task_id" defaultValue={f.task_id} className="input" />
      </label>
      <label className="text-sm">
        {t("起始时间")}
        <input type="datetime-local" name="start" defaultValue={f.start} className="input" />
      </label>
      <label className="text-sm">
        {t("结束时间")}
        <input type="datetime-local" name="end" defaultValue={f.end} className="input" />
      </label>
      <div className="flex items-end">
        <button type="submit" className="btn-primary">
          {t("查询")}
        </button>
      </div>
    </Form>
  );
}
