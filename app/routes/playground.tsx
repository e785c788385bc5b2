import type { PageHandle } from "~/components/shell/PageScripts";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FlashBanner } from "~/components/FlashBanner";
import { streamChat } from "~/components/playground/stream-chat";
import { userUsableGroups } from "~/domain/groups/groups.server";
import { listModelsForGroup } from "~/domain/groups/models.server";
import { playgroundRelay } from "~/relay/playground.server";
import { bufferSink } from "~/relay/reply-sink";
import { requireUser } from "~/web/guards.server";
import { useShellData } from "~/root";
import { readForm } from "~/utils/edge-input";

export const meta: MetaFunction = () => [{ title: "操练场" }];

/** The streaming chat re-renders as tokens arrive: this page keeps the client runtime (decision 032). */
export const handle: PageHandle = { hydrate: true };

type Message = { role: "user" | "assistant"; content: string; state?: "loading" | "incomplete" | "complete" | "error" };
const DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const groups = userUsableGroups(user);
  const requested = new URL(request.url).searchParams.get("group") ?? user.group;
  const group = requested in groups ? requested : user.group;
  const models = await listModelsForGroup(group);
  return { groups, group, models, defaultModel: models.includes("gpt-4o-mini") ? "gpt-4o-mini" : (models[0] ?? "gpt-4o-mini"), systemPrompt: DEFAULT_SYSTEM_PROMPT };
}

function readHistory(raw: FormDataEntryValue | null): Message[] {
  try {
    const parsed = JSON.parse(String(raw ?? "[]")) as Message[];
    return Array.isArray(parsed) ? parsed.filter((m) => (m.role === "user" || m.role === "assistant") && typeof m.content === "string").slice(-50) : [];
  } catch {
    return [];
  }
}

/** Without JavaScript the form posts here and the whole reply is rendered on the server. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") === "clear") return data({ history: [] as Message[], error: "" });
  const history = readHistory(form.get("history"));
  const content = String(form.get("message") ?? "").trim();
  if (!content) return data({ history, error: "请输入消息" }, { status: 400 });
  const system = String(form.get("system") ?? "").trim();
  const maxTokens = Number(form.get("max_tokens") ?? 0);
  const temperature = Number(form.get("temperature") ?? 0);
  const messages = [...(system ? [{ role: "system", content: system }] : []), ...history, { role: "user", content }];
  const { sink, result } = bufferSink();
  const failure = await playgroundRelay(
    user,
    { group: String(form.get("group") ?? ""), model: String(form.get("model") ?? ""), messages, stream: false, ...(maxTokens > 0 ? { max_tokens: maxTokens } : {}), ...(temperature > 0 ? { temperature } : {}) },
    sink,
  );
  const next: Message[] = [...history, { role: "user", content }];
  if (failure) return data({ history: next, error: failure.message }, { status: 400 });
  const reply = JSON.parse(result().body) as { choices?: { message?: { content?: string } }[] };
  return data({ history: [...next, { role: "assistant" as const, content: reply.choices?.[0]?.message?.content ?? "" }], error: "" });
}

export default function Playground() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shell = useShellData();
  const [messages, setMessages] = useState<Message[]>(result?.history ?? []);
  const [error, setError] = useState(result?.error ?? "");
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setMessages(result?.history ?? []);
    setError(result?.error ?? "");
  }, [result]);

  // With JavaScript the reply streams in place; the form's server action stays the fallback.
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!shell?.user || submitter?.value === "clear") {
      if (submitter?.value === "clear") {
        event.preventDefault();
        setMessages([]);
        setError("");
      }
      return;
    }
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const content = String(form.get("message") ?? "").trim();
    if (!content) return setError("请输入消息");
    const system = String(form.get("system") ?? "").trim();
    const history = messages.filter((m) => m.state !== "error").map(({ role, content: c }) => ({ role, content: c }));
    const maxTokens = Number(form.get("max_tokens") ?? 0);
    const temperature = Number(form.get("temperature") ?? 0);
    setError("");
    setMessages([...history, { role: "user", content }, { role: "assistant", content: "", state: "loading" }]);
    const input = formRef.current?.querySelector<HTMLTextAreaElement>("textarea[name=message]");
    if (input) input.value = "";
    try {
      await streamChat(
        shell.user.id,
        { group: form.get("group"), model: form.get("model"), messages: [...(system ? [{ role: "system", content: system }] : []), ...history, { role: "user", content }], ...(maxTokens > 0 ? { max_tokens: maxTokens } : {}), ...(temperature > 0 ? { temperature } : {}) },
        (delta) => setMessages((all) => all.map((m, i) => (i === all.length - 1 ? { ...m, content: m.content + delta, state: "incomplete" } : m))),
      );
      setMessages((all) => all.map((m, i) => (i === all.length - 1 ? { ...m, state: "complete" } : m)));
    } catch (failure) {
      setMessages((all) => all.map((m, i) => (i === all.length - 1 ? { ...m, state: "error" } : m)));
      setError((failure as Error).message);
    }
  }

  return (
    <Form method="post" ref={formRef} onSubmit={onSubmit} className="flex flex-col gap-4 sm:flex-row">
      <aside className="card flex shrink-0 flex-col gap-3 sm:w-64">
        <label className="label" htmlFor="pg-group">分组</label>
        <select id="pg-group" name="group" defaultValue={page.group} className="input">
          {Object.entries(page.groups).map(([name, label]) => <option key={name} value={name}>{label}</option>)}
        </select>
        <label className="label" htmlFor="pg-model">模型</label>
        <select id="pg-model" name="model" defaultValue={page.defaultModel} className="input">
          {page.models.length ? page.models.map((m) => <option key={m} value={m}>{m}</option>) : <option value="gpt-4o-mini">gpt-4o-mini</option>}
        </select>
        <label className="label" htmlFor="pg-temperature">温度</label>
        <input id="pg-temperature" name="temperature" type="range" min={0.1} max={1} step={0.1} defaultValue={0.1} />
        <label className="label" htmlFor="pg-max-tokens">最大 Tokens（0 为不限制）</label>
        <input id="pg-max-tokens" name="max_tokens" type="number" min={0} defaultValue={0} className="input" />
        <label className="label" htmlFor="pg-system">系统提示词</label>
        <textarea id="pg-system" name="system" rows={4} defaultValue={page.systemPrompt} className="input" />
      </aside>
      <section className="card flex min-w-0 flex-1 flex-col gap-3">
        <input type="hidden" name="history" value={JSON.stringify(messages.filter((m) => m.state !== "error").map(({ role, content }) => ({ role, content })))} />
        <ol className="flex flex-col gap-2" data-testid="playground-messages" aria-live="polite">
          {messages.map((m, i) => (
            <li key={i} className={`rounded px-3 py-2 text-sm whitespace-pre-wrap ${m.role === "user" ? "self-end bg-blue-50 dark:bg-blue-950" : "bg-gray-100 dark:bg-gray-700"}`} data-role={m.role} data-state={m.state ?? "complete"}>
              {m.content || (m.state === "loading" ? "…" : "")}
            </li>
          ))}
        </ol>
        {error ? <FlashBanner type="error" message={error} /> : null}
        <label className="sr-only" htmlFor="pg-message">消息</label>
        <textarea id="pg-message" name="message" rows={3} className="input" placeholder="输入消息…" />
        <div className="flex gap-2">
          <button type="submit" name="intent" value="send" className="btn-primary">发送</button>
          <button type="submit" name="intent" value="clear" formNoValidate className="btn-secondary">清除上下文</button>
        </div>
      </section>
    </Form>
  );
}
