import { parseWithZod } from "@conform-to/zod/v4";
import type { Channel } from "../../../db/schema";
import { listGroupNames } from "~/domain/groups/groups.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { splitList } from "~/domain/channels/abilities.server";
import { SELECTABLE_CHANNEL_TYPES, allCatalogModels, getChannelType, requiresBaseUrl } from "~/domain/channels/catalog";
import { channelConsoleSchema, type ChannelConsoleInput } from "~/domain/channels/channel-console-form";
import {
  MODEL_MAPPING_TEMPLATE,
  STATUS_CODE_MAPPING_TEMPLATE,
  mergeCustomModels,
} from "~/domain/channels/channel-form-helpers";
import type { ChannelFields, ModelLister } from "~/domain/channels/channel-input";
import { manageChannelKey } from "~/domain/channels/channel-key-manage.server";
import { createChannels, updateChannel } from "~/domain/channels/channels.server";
import { parseChannelInfo } from "~/domain/channels/multi-key";
import { readForm } from "~/utils/edge-input";

/** What both channel form pages render besides the values. */
export function channelFormContext() {
  return {
    types: SELECTABLE_CHANNEL_TYPES.map((t) => ({
      type: t.type,
      name: t.name,
      keyHint: t.keyHint,
      otherLabel: t.otherLabel,
      defaultModels: t.defaultModels,
      baseUrlPlaceholder: baseUrlPlaceholder(t.type),
    })),
    allModels: allCatalogModels(),
    groups: listGroupNames(),
  };
}

/** What the empty base URL field says for a type: required, or which official host is used when blank. */
function baseUrlPlaceholder(type: number): string {
  const info = getChannelType(type);
  if (info?.baseUrlPlaceholder) return info.baseUrlPlaceholder;
  if (requiresBaseUrl(type)) return "必填，该渠道类型没有默认地址";
  return info?.defaultBaseUrl ? `可选，留空使用官方地址 ${info.defaultBaseUrl}` : "可选，留空由该渠道类型自行决定地址";
}

export function newChannelDefaults() {
  return {
    type: "1",
    models: [...(getChannelType(1)?.defaultModels ?? [])],
    groups: ["default"],
    auto_ban: "on",
    priority: "0",
    weight: "0",
    key_mode: "batch",
    multi_key_mode: "random",
    key_max_concurrency: "0",
    key_rpm_limit: "0",
  };
}

export function channelDefaults(channel: Channel) {
  return {
    type: String(channel.type),
    name: channel.name,
    key: "",
    base_url: channel.base_url,
    other: channel.other,
    openai_organization: channel.openai_organization ?? "",
    models: splitList(channel.models),
    groups: splitList(channel.group),
    model_mapping: channel.model_mapping,
    status_code_mapping: channel.status_code_mapping,
    auto_ban: channel.auto_ban ? "on" : undefined,
    test_model: channel.test_model ?? "",
    priority: String(channel.priority),
    weight: String(channel.weight),
    multi_key_mode: parseChannelInfo(channel.channel_info).multi_key_mode,
    key_max_concurrency: String(channel.key_max_concurrency),
    key_rpm_limit: String(channel.key_rpm_limit),
  };
}

function toChannelFields(input: ChannelConsoleInput, mode: "create" | "edit"): ChannelFields {
  return {
    type: input.type,
    name: input.name,
    // Editing with a blank key keeps the stored key.
    key: mode === "edit" && !input.key.trim() ? undefined : input.key,
    base_url: input.base_url,
    other: input.other,
    openai_organization: input.openai_organization,
    models: input.models,
    groups: input.groups,
    model_mapping: input.model_mapping,
    status_code_mapping: input.status_code_mapping,
    auto_ban: input.auto_ban ? 1 : 0,
    test_model: input.test_model,
    priority: input.priority,
    weight: input.weight,
    key_max_concurrency: input.key_max_concurrency,
    key_rpm_limit: input.key_rpm_limit,
    multi_key_mode: input.multi_key_mode,
  };
}

/** A key-table button of the edit page: acts on one key (or all) and comes back to the page. */
async function keyIntent(intent: string, formData: FormData, id: number | undefined) {
  const back = `/channel/edit/${id ?? 0}`;
  const action = intent === "enable-key" ? "enable_key" : intent === "disable-key" ? "disable_key" : "enable_all_keys";
  const index = Number(formData.get("key_index") ?? 0);
  if (!id || !Number.isInteger(index) || index < 0)
    return redirectWithFlash(back, { type: "error", message: "该渠道没有这个密钥" });
  const result = await manageChannelKey(id, action, index);
  return redirectWithFlash(
    back,
    result.ok ? { type: "success", message: result.value } : { type: "error", message: result.message },
  );
}

/** Re-renders the form with changed values and no field errors (a helper button, not a save). */
function rerender(formData: FormData, formError?: string) {
  // The key the admin just typed is echoed back, or a helper click would silently drop it.
  const reply = parseWithZod(formData, { schema: channelConsoleSchema }).reply();
  // A helper must not show validation errors for fields the user has not finished.
  return { ...reply, status: undefined, error: formError ? { "": [formError] } : {} };
}

/**
 * A type switch replaces what the previous type filled in and the admin left alone: its default
 * models give way to the new type's (models added or kept by hand stay), and an `other` that is
 * empty or still the previous type's default takes the new type's default (Azure's API version).
 * The form starts with OpenAI's defaults selected, so "keep the chosen models" kept them always.
 */
function switchTypeDefaults(formData: FormData, setList: (name: string, values: string[]) => void) {
  const next = getChannelType(Number(formData.get("type")));
  const previousRaw = formData.get("previous_type");
  const previous = previousRaw === null ? undefined : getChannelType(Number(previousRaw));
  const chosen = formData.getAll("models").map(String);
  const previousDefaults = new Set(previous?.defaultModels ?? []);
  const kept = chosen.filter((m) => !previousDefaults.has(m));
  setList("models", [...new Set([...(next?.defaultModels ?? []), ...kept])]);
  const other = String(formData.get("other") ?? "").trim();
  if (other === "" || (previous?.defaultOther !== undefined && other === previous.defaultOther)) {
    formData.set("other", next?.defaultOther ?? "");
  }
}

export async function handleChannelForm(
  request: Request,
  mode: "create" | "edit",
  id?: number,
  listModels?: ModelLister,
) {
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "save");
  const setList = (name: string, values: string[]) => {
    formData.delete(name);
    for (const v of values) formData.append(name, v);
  };
  const defaultModelsOfType = () => [...(getChannelType(Number(formData.get("type")))?.defaultModels ?? [])];
  switch (intent) {
    case "switch-type":
      switchTypeDefaults(formData, setList);
      return rerender(formData);
    case "fill-defaults":
      setList("models", defaultModelsOfType());
      return rerender(formData);
    case "clear-models":
      setList("models", []);
      return rerender(formData);
    case "add-custom": {
      const merged = mergeCustomModels(
        formData.getAll("models").map(String),
        String(formData.get("custom_models") ?? ""),
      );
      setList("models", merged.models);
      formData.set("custom_models", "");
      return rerender(formData, merged.duplicate ? "某些模型已存在！" : undefined);
    }
    case "template-model-mapping":
      formData.set("model_mapping", MODEL_MAPPING_TEMPLATE);
      return rerender(formData);
    case "fetch-models": {
      if (!listModels) return rerender(formData, "该渠道类型不支持获取模型列表");
      const listed = await listModels({
        type: Number(formData.get("type")),
        base_url: String(formData.get("base_url") ?? "").trim(),
        other: String(formData.get("other") ?? "").trim(),
        key: String(formData.get("key") ?? "")
          .split(/\r?\n/)[0]!
          .trim(),
      });
      if (!listed.ok) return rerender(formData, listed.message);
      if (listed.value.length === 0) return rerender(formData, "获取模型列表失败：上游没有列出模型");
      setList("models", listed.value);
      return rerender(formData);
    }
    case "enable-key":
    case "disable-key":
    case "enable-all-keys":
      // A new channel has no keys to act on: the add form just comes back as it was.
      return mode === "edit" ? keyIntent(intent, formData, id) : rerender(formData);
    case "template-status-code-mapping":
      formData.set("status_code_mapping", STATUS_CODE_MAPPING_TEMPLATE);
      return rerender(formData);
  }
  const submission = parseWithZod(formData, { schema: channelConsoleSchema });
  if (submission.status !== "success") return submission.reply({ hideFields: ["key"] });
  const fields = toChannelFields(submission.value, mode);
  const result =
    mode === "create"
      ? await createChannels(fields, { mode: submission.value.key_mode, multiKeyMode: submission.value.multi_key_mode })
      : await updateChannel(id ?? 0, fields);
  if (!result.ok) return submission.reply({ formErrors: [result.message] });
  return redirectWithFlash("/channel", {
    type: "success",
    message: mode === "create" ? "渠道创建成功！" : "渠道更新成功！",
  });
}
