import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { StatusTag, type Tone } from "~/components/StatusTag";
import { TaskFilterForm } from "~/components/tasks/TaskFilterForm";
import { Duration, ProgressBar, TaskPager } from "~/components/tasks/TaskPager";
import { useTimeZone } from "~/components/useTimeZone";
import { options } from "~/domain/options/store.server";
import { listMjTasks, toMjJson } from "~/domain/tasks/midjourney.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { formatTimestamp } from "~/utils/time-zone";
import { requireUser } from "~/web/guards.server";
import { pageTaskFilter } from "~/web/task-filters.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "绘图日志");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const isAdmin = user.role >= ROLE_ADMIN;
  const { filter, values, page } = pageTaskFilter(request, "mj", isAdmin ? "all" : { userId: user.id });
  const list = await listMjTasks(filter, page);
  return {
    tasks: list.items.map(toMjJson),
    hasMore: list.hasMore,
    page,
    filters: values,
    isAdmin,
    notifyEnabled: options.bool("MjNotifyEnabled"),
  };
}

// The reference console's wording for actions, submit codes and states.
const ACTIONS: Record<string, { label: string; tone: Tone }> = {
  IMAGINE: { label: "绘图", tone: "blue" },
  UPSCALE: { label: "放大", tone: "yellow" },
  VARIATION: { label: "变换", tone: "lime" },
  HIGH_VARIATION: { label: "强变换", tone: "lime" },
  LOW_VARIATION: { label: "弱变换", tone: "lime" },
  PAN: { label: "平移", tone: "blue" },
  DESCRIBE: { label: "图生文", tone: "yellow" },
  BLEND: { label: "图混合", tone: "lime" },
  SHORTEN: { label: "缩词", tone: "gray" },
  REROLL: { label: "重绘", tone: "blue" },
  INPAINT: { label: "局部重绘-提交", tone: "gray" },
  ZOOM: { label: "变焦", tone: "gray" },
  CUSTOM_ZOOM: { label: "自定义变焦-提交", tone: "gray" },
  MODAL: { label: "窗口处理", tone: "gray" },
  SWAP_FACE: { label: "换脸", tone: "lime" },
  UPLOAD: { label: "上传文件", tone: "blue" },
};
const CODES: Record<number, { label: string; tone: Tone }> = {
  1: { label: "已提交", tone: "green" },
  21: { label: "等待中", tone: "lime" },
  22: { label: "重复提交", tone: "yellow" },
  0: { label: "未提交", tone: "yellow" },
};
const STATES: Record<string, { label: string; tone: Tone }> = {
  SUCCESS: { label: "成功", tone: "green" },
  NOT_START: { label: "未启动", tone: "gray" },
  SUBMITTED: { label: "队列中", tone: "yellow" },
  IN_PROGRESS: { label: "执行中", tone: "blue" },
  FAILURE: { label: "失败", tone: "red" },
  MODAL: { label: "窗口等待", tone: "yellow" },
};

export default function MidjourneyPage() {
  const page = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  const t = useT();
  // A failure reason is the relay's own Chinese or an upstream's words: read back where the catalog knows it.
  const message = useMessage();
  const f = page.filters;
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("绘图日志")}</h1>
      {page.isAdmin && !page.notifyEnabled ? (
        <p
          className="rounded border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:border-blue-700 dark:bg-blue-950 dark:text-blue-100"
          role="status"
          data-testid="mj-notify-banner"
        >
          {t("当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。")}
        </p>
      ) : null}
      <TaskFilterForm isAdmin={page.isAdmin} filters={f} />
      <div className="card overflow-x-auto p-0">
        <table className="w-full text-left text-sm" data-testid="mj-table">
          <thead className="bg-gray-50 dark:bg-gray-800">
            <tr>
              <th className="p-2">{t("提交时间")}</th>
              <th className="p-2">{t("花费时间")}</th>
              {page.isAdmin ? <th className="p-2">{t("渠道", { context: "single" })}</th> : null}
              <th className="p-2">{t("类型")}</th>
              <th className="p-2">{t("任务ID")}</th>
              {page.isAdmin ? <th className="p-2">{t("提交结果")}</th> : null}
              {page.isAdmin ? <th className="p-2">{t("任务状态")}</th> : null}
              <th className="p-2">{t("进度")}</th>
              <th className="p-2">{t("结果图片")}</th>
              <th className="p-2">Prompt</th>
              <th className="p-2">PromptEn</th>
              <th className="p-2">{t("失败原因")}</th>
            </tr>
          </thead>
          <tbody>
            {page.tasks.length === 0 ? (
              <tr>
                <td colSpan={12} className="p-4 text-center text-gray-500">
                  {t("暂无数据")}
                </td>
              </tr>
            ) : (
              page.tasks.map((task) => {
                const action = ACTIONS[task.action] ?? { label: task.action || "未知", tone: "gray" as Tone };
                const code = CODES[task.code] ?? { label: `${task.code}`, tone: "red" as Tone };
                const state = STATES[task.status] ?? { label: task.status || "未知", tone: "gray" as Tone };
                return (
                  <tr
                    key={task.id}
                    className="border-t border-gray-100 align-top dark:border-gray-800"
                    data-testid="mj-row"
                  >
                    <td className="whitespace-nowrap p-2">
                      {formatTimestamp(Math.floor(task.submit_time / 1000), timeZone)}
                    </td>
                    <td className="p-2">
                      <Duration
                        seconds={
                          task.finish_time > 0 && task.submit_time > 0
                            ? (task.finish_time - task.submit_time) / 1000
                            : undefined
                        }
                      />
                    </td>
                    {page.isAdmin ? <td className="p-2">{task.channel_id}</td> : null}
                    <td className="p-2">
                      <StatusTag tone={action.tone}>{t(action.label)}</StatusTag>
                    </td>
                    <td className="p-2 font-mono text-xs">{task.mj_id}</td>
                    {page.isAdmin ? (
                      <td className="p-2">
                        <StatusTag tone={code.tone}>{t(code.label)}</StatusTag>
                      </td>
                    ) : null}
                    {page.isAdmin ? (
                      <td className="p-2">
                        <StatusTag tone={state.tone}>{t(state.label)}</StatusTag>
                      </td>
                    ) : null}
                    <td className="p-2">
                      <ProgressBar progress={task.progress} failed={task.status === "FAILURE"} />
                    </td>
                    <td className="p-2">
                      {task.image_url ? (
                        <details>
                          <summary className="cursor-pointer whitespace-nowrap text-blue-600 dark:text-blue-400">
                            {t("查看图片")}
                          </summary>
                          <a href={task.image_url} target="_blank" rel="noreferrer">
                            <img
                              src={task.image_url}
                              alt={t("任务 {{id}} 的图片", { id: task.mj_id })}
                              className="mt-1 max-h-64 max-w-xs rounded"
                              loading="lazy"
                            />
                          </a>
                        </details>
                      ) : (
                        t("无")
                      )}
                    </td>
                    <td className="max-w-xs break-words p-2">{task.prompt}</td>
                    <td className="max-w-xs break-words p-2">{task.prompt_en}</td>
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
