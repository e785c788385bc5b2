import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readBody } from "./http-helpers";

/**
 * A loopback Midjourney proxy (novicezk/midjourney-proxy protocol). It checks
 * `mj-api-secret` (401 with an empty body otherwise, as the real one), moves each task through
 * its real states on timers — SUBMITTED → IN_PROGRESS with rising progress → SUCCESS with an
 * image URL, or FAILURE with a failReason — and POSTs the task to its notifyHook on every change.
 *
 * What a prompt contains picks the path: "fail" ends in FAILURE, "stuck" never finishes,
 * "banned" is refused at submit with code 24, "queued" is accepted with code 22.
 */
export type MjTask = {
  id: string;
  action: string;
  status: string;
  progress: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  failReason: string;
  properties: Record<string, unknown>;
  buttons: unknown[];
};

export type MjProxyRequest = { method: string; path: string; headers: IncomingMessage["headers"]; body: string };

export type MjProxyMock = {
  url: string;
  tasks: Map<string, MjTask>;
  requests: MjProxyRequest[];
  /** Callbacks sent (and the status the gateway answered). */
  notified: { task: string; status: string; reply: number }[];
  /** Send every callback this many times (duplicate deliveries). */
  notifyRepeat: number;
  /** Upstream replies to list-by-condition stall this long (ms). */
  listDelayMs: number;
  /** Where finished tasks say their image is (default: this mock). */
  imageBase?: string;
  close: () => Promise<void>;
};

export const MJ_IMAGE_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7) % 256)),
]);

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(text);
}

let sequence = 0;

export async function startMjProxy(options: { secret: string; stepMs?: number }): Promise<MjProxyMock> {
  const stepMs = options.stepMs ?? 150;
  const timers = new Set<NodeJS.Timeout>();
  const hooks = new Map<string, string>();
  const mock: MjProxyMock = {
    url: "",
    tasks: new Map(),
    requests: [],
    notified: [],
    notifyRepeat: 1,
    listDelayMs: 0,
    close: async () => undefined,
  };

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const notify = async (task: MjTask) => {
    const hook = hooks.get(task.id);
    if (!hook) return;
    for (let i = 0; i < mock.notifyRepeat; i += 1) {
      try {
        const reply = await fetch(hook, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(task),
        });
        await reply.text();
        mock.notified.push({ task: task.id, status: task.status, reply: reply.status });
      } catch {
        mock.notified.push({ task: task.id, status: task.status, reply: 0 });
      }
    }
  };

  const advance = (task: MjTask, steps: (() => void)[]) => {
    const [step, ...rest] = steps;
    if (!step) return;
    later(stepMs, () => {
      step();
      void notify(task).then(() => advance(task, rest));
    });
  };

  const newTask = (action: string, body: Record<string, unknown>): MjTask => {
    sequence += 1;
    const id = `${Date.now()}${String(sequence).padStart(4, "0")}`;
    const prompt = typeof body.prompt === "string" ? body.prompt : "";
    const task: MjTask = {
      id,
      action,
      status: "SUBMITTED",
      progress: "0%",
      prompt,
      promptEn: prompt ? `${prompt} (en)` : "",
      description: `/${action.toLowerCase()} ${prompt}`,
      state: typeof body.state === "string" ? body.state : "",
      submitTime: Date.now(),
      startTime: 0,
      finishTime: 0,
      imageUrl: "",
      failReason: "",
      properties: {},
      buttons: [],
    };
    mock.tasks.set(id, task);
    if (typeof body.notifyHook === "string" && body.notifyHook) hooks.set(id, body.notifyHook);
    const steps: (() => void)[] = [
      () => Object.assign(task, { status: "IN_PROGRESS", progress: "10%", startTime: Date.now() }),
      () => Object.assign(task, { progress: "50%" }),
    ];
    if (prompt.includes("fail"))
      steps.push(() =>
        Object.assign(task, {
          status: "FAILURE",
          progress: "",
          failReason: "Banned prompt detected by Discord",
          finishTime: Date.now(),
        }),
      );
    else if (!prompt.includes("stuck")) {
      steps.push(() =>
        Object.assign(task, {
          status: "SUCCESS",
          progress: "100%",
          finishTime: Date.now(),
          imageUrl: `${mock.imageBase ?? mock.url}/attachments/${id}/grid.png`,
          properties: { finalPrompt: `${prompt} --v 6` },
          buttons: [1, 2, 3, 4].flatMap((n) => [
            { customId: `MJ::JOB::upsample::${n}::hash${id}`, emoji: "", label: `U${n}`, type: 2, style: 2 },
            { customId: `MJ::JOB::variation::${n}::hash${id}`, emoji: "", label: `V${n}`, type: 2, style: 2 },
          ]),
        }),
      );
    }
    advance(task, steps);
    return task;
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? "/").split("?")[0]!;
      mock.requests.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      if (req.method === "GET" && path.startsWith("/attachments/")) {
        res.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(MJ_IMAGE_BYTES.length) });
        return res.end(MJ_IMAGE_BYTES);
      }
      if (req.headers["mj-api-secret"] !== options.secret) {
        res.writeHead(401);
        return res.end();
      }
      // The plus proxy's mode paths: /mj-fast/mj/…, /mj-relax/mj/…, /mj-turbo/mj/….
      const route = path.replace(/^\/mj-(?:fast|relax|turbo)(?=\/mj\/)/, "");
      let parsed: Record<string, unknown> = {};
      try {
        parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        return json(res, 400, { code: 4, description: "invalid json" });
      }
      if (req.method === "POST" && route === "/mj/task/list-by-condition") {
        if (mock.listDelayMs) await new Promise((r) => setTimeout(r, mock.listDelayMs));
        const ids = Array.isArray(parsed.ids) ? (parsed.ids as string[]) : [];
        return json(res, 200, ids.map((id) => mock.tasks.get(id)).filter(Boolean));
      }
      const fetchMatch = /^\/mj\/task\/([^/]+)\/fetch$/.exec(route);
      if (req.method === "GET" && fetchMatch) {
        const task = mock.tasks.get(fetchMatch[1]!);
        return task ? json(res, 200, task) : json(res, 404, { code: 3, description: "task not found" });
      }
      const seedMatch = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(route);
      if (req.method === "GET" && seedMatch)
        return json(res, 200, { code: 1, description: "成功", result: "3952613749" });
      const submit = /^\/mj\/(?:submit\/([a-z-]+)|(insight-face\/swap))$/.exec(route);
      if (req.method !== "POST" || !submit) return json(res, 404, { code: 3, description: "not found" });
      const kind = submit[1] ?? submit[2]!;
      const prompt = typeof parsed.prompt === "string" ? parsed.prompt : "";
      if (kind === "imagine" && !prompt)
        return json(res, 200, { code: 4, description: "prompt不能为空", result: null });
      if (prompt.includes("banned"))
        return json(res, 200, {
          code: 24,
          description: "可能包含敏感词",
          result: null,
          properties: { promptEn: prompt, bannedWord: "banned" },
        });
      if (["change", "simple-change", "action", "modal"].includes(kind)) {
        const parentId =
          typeof parsed.taskId === "string"
            ? parsed.taskId
            : typeof parsed.content === "string"
              ? parsed.content.split(" ")[0]!
              : "";
        if (!mock.tasks.has(parentId))
          return json(res, 200, { code: 3, description: "关联任务不存在或已失效", result: null });
      }
      const action =
        {
          imagine: "IMAGINE",
          describe: "DESCRIBE",
          blend: "BLEND",
          shorten: "SHORTEN",
          change: String(parsed.action ?? "UPSCALE"),
          "simple-change": "UPSCALE",
          action: "UPSCALE",
          modal: "MODAL",
          "insight-face/swap": "SWAP_FACE",
          "upload-discord-images": "UPLOAD",
        }[kind] ?? "IMAGINE";
      const task = newTask(action, parsed);
      if (prompt.includes("queued"))
        return json(res, 200, {
          code: 22,
          description: "排队中，前面还有1个任务",
          result: task.id,
          properties: { numberOfQueues: 1, discordInstanceId: "1118138338562560102" },
        });
      return json(res, 200, {
        code: 1,
        description: "提交成功",
        result: task.id,
        properties: { discordInstanceId: "1118138338562560102" },
      });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { code: 9, description: String(error) });
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
