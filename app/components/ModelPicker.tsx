import { groupModels } from "~/utils/model-families";
import { useT } from "~/components/i18n/locale-context";

type Props = {
  /** The field the server reads: one `name=value` per chosen model, as a multi-select posts. */
  name: string;
  legend: string;
  /** Every model offered, in the catalogue's order. */
  models: readonly string[];
  chosen: ReadonlySet<string>;
  testId?: string;
};

/**
 * A long model list made usable on a phone (docs/decisions/043): checkboxes grouped by maker in
 * <details>, each group's summary saying how many of it are chosen. Without JavaScript it is a
 * plain form: open a group, tick, submit; groups holding a chosen model start open, so what is
 * chosen shows. The enhancement script (enhance-model-picker.js) adds a search box that filters
 * the list in place and keeps the counts current.
 */
export function ModelPicker({ name, legend, models, chosen, testId }: Props) {
  const groups = groupModels(models);
  // One group (a short list) needs no folding.
  const single = groups.length === 1;
  const chosenCount = models.filter((m) => chosen.has(m)).length;
  const t = useT();
  return (
    <fieldset className="min-w-0" data-model-picker="" data-testid={testId}>
      <legend className="label">{legend}</legend>
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <input
          type="search"
          className="input max-w-xs flex-1"
          placeholder={t("搜索模型")}
          aria-label={t("搜索{{what}}", { what: legend })}
          data-model-search=""
          data-js-only=""
          hidden
        />
        <span
          className="text-xs text-gray-500"
          data-picker-count=""
          data-count-template={t("已选 {{chosen}} / {{total}}", { chosen: "{chosen}", total: "{total}" })}
        >
          {t("已选 {{chosen}} / {{total}}", { chosen: chosenCount, total: models.length })}
        </span>
      </div>
      <div className="max-h-96 overflow-y-auto rounded border border-gray-300 dark:border-gray-600">
        {models.length === 0 ? <p className="p-2 text-sm text-gray-500">{t("暂无可选模型")}</p> : null}
        {groups.map((group) => {
          const inGroup = group.models.filter((m) => chosen.has(m)).length;
          return (
            <details
              key={group.family}
              open={single || inGroup > 0}
              data-model-group=""
              className="border-b border-gray-200 last:border-b-0 dark:border-gray-700"
            >
              <summary className="cursor-pointer select-none px-2 py-2 text-sm font-medium">
                {t(group.family)}{" "}
                <span className="text-xs font-normal text-gray-500" data-group-count="">
                  {inGroup}/{group.models.length}
                </span>
              </summary>
              <div className="grid grid-cols-1 gap-x-4 px-2 pb-2 sm:grid-cols-2">
                {group.models.map((model) => (
                  <label
                    key={model}
                    className="flex min-w-0 items-center gap-2 py-1 font-mono text-sm break-all"
                    data-model={model}
                  >
                    <input
                      type="checkbox"
                      name={name}
                      value={model}
                      defaultChecked={chosen.has(model)}
                      className="shrink-0"
                    />
                    {model}
                  </label>
                ))}
              </div>
            </details>
          );
        })}
      </div>
    </fieldset>
  );
}
