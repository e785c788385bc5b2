import { getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import type { z } from "zod";
import { FlashBanner } from "~/components/FlashBanner";
import { browserCheckedFormProps } from "~/components/form-props";
import { useEffect, useState } from "react";
import type { channelConsoleSchema } from "~/domain/channels/channel-console-form";
import { MODEL_MAPPING_TEMPLATE, STATUS_CODE_MAPPING_TEMPLATE, mergeCustomModels } from "~/domain/channels/channel-form-helpers";
import type { FormConstraint } from "~/web/form-constraint";

export type ChannelTypeOption = { type: number; name: string; keyHint: string; otherLabel?: string; defaultModels: readonly string[]; baseUrlPlaceholder: string };

type Props = {
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, unknown>;
  types: ChannelTypeOption[];
  allModels: string[];
  groups: string[];
  notice?: string;
  /** The schema's HTML constraints, computed by the loader; the helper buttons skip them (formNoValidate). */
  constraint: FormConstraint;
};

function Err({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

/**
 * Without JS a helper posts its intent and the server re-renders the form; with JS the click is
 * handled in place (conform's form.update) and nothing is sent.
 */
function HelperButton({ intent, onApply, children }: { intent: string; onApply: () => void; children: React.ReactNode }) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      formNoValidate
      className="btn-secondary"
      onClick={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      {children}
    </button>
  );
}

/** The spec's channel drawer as a page; every helper is a submit button handled by the server. */
export function ChannelForm(props: Props) {
  const [form, fields] = useForm<z.input<typeof channelConsoleSchema>>({
    lastResult: props.lastResult,
    defaultValue: props.defaultValue as never,
    constraint: props.constraint,
  });
  const currentType = Number(fields.type.value ?? props.defaultValue.type ?? 1);
  const typeInfo = props.types.find((t) => t.type === currentType);
  // conform reports a one-item multi-select as a plain string.
  const rawModels = fields.models.value as string[] | string | undefined;
  const selected = new Set(Array.isArray(rawModels) ? rawModels : rawModels ? [rawModels] : []);
  const [customOptions, setCustomOptions] = useState<string[]>([]);
  const modelOptions = [...new Set([...props.allModels, ...selected, ...customOptions])];
  const [localError, setLocalError] = useState<string>();
  const setModels = (value: string[]) => form.update({ name: fields.models.name, value });
  // With JS, "获取模型列表" posts the form through a fetcher and applies the listed models in place:
  // their <option>s are rendered first, and selected once that render is committed.
  const modelFetch = useFetcher<{ initialValue?: { models?: unknown }; error?: Record<string, string[] | null> }>();
  const [listedModels, setListedModels] = useState<string[]>();
  useEffect(() => {
    const reply = modelFetch.data;
    if (!reply || modelFetch.state !== "idle") return;
    const failure = reply.error?.[""]?.[0];
    if (failure) return setLocalError(failure);
    const listed = reply.initialValue?.models;
    const models = Array.isArray(listed) ? listed.map(String) : typeof listed === "string" ? [listed] : [];
    setLocalError(undefined);
    setCustomOptions((previous) => [...previous, ...models]);
    setListedModels(models);
  }, [modelFetch.data, modelFetch.state]);
  useEffect(() => {
    if (!listedModels) return;
    form.update({ name: fields.models.name, value: listedModels });
    setListedModels(undefined);
  }, [listedModels, form, fields.models.name]);
  return (
    <Form method="post" {...browserCheckedFormProps(form)} className="card flex max-w-3xl flex-col gap-4">
      <h1 className="text-xl font-bold">{props.mode === "create" ? "创建新的渠道" : "更新渠道信息"}</h1>
      {props.notice ? <FlashBanner type="info" message={props.notice} /> : null}
      {form.errors?.map((e) => <FlashBanner key={e} type="error" message={e} />)}
      {localError ? <FlashBanner type="error" message={localError} /> : null}
      <div>
        <label className="label" htmlFor={fields.type.id}>类型</label>
        <select
          {...getSelectProps(fields.type)}
          className="input"
          onChange={(event) => {
            // With JS: picking a type fills its default models when none are chosen yet.
            const info = props.types.find((t) => t.type === Number(event.currentTarget.value));
            if (info && selected.size === 0) form.update({ name: fields.models.name, value: [...info.defaultModels] });
          }}
        >
          {props.types.map((t) => <option key={t.type} value={t.type}>{t.name}</option>)}
        </select>
      </div>
      <div>
        <label className="label" htmlFor={fields.name.id}>名称</label>
        <input {...getInputProps(fields.name, { type: "text" })} className="input" placeholder="请为渠道命名" />
        <Err errors={fields.name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.key.id}>密钥</label>
        <textarea {...getTextareaProps(fields.key)} className="input font-mono" rows={props.mode === "create" ? 4 : 2}
          placeholder={props.mode === "create" ? `${typeInfo?.keyHint ?? "密钥"}，一行一个密钥即可批量创建渠道` : "留空则保持原密钥不变"} />
        <p className="mt-1 text-xs text-gray-500">格式：{typeInfo?.keyHint}</p>
        <Err errors={fields.key.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.base_url.id}>代理地址（Base URL）</label>
        <input {...getInputProps(fields.base_url, { type: "text" })} className="input" placeholder={typeInfo?.baseUrlPlaceholder ?? "可选，留空使用官方地址"} />
        <p className="mt-1 text-xs text-gray-500">{typeInfo?.baseUrlPlaceholder}；末尾的 / 会被去掉</p>
      </div>
      {typeInfo?.otherLabel ? (
        <div>
          <label className="label" htmlFor={fields.other.id}>{typeInfo.otherLabel}</label>
          <input {...getInputProps(fields.other, { type: "text" })} className="input" />
        </div>
      ) : (
        <input {...getInputProps(fields.other, { type: "hidden" })} />
      )}
      {currentType === 1 ? (
        <div>
          <label className="label" htmlFor={fields.openai_organization.id}>组织（Organization）</label>
          <input {...getInputProps(fields.openai_organization, { type: "text" })} className="input" placeholder="可选" />
        </div>
      ) : null}
      <div>
        <label className="label" htmlFor={fields.models.id}>模型</label>
        <select {...getSelectProps(fields.models)} multiple className="input h-40 font-mono">
          {modelOptions.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
        <Err errors={fields.models.errors} />
        <div className="mt-1 flex flex-wrap items-center gap-1">
          <HelperButton intent="fill-defaults" onApply={() => setModels([...(typeInfo?.defaultModels ?? [])])}>填入该类型的默认模型</HelperButton>
          <HelperButton intent="clear-models" onApply={() => setModels([])}>清除所有模型</HelperButton>
          {/* Asks the upstream, so it is a real post with or without JS; the reply re-renders the form with the list. */}
          <button
            type="submit"
            name="intent"
            value="fetch-models"
            formNoValidate
            className="btn-secondary"
            disabled={modelFetch.state !== "idle"}
            onClick={(event) => {
              event.preventDefault();
              const data = new FormData(event.currentTarget.form ?? undefined);
              data.set("intent", "fetch-models");
              modelFetch.submit(data, { method: "post" });
            }}
          >
            获取模型列表
          </button>
          <input {...getInputProps(fields.custom_models, { type: "text" })} className="input w-56" placeholder="输入自定义模型名称，逗号分隔" aria-label="自定义模型" />
          <HelperButton
            intent="add-custom"
            onApply={() => {
              const input = document.getElementById(fields.custom_models.id) as HTMLInputElement | null;
              const merged = mergeCustomModels([...selected], input?.value ?? "");
              // The new models need <option>s before the select can hold them: render first, then select.
              setCustomOptions((previous) => [...previous, ...merged.models]);
              setTimeout(() => setModels(merged.models), 0);
              form.update({ name: fields.custom_models.name, value: "" });
              setLocalError(merged.duplicate ? "某些模型已存在！" : undefined);
            }}
          >
            填入
          </HelperButton>
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.groups.id}>分组</label>
        <select {...getSelectProps(fields.groups)} multiple className="input h-24">
          {props.groups.map((g) => <option key={g} value={g}>{g}</option>)}
        </select>
      </div>
      <div>
        <label className="label" htmlFor={fields.model_mapping.id}>模型重定向</label>
        <textarea {...getTextareaProps(fields.model_mapping)} className="input font-mono" rows={4} placeholder={`此项可选，用于修改请求体中的模型名称，为一个 JSON 字符串，例如：\n${MODEL_MAPPING_TEMPLATE}`} />
        <Err errors={fields.model_mapping.errors} />
        <div className="mt-1"><HelperButton intent="template-model-mapping" onApply={() => form.update({ name: fields.model_mapping.name, value: MODEL_MAPPING_TEMPLATE })}>填入模板</HelperButton></div>
      </div>
      <div>
        <label className="label" htmlFor={fields.status_code_mapping.id}>状态码复写</label>
        <textarea {...getTextareaProps(fields.status_code_mapping)} className="input font-mono" rows={3} placeholder={`此项可选，用于复写返回的状态码，例如：\n${STATUS_CODE_MAPPING_TEMPLATE}`} />
        <Err errors={fields.status_code_mapping.errors} />
        <div className="mt-1"><HelperButton intent="template-status-code-mapping" onApply={() => form.update({ name: fields.status_code_mapping.name, value: STATUS_CODE_MAPPING_TEMPLATE })}>填入模板</HelperButton></div>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div>
          <label className="label" htmlFor={fields.test_model.id}>默认测试模型</label>
          <input {...getInputProps(fields.test_model, { type: "text" })} className="input" placeholder="不填则为模型列表第一个" />
        </div>
        <div>
          <label className="label" htmlFor={fields.priority.id}>优先级</label>
          <input {...getInputProps(fields.priority, { type: "number" })} className="input" />
          <Err errors={fields.priority.errors} />
        </div>
        <div>
          <label className="label" htmlFor={fields.weight.id}>权重</label>
          {/* The spec's minimum; the server turns a negative weight into 0 rather than refusing it. */}
          <input {...getInputProps(fields.weight, { type: "number" })} className="input" min={0} />
          <Err errors={fields.weight.errors} />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.auto_ban, { type: "checkbox" })} /> 是否自动禁用（仅当自动禁用开启时有效）
      </label>
      <div className="flex gap-2">
        <button type="submit" name="intent" value="save" className="btn-primary">提交</button>
        <Link to="/channel" className="btn-secondary">取消</Link>
      </div>
    </Form>
  );
}
