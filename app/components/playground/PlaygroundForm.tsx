import { Form } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { chatFormMessages, type ChatMessage, type ChatSettings } from "./chat-form";

const bubble = {
  user: "self-end rounded bg-blue-50 px-3 py-2 text-sm whitespace-pre-wrap dark:bg-blue-950",
  assistant: "rounded bg-gray-100 px-3 py-2 text-sm whitespace-pre-wrap dark:bg-gray-700",
} as const;

type Props = {
  groups: Record<string, string>;
  models: string[];
  settings: ChatSettings;
  history: ChatMessage[];
  error: string;
  userId: number;
};

/**
 * The playground as one plain form: posted without JavaScript, the server runs the chat and
 * answers with this page again (the conversation so far travels in the hidden `history` field).
 * The page's script (app/enhance/playground-chat.js) takes the same form over and streams the reply
 * in place; it finds its parts by the data attributes and ids below and builds new bubbles with the
 * classes the list names.
 */
export function PlaygroundForm({ groups, models, settings, history, error, userId }: Props) {
  // A model posted from another group's list stays chosen on the page that answers.
  const modelChoices = settings.model && !models.includes(settings.model) ? [settings.model, ...models] : models;
  const t = useT();
  // Group labels are the operator's descriptions, or the product's own 用户分组.
  const message = useMessage();
  return (
    <Form
      method="post"
      data-playground
      data-user-id={userId}
      data-empty-message={t(chatFormMessages.emptyMessage)}
      className="flex flex-col gap-4 sm:flex-row"
    >
      <aside className="card flex shrink-0 flex-col gap-3 sm:w-64">
        <label className="label" htmlFor="pg-group">
          {t("分组")}
        </label>
        <select id="pg-group" name="group" defaultValue={settings.group} className="input">
          {Object.entries(groups).map(([name, label]) => (
            <option key={name} value={name}>
              {message(label)}
            </option>
          ))}
        </select>
        <label className="label" htmlFor="pg-model">
          {t("模型", { context: "single" })}
        </label>
        <select id="pg-model" name="model" defaultValue={settings.model} className="input">
          {modelChoices.length ? (
            modelChoices.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))
          ) : (
            <option value="gpt-4o-mini">gpt-4o-mini</option>
          )}
        </select>
        <label className="label" htmlFor="pg-temperature">
          {t("温度")}
        </label>
        <input
          id="pg-temperature"
          name="temperature"
          type="range"
          min={0.1}
          max={1}
          step={0.1}
          defaultValue={settings.temperature}
        />
        <label className="label" htmlFor="pg-max-tokens">
          {t("最大 Tokens（0 为不限制）")}
        </label>
        <input
          id="pg-max-tokens"
          name="max_tokens"
          type="number"
          min={0}
          defaultValue={settings.max_tokens}
          className="input"
        />
        <label className="label" htmlFor="pg-system">
          {t("系统提示词")}
        </label>
        <textarea id="pg-system" name="system" rows={4} defaultValue={settings.system} className="input" />
      </aside>
      <section className="card flex min-w-0 flex-1 flex-col gap-3">
        <input type="hidden" name="history" value={JSON.stringify(history)} />
        <ol
          className="flex flex-col gap-2"
          data-testid="playground-messages"
          data-playground-messages
          data-user-class={bubble.user}
          data-assistant-class={bubble.assistant}
          aria-live="polite"
        >
          {history.map((m, i) => (
            <li key={i} className={bubble[m.role]} data-role={m.role} data-state="complete">
              {m.content}
            </li>
          ))}
        </ol>
        <FlashBanner id="pg-error" type="error" message={error} hidden={!error} />
        <label className="sr-only" htmlFor="pg-message">
          {t("消息")}
        </label>
        <textarea id="pg-message" name="message" rows={3} className="input" placeholder={t("输入消息…")} />
        <div className="flex gap-2">
          <button type="submit" name="intent" value="send" className="btn-primary">
            {t("发送")}
          </button>
          {/* Only the script can stop a reply that is streaming; it shows this while one is. */}
          <button type="button" hidden data-playground-stop className="btn-secondary">
            {t("停止")}
          </button>
          <button type="submit" name="intent" value="clear" formNoValidate className="btn-secondary">
            {t("清除上下文")}
          </button>
        </div>
      </section>
    </Form>
  );
}
