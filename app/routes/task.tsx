import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { StatusTag, type Tone } from "~/components/StatusTag";
import { TaskFilterForm } from "~/components/tasks/TaskFilterForm";
import { Duration, ProgressBar, TaskPager } from "~/components/tasks/TaskPager";
import { useTimeZone } from "~/components/useTimeZone";
import { listSunoTasks, toTaskJson } from "~/domain/tasks/suno.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { formatTimestamp } from "~/utils/time-zone";
import { requireUser } from "~/web/guards.server";
import { pageTaskFilter } from "~/web/task-filters.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "异步任务");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const isAdmin = user.role >= ROLE_ADMIN;
  const { filter, values, page } = pageTaskFilter(request, "task", isAdmin ? "all" : { userId: user.id });
  const list = await listSunoTasks(filter, page);
  return { tasks: list.items.map(toTaskJson), hasMore: list.hasMore, page, filters: values, isAdmin };
}

const ACTIONS: Record<string, string> = { MUSIC: "生成音乐", LYRICS: "生成歌词" };
const STATES: Record<string, { label: string; tone: Tone }> = {
  SUCCESS: { label: "成功", tone: "green" },
  NOT_START: { label: "未启动", tone: "gray" },
  SUBMITTED: { label: "队列中", tone: "yellow" },
  IN_PROGRESS: { label: "执行中", tone: "blue" },
  FAILURE: { label: "失败", tone: "red" },
  QUEUED: { label: "排队中", tone: "yellow" },
  UNKNOWN: { label: "未知", tone: "gray" },
  "": { label: "正在提交", tone: "gray" },
};

export default function TaskPage() {
  const page = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  const t = useT();
  // A failure reason is the relay's own Chinese or an upstream's words: read back where the catalog knows it.
  const message = useMessage();
  const f = page.filters;
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("异步任务")}</h1>
      <TaskFilterForm isAdmin={page.isAdmin} filters={f} />
      <div className="card overflow-x-auto p-0">
        <table className="w-full text-left text-sm" data-testid="task-table">
          <thead className="bg-gray-50 dark:bg-gray-800">
            <tr>
              <th className="p-2">{t("提交时间")}</th>
              <th className="p-2">{t("结束时间")}</th>
              <th className="p-2">{t("进度")}</th>
              <th className="p-2">{t("花费时间")}</th>
              {page.isAdmin ? <th className="p-2">{t("渠道", { context: "single" })}</th> : null}
              <th className="p-2">{t("平台")}</th>
              <th className="p-2">{t("类型")}</th>
              <th className="p-2">{t("任务ID")}</th>
              <th className="p-2">{t("任务状态")}</th>
              <th className="p-2">{t("失败原因")}</th>
            </tr>
          </thead>
          <tbody>
            {page.tasks.length === 0 ? (
              <tr>
                <td colSpan={10} className="p-4 text-center text-gray-500">
                  {t("暂无数据")}
                </td>
              </tr>
            ) : (
              page.tasks.map((task) => {
                const state = STATES[task.status] ?? { label: task.status, tone: "gray" as Tone };
                return (
                  <tr
                    key={task.id}
                    className="border-t border-gray-100 align-top dark:border-gray-800"
                    data-testid="task-row"
                  >
                    <td className="whitespace-nowrap p-2">{formatTimestamp(task.submit_time, timeZone)}</td>
                    <td className="whitespace-nowrap p-2">{formatTimestamp(task.finish_time, timeZone)}</td>
                    <td className="p-2">
                      <ProgressBar progress={task.progress} failed={task.status === "FAILURE"} />
                    </td>
                    <td className="p-2">
                      <Duration
                        seconds={
                          task.finish_time > 0 && task.submit_time > 0 ? task.finish_time - task.submit_time : undefined
                        }
                      />
                    </td>
                    {page.isAdmin ? <td className="p-2">{task.channel_id}</td> : null}
                    <td className="p-2">
                      <StatusTag tone="green">{task.platform === "suno" ? "Suno" : task.platform}</StatusTag>
                    </td>
                    <td className="p-2">
                      <StatusTag tone="blue">{ACTIONS[task.action] ? t(ACTIONS[task.action]!) : task.action}</StatusTag>
                    </td>
                    <td className="p-2 font-mono text-xs">
                      {/* A click shows the whole record; <details> opens without JavaScript. */}
                      <details>
                        <summary className="cursor-pointer text-blue-600 dark:text-blue-400">{task.task_id}</summary>
                        <pre
                          className="mt-1 max-h-64 max-w-md overflow-auto whitespace-pre-wrap rounded bg-gray-50 p-2 dark:bg-gray-900"
                          data-testid="task-record"
                        >
                          {JSON.stringify(task.data ?? null, null, 2)}
                        </pre>
                      </details>
                    </td>
                    <td className="p-2">
                      <StatusTag tone={state.tone}>{t(state.label)}</StatusTag>
                    </td>
                    <td
                      className={`min-w-24 max-w-xs break-words p-2 ${task.fail_reason ? "text-red-700 dark:text-red-400" : "text-gray-500 dark:text-gray-400"}`}
                    >
                      {task.fail_reason ? message(task.fail_reason) : t("无")}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      <TaskPager page={page.page} hasMore={page.hasMore} filters={f} />
    </div>
  );
}
