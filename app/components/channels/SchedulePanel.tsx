import { useTimeZone } from "~/components/useTimeZone";
import type { ScheduleView } from "~/domain/jobs/schedule";
import { formatTimestamp } from "~/utils/time-zone";
import { useMessage, useT } from "~/components/i18n/locale-context";

export type ScheduleRowData = ScheduleView;

const OUTCOME_TEXT: Record<string, string> = { ok: "成功", failed: "失败", running: "运行中" };

/** The background schedules: each one's last run, its outcome and when it runs next (decision 029). */
export function SchedulePanel({ schedules }: { schedules: readonly ScheduleRowData[] }) {
  const t = useT();
  const message = useMessage();
  const timeZone = useTimeZone();
  const at = (seconds?: number) => (seconds ? formatTimestamp(seconds, timeZone) : "-");
  return (
    <details className="card text-sm" data-testid="schedule-panel">
      <summary className="cursor-pointer font-semibold">{t("定时任务")}</summary>
      {/* A narrow screen scrolls the table sideways rather than breaking a job's name over lines. */}
      <div className="mt-2 overflow-x-auto">
        <table className="w-full border-collapse whitespace-nowrap">
          <thead>
            <tr className="border-b border-gray-200 text-left dark:border-gray-700">
              <th className="p-1">{t("任务")}</th>
              <th className="p-1">{t("上次运行")}</th>
              <th className="p-1">{t("结果")}</th>
              <th className="p-1">{t("下次运行")}</th>
            </tr>
          </thead>
          <tbody>
            {schedules.map((s) => (
              <tr
                key={s.name}
                data-testid={`schedule-${s.name}`}
                className="border-b border-gray-100 dark:border-gray-800"
              >
                {/* The job's Chinese label, from the job definitions: its English is in the channel pages' catalog. */}
                <td className="p-1">{t(s.label)}</td>
                <td className="p-1">{at(s.lastRunAt)}</td>
                <td className="p-1" title={message(s.message)}>
                  {s.outcome ? t(OUTCOME_TEXT[s.outcome] ?? s.outcome) : "-"}
                </td>
                <td className="p-1">{s.off ? t("未启用") : at(s.nextRunAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
