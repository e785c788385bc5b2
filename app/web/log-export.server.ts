import { logBatches } from "~/domain/logs/log-search.server";
import type { LogFilter } from "~/domain/logs/logs.server";
import type { Locale } from "~/i18n/locale";
import { pageText, translateText } from "~/i18n/translate";
import { csvLine, UTF8_BOM } from "~/utils/csv";
import { formatTimestamp } from "~/utils/time-zone";

const TYPE_LABELS: Record<number, string> = { 1: "充值", 2: "消费", 3: "管理", 4: "系统" };

/**
 * The filtered log as a CSV download, streamed: each batch of rows is read (by keyset, see
 * logBatches) only as the client takes the previous ones, so memory stays at two batches
 * whatever the size of the export, and the first rows leave before the last are read.
 */
export function logCsvResponse(
  filter: LogFilter,
  forAdmin: boolean,
  timeZone: string,
  locale: Locale,
  now = new Date(),
): Response {
  // Headers and cell words in the requester's language; a row's content is its stored Chinese line, read back.
  const text = (key: string) => pageText(locale, key);
  const header = [
    "时间",
    ...(forAdmin ? ["渠道", "用户"] : []),
    "令牌",
    "类型",
    "模型",
    "用时(秒)",
    "流式",
    "提示",
    "补全",
    "额度",
    "详情",
  ].map(text);
  const encoder = new TextEncoder();
  const batches = logBatches(filter);
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(UTF8_BOM + csvLine(header)));
          return;
        }
        try {
          const next = await batches.next();
          if (next.done) {
            controller.close();
            return;
          }
          let chunk = "";
          for (const row of next.value) {
            chunk += csvLine([
              formatTimestamp(row.created_at, timeZone),
              ...(forAdmin ? [row.channel_id, row.username] : []),
              row.token_name,
              text(TYPE_LABELS[row.type] ?? "未知"),
              row.model_name,
              row.use_time,
              text(row.is_stream ? "是" : "否"),
              row.prompt_tokens,
              row.completion_tokens,
              row.quota,
              translateText(locale, row.content),
            ]);
          }
          controller.enqueue(encoder.encode(chunk));
        } catch (error) {
          // Headers are gone already: the download ends short instead of a 500 page.
          console.error(`[logs] CSV export failed: ${(error as Error).message}`);
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    // One batch read ahead while the previous one is written out: the database and the
    // network overlap, and memory stays at two batches.
    { highWaterMark: 1 },
  );
  const date = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-${String(now.getUTCDate()).padStart(2, "0")}`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="logs-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
