import { getInputProps, getTextareaProps } from "@conform-to/react";
import { useT } from "~/components/i18n/locale-context";
import { MODEL_MAPPING_TEMPLATE, STATUS_CODE_MAPPING_TEMPLATE } from "~/domain/channels/channel-form-helpers";
import { Err, HelperButton, type ChannelFormFields } from "./channel-form-parts";

/** The channel form's fields past the models: the mappings, how it is tested and chosen, each key's limits. */
export function ChannelTuningFields({ fields }: { fields: ChannelFormFields }) {
  const t = useT();
  return (
    <>
      <div>
        <label className="label" htmlFor={fields.model_mapping.id}>
          {t("模型重定向")}
        </label>
        <textarea
          {...getTextareaProps(fields.model_mapping)}
          className="input font-mono"
          rows={4}
          placeholder={t("此项可选，用于修改请求体中的模型名称，为一个 JSON 字符串，例如：\n{{template}}", {
            template: MODEL_MAPPING_TEMPLATE,
          })}
        />
        <Err errors={fields.model_mapping.errors} />
        <div className="mt-1">
          <HelperButton intent="template-model-mapping">{t("填入模板")}</HelperButton>
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.status_code_mapping.id}>
          {t("状态码复写")}
        </label>
        <textarea
          {...getTextareaProps(fields.status_code_mapping)}
          className="input font-mono"
          rows={3}
          placeholder={t("此项可选，用于复写返回的状态码，例如：\n{{template}}", {
            template: STATUS_CODE_MAPPING_TEMPLATE,
          })}
        />
        <Err errors={fields.status_code_mapping.errors} />
        <div className="mt-1">
          <HelperButton intent="template-status-code-mapping">{t("填入模板")}</HelperButton>
        </div>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div>
          <label className="label" htmlFor={fields.test_model.id}>
            {t("默认测试模型")}
          </label>
          <input
            {...getInputProps(fields.test_model, { type: "text" })}
            className="input"
            placeholder={t("不填则为模型列表第一个")}
          />
        </div>
        <div>
          <label className="label" htmlFor={fields.priority.id}>
            {t("优先级")}
          </label>
          <input {...getInputProps(fields.priority, { type: "number" })} className="input" />
          <Err errors={fields.priority.errors} />
        </div>
        <div>
          <label className="label" htmlFor={fields.weight.id}>
            {t("权重")}
          </label>
          {/* The product's minimum; the server turns a negative weight into 0 rather than refusing it. */}
          <input {...getInputProps(fields.weight, { type: "number" })} className="input" min={0} />
          <Err errors={fields.weight.errors} />
        </div>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div>
          <label className="label" htmlFor={fields.key_max_concurrency.id}>
            {t("每个密钥最大并发数")}
          </label>
          <input {...getInputProps(fields.key_max_concurrency, { type: "number" })} className="input" />
          <p className="mt-1 text-xs text-gray-500">{t("0 表示不限制")}</p>
          <Err errors={fields.key_max_concurrency.errors} />
        </div>
        <div>
          <label className="label" htmlFor={fields.key_rpm_limit.id}>
            {t("每个密钥每分钟请求数（RPM）")}
          </label>
          <input {...getInputProps(fields.key_rpm_limit, { type: "number" })} className="input" />
          <p className="mt-1 text-xs text-gray-500">{t("0 表示不限制")}</p>
          <Err errors={fields.key_rpm_limit.errors} />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.auto_ban, { type: "checkbox" })} />{" "}
        {t("是否自动禁用（仅当自动禁用开启时有效）")}
      </label>
    </>
  );
}
