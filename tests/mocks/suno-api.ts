import { createServer, type Server, type ServerResponse } from "node:http";
import { readBody } from "./http-helpers";

/**
 * A loopback Suno-API: bearer key checked; `/suno/submit/:action` (music,
 * lyrics; case-insensitive) answers `{code:"success", data:<taskId>}`; `POST /suno/fetch {ids}`
 * reports each task as it moves SUBMITTED → QUEUED → IN_PROGRESS → SUCCESS (with clips), or
 * FAILURE with a fail_reason when the prompt contains "fail". Times in seconds, as Suno's.
 */
export type SunoTask = {
  task_id: string;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  data: unknown;
};

export type SunoApiMock = {
  url: string;
  tasks: Map<string, SunoTask>;
  requests: { path: string; auth: string; body: string }[];
  close: () => Promise<void>;
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

let sequence = 0;

export async function startSunoApi(options: { key: string; stepMs?: number }): Promise<SunoApiMock> {
  const stepMs = options.stepMs ?? 150;
  const timers = new Set<NodeJS.Timeout>();
  const mock: SunoApiMock = { url: "", tasks: new Map(), requests: [], close: async () => undefined };
  const now = () => Math.floor(Date.now() / 1000);

  const schedule = (task: SunoTask, steps: (() => void)[]) => {
    steps.forEach((step, i) => {
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          step();
        },
        stepMs * (i + 1),
      );
      timers.add(timer);
    });
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? "/").split("?")[0]!;
      mock.requests.push({ path, auth: String(req.headers.authorization ?? ""), body });
      if (req.headers.authorization !== `Bearer ${options.key}`)
        return json(res, 401, { code: "unauthorized", message: "invalid key", data: null });
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body || "{}") as Record<string, unknown>;
      } catch {
        return json(res, 400, { code: "invalid_request", message: "invalid json", data: null });
      }
      if (req.method === "POST" && path === "/suno/fetch") {
        const ids = Array.isArray(parsed.ids) ? (parsed.ids as string[]) : [];
        return json(res, 200, {
          code: "success",
          message: "",
          data: ids.map((id) => mock.tasks.get(id)).filter(Boolean),
        });
      }
      const submit = /^\/suno\/submit\/([a-zA-Z]+)$/.exec(path);
      const action = submit?.[1]?.toUpperCase();
      if (req.method !== "POST" || (action !== "MUSIC" && action !== "LYRICS"))
        return json(res, 404, { code: "not_found", message: "not found", data: null });
      const prompt = String(parsed.prompt ?? parsed.gpt_description_prompt ?? "");
      if (action === "LYRICS" && !prompt)
        return json(res, 400, { code: "invalid_request", message: "prompt_empty", data: null });
      sequence += 1;
      const id = `7c1e0b2a-${Date.now().toString(16)}-${sequence}`;
      const task: SunoTask = {
        task_id: id,
        action,
        status: "SUBMITTED",
        fail_reason: "",
        submit_time: now(),
        start_time: 0,
        finish_time: 0,
        data: null,
      };
      mock.tasks.set(id, task);
      const clip = (n: number) => ({
        id: `${id}-c${n}`,
        status: "complete",
        title: "Rain",
        text: "[Verse] rain",
        audio_url: `https://cdn1.suno.ai/${id}-c${n}.mp3`,
        video_url: `https://cdn1.suno.ai/${id}-c${n}.mp4`,
        image_url: `https://cdn2.suno.ai/image_${id}-c${n}.jpeg`,
        model_name: "chirp-v3",
        metadata: { tags: "piano", prompt, duration: 154.2, error_type: null, error_message: null },
      });
      schedule(task, [
        () => Object.assign(task, { status: "QUEUED" }),
        () => Object.assign(task, { status: "IN_PROGRESS", start_time: now() }),
        prompt.includes("fail")
          ? () =>
              Object.assign(task, {
                status: "FAILURE",
                fail_reason: "Unable to generate: content moderation",
                finish_time: now(),
              })
          : () =>
              Object.assign(task, {
                status: "SUCCESS",
                finish_time: now(),
                data:
                  action === "LYRICS"
                    ? { id: `${id}-l`, status: "complete", title: "Rain", text: "[Verse] rain" }
                    : [clip(1), clip(2)],
              }),
      ]);
      return json(res, 200, { code: "success", message: "", data: id });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { code: "internal_error", message: String(error), data: null });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return mock;
}
