import { getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { ModelPicker } from "~/components/ModelPicker";
import { browserCheckedFormProps } from "~/components/form-props";
import type { FormConstraint } from "~/web/form-constraint";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { Err, HelperButton, type ChannelFormInput } from "./channel-form-parts";
import { ChannelTuningFields } from "./ChannelTuningFields";

export type ChannelTypeOption = {
  type: number;
  name: string;
  keyHint: string;
  otherLabel?: string;
  defaultModels: readonly string[];
  baseUrlPlaceholder: string;
};

type Props = {
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, unknown>;
  types: ChannelTypeOption[];
  allModels: string[];
  groups: string[];
  notice?: string;
  /** Editing a channel that holds several keys: its key text replaces them all. */
  multiKey?: boolean;
  /** The schema's HTML constraints, computed by the loader; the helper buttons skip them (formNoValidate). */
  constraint: FormConstraint;
};

/** The product's channel drawer as a page; every helper is a submit button handled by the server. */
export function ChannelForm(props: Props) {
  const t = useT();
  // Type names, key hints and address hints are the catalog's Chinese; an address hint may carry
  // the type's default host, so it is read back as a finished message.
  const message = useMessage();
  const [form, fields] = useForm<ChannelFormInput>({
    lastResult: props.lastResult,
    defaultValue: props.defaultValue as never,
    constraint: props.constraint,
  });
  const currentType = Number(fields.type.value ?? props.defaultValue.type ?? 1);
  const typeInfo = props.types.find((type) => type.type === currentType);
  const keyHint = typeInfo ? t(typeInfo.keyHint) : "";
  const baseUrlHint = typeInfo ? message(typeInfo.baseUrlPlaceholder) : "";
  // conform reports a one-item list of checkboxes as a plain string.
  const rawModels = fields.models.value as string[] | string | undefined;
  const selected = new Set(Array.isArray(rawModels) ? rawModels : rawModels ? [rawModels] : []);
  // Listed models (获取模型列表) and custom ones come back chosen: each needs its checkbox.
  const modelOptions = [...new Set([...props.allModels, ...selected])];
  return (
    <Form
      method="post"
      {...browserCheckedFormProps(form, props.constraint, message)}
      className="card flex max-w-3xl flex-col gap-4"
    >
      <h1 className="text-xl font-bold">{props.mode === "create" ? t("创建新的渠道") : t("更新渠道信息")}</h1>
      {props.notice ? <FlashBanner type="info" message={t(props.notice)} /> : null}
      {form.errors?.map((e) => (
        <FlashBanner key={e} type="error" message={e} />
      ))}
      <div>
        <label className="label" htmlFor={fields.type.id}>
          {t("类型")}
        </label>
        {/* The form below follows the type (key format, base URL, the `other` field, default
            models): 切换类型 re-renders it for the chosen one. The enhancement script presses
            that button as soon as the choice changes, and hides it. */}
        <div className="flex gap-2">
          <select {...getSelectProps(fields.type)} className="input" data-submit-on-change="#channel-switch-type">
            {props.types.map((type) => (
              <option key={type.type} value={type.type}>
                {t(type.name)}
              </option>
            ))}
          </select>
          {/* The type this form was drawn for: a switch replaces only that type's untouched defaults. */}
          <input type="hidden" name="previous_type" value={currentType} />
          <button
            type="submit"
            id="channel-switch-type"
            name="intent"
            value="switch-type"
            formNoValidate
            className="btn-secondary shrink-0"
            data-js-hidden=""
          >
            {t("切换类型")}
          </button>
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.name.id}>
          {t("名称")}
        </label>
        <input {...getInputProps(fields.name, { type: "text" })} className="input" placeholder={t("请为渠道命名")} />
        <Err errors={fields.name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.key.id}>
          {t("密钥")}
        </label>
        <textarea
          {...getTextareaProps(fields.key)}
          className="input font-mono"
          rows={props.mode === "create" || props.multiKey ? 4 : 2}
          placeholder={
            props.mode === "create"
              ? t("{{hint}}，一行一个密钥", { hint: typeInfo ? keyHint : t("密钥") })
              : props.multiKey
                ? t("留空则保持原密钥不变；填写则替换全部密钥（每行一个）")
                : t("留空则保持原密钥不变")
          }
        />
        <p className="mt-1 text-xs text-gray-500">{t("格式：{{hint}}", { hint: keyHint })}</p>
        <Err errors={fields.key.errors} />
      </div>
      {props.mode === "create" || props.multiKey ? (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {props.mode === "create" ? (
            <div>
              <label className="label" htmlFor={fields.key_mode.id}>
                {t("密钥模式")}
              </label>
              <select {...getSelectProps(fields.key_mode)} className="input">
                <option value="batch">{t("批量创建（每行一个渠道）")}</option>
                <option value="multi_to_single">{t("单渠道多密钥（每行一个密钥）")}</option>
              </select>
            </div>
          ) : null}
          <div>
            <label className="label" htmlFor={fields.multi_key_mode.id}>
              {t("多密钥使用方式")}
            </label>
            <select {...getSelectProps(fields.multi_key_mode)} className="input">
              <option value="random">{t("随机")}</option>
              <option value="polling">{t("轮询")}</option>
            </select>
            {props.mode === "create" ? <p className="mt-1 text-xs text-gray-500">{t("仅对单渠道多密钥有效")}</p> : null}
          </div>
        </div>
      ) : null}
      <div>
        <label className="label" htmlFor={fields.base_url.id}>
          {t("代理地址（Base URL）")}
        </label>
        <input
          {...getInputProps(fields.base_url, { type: "text" })}
          className="input"
          placeholder={typeInfo ? baseUrlHint : t("可选，留空使用官方地址")}
        />
        <p className="mt-1 text-xs text-gray-500">{t("{{hint}}；末尾的 / 会被去掉", { hint: baseUrlHint })}</p>
      </div>
      {typeInfo?.otherLabel ? (
        <div>
          <label className="label" htmlFor={fields.other.id}>
            {t(typeInfo.otherLabel)}
          </label>
          <input {...getInputProps(fields.other, { type: "text" })} className="input" />
        </div>
      ) : (
        <input {...getInputProps(fields.other, { type: "hidden" })} />
      )}
      {currentType === CHANNEL_TYPE.openai ? (
        <div>
          <label className="label" htmlFor={fields.openai_organization.id}>
            {t("组织（Organization）")}
          </label>
          <input
            {...getInputProps(fields.openai_organization, { type: "text" })}
            className="input"
            placeholder={t("可选")}
          />
        </div>
      ) : null}
      <div>
        <ModelPicker
          name={fields.models.name}
          legend={t("模型")}
          models={modelOptions}
          chosen={selected}
          testId="channel-models"
        />
        <Err errors={fields.models.errors} />
        <div className="mt-1 flex flex-wrap items-center gap-1">
          <HelperButton intent="fill-defaults">{t("填入该类型的默认模型")}</HelperButton>
          <HelperButton intent="clear-models">{t("清除所有模型")}</HelperButton>
          {/* Asks the upstream (its own key and base URL as typed); the answer re-renders the form with the list selected. */}
          <HelperButton intent="fetch-models">{t("获取模型列表")}</HelperButton>
          <input
            {...getInputProps(fields.custom_models, { type: "text" })}
            className="input w-56"
            placeholder={t("输入自定义模型名称，逗号分隔")}
            aria-label={t("自定义模型")}
          />
          <HelperButton intent="add-custom">{t("填入")}</HelperButton>
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.groups.id}>
          {t("分组")}
        </label>
        <select {...getSelectProps(fields.groups)} multiple className="input h-24">
          {props.groups.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </div>
      <ChannelTuningFields fields={fields} />
      <div className="flex gap-2">
        <button type="submit" name="intent" value="save" className="btn-primary">
          {t("提交")}
        </button>
        <Link to="/channel" className="btn-secondary">
          {t("取消")}
        </Link>
      </div>
    </Form>
  );
}
