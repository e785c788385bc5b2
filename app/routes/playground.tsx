import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  chatFormMessages,
  chatFormSchema,
  DEFAULT_SYSTEM_PROMPT,
  formFields,
  postedSettings,
  readHistory,
  type ChatMessage,
  type ChatSettings,
} from "~/components/playground/chat-form";
import { pageTitle } from "~/components/i18n/locale-context";
import { PlaygroundForm } from "~/components/playground/PlaygroundForm";
import { userUsableGroups } from "~/domain/groups/groups.server";
import { listModelsForGroup } from "~/domain/groups/models.server";
import { playgroundRelay } from "~/relay/playground.server";
import { bufferSink } from "~/relay/reply-sink";
import { readForm } from "~/utils/edge-input";
import { requireUser } from "~/web/guards.server";
import playgroundScript from "~/enhance/playground-chat.js?url";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "操练场");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const groups = userUsableGroups(user);
  const requested = new URL(request.url).searchParams.get("group") ?? user.group;
  const group = requested in groups ? requested : user.group;
  const models = await listModelsForGroup(group);
  const model = models.includes("gpt-4o-mini") ? "gpt-4o-mini" : (models[0] ?? "gpt-4o-mini");
  const settings: ChatSettings = { group, model, temperature: "0.1", max_tokens: "0", system: DEFAULT_SYSTEM_PROMPT };
  return { groups, models, settings, userId: user.id };
}

type ActionResult = { history: ChatMessage[]; error: string; settings: ChatSettings };

/**
 * Without JavaScript the form posts here: the chat runs on the server, not streamed, and the page
 * answers with the whole conversation (the relay, its auth and its billing are the ones
 * /pg/chat/completions uses).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const settings = postedSettings(form);
  const answer = (history: ChatMessage[], error = "", status = 200) =>
    data<ActionResult>({ history, error, settings }, { status });
  const parsed = chatFormSchema.safeParse(formFields(form));
  if (!parsed.success)
    return answer(
      readHistory(String(form.get("history") ?? "")) ?? [],
      parsed.error.issues[0]?.message ?? chatFormMessages.history,
      400,
    );
  const fields = parsed.data;
  if (fields.intent === "clear") return answer([]);
  const history = readHistory(fields.history);
  if (!history) return answer([], chatFormMessages.history, 400);
  if (!fields.message) return answer(history, chatFormMessages.emptyMessage, 400);

  const asked: ChatMessage[] = [...history, { role: "user", content: fields.message }];
  const messages = [...(fields.system ? [{ role: "system", content: fields.system }] : []), ...asked];
  const { sink, result } = bufferSink();
  const failure = await playgroundRelay(
    user,
    {
      group: fields.group,
      model: fields.model,
      messages,
      stream: false,
      ...(fields.max_tokens > 0 ? { max_tokens: fields.max_tokens } : {}),
      ...(fields.temperature > 0 ? { temperature: fields.temperature } : {}),
    },
    sink,
  );
  if (failure) return answer(asked, failure.message, 400);
  return answer([...asked, { role: "assistant", content: replyText(result().body) }]);
}

/** The first choice's text of an OpenAI chat reply (the relay has already converted it). */
function replyText(body: string): string {
  try {
    const reply = JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] };
    const content = reply.choices?.[0]?.message?.content;
    return typeof content === "string" ? content : "";
  } catch {
    return "";
  }
}

export default function Playground() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <PlaygroundForm
        groups={page.groups}
        models={page.models}
        settings={result?.settings ?? page.settings}
        history={result?.history ?? []}
        error={result?.error ?? ""}
        userId={page.userId}
      />
      {/* This page's own script, after the form it takes over (docs/decisions/032). */}
      <script src={playgroundScript} defer />
    </>
  );
}
