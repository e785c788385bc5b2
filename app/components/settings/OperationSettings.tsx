import { Form } from "@remix-run/react";
import { ConfirmButton } from "~/components/ConfirmButton";
import { FlashBanner } from "~/components/FlashBanner";
import { useT } from "~/components/i18n/locale-context";
import type { loadOperationTab } from "~/web/settings/operation.server";
import { OptionCardForm, useOptionCardResult } from "./OptionCardForm";

type Props = { data: Awaited<ReturnType<typeof loadOperationTab>> };

/** 清除历史日志: a wall-clock time in the console's zone; the server refuses a missing one (请选择日志记录时间). */
function ClearLogsForm() {
  const t = useT();
  const result = useOptionCardResult("clear-logs");
  return (
    <Form method="post" className="mt-4 flex flex-col gap-2 border-t border-gray-200 pt-3 dark:border-gray-700">
      <input type="hidden" name="intent" value="clear-logs" />
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      <label className="label" htmlFor="clear-logs-before">
        {t("清除此时间之前的历史日志")}
      </label>
      <input
        id="clear-logs-before"
        name="before"
        type="datetime-local"
        step="1"
        className="input"
        required
        defaultValue={result?.values?.before ?? ""}
      />
      <button type="submit" className="btn-danger self-start">
        {t("清除历史日志")}
      </button>
    </Form>
  );
}

export function OperationSettings({ data }: Props) {
  const t = useT();
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      {data.cards.map((card) => (
        <OptionCardForm key={card.intent} card={card}>
          {card.intent === "log" ? <ClearLogsForm /> : null}
          {card.intent === "ratio" ? (
            <div className="mt-3">
              <ConfirmButton
                label={t("重置模型倍率")}
                question={t("确定要将模型倍率重置为默认值吗？")}
                intent="reset-model-ratio"
                confirmLabel={t("重置")}
                testId="reset-model-ratio"
              />
            </div>
          ) : null}
        </OptionCardForm>
      ))}
    </div>
  );
}
