import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { baseUrl, fakeIp, loginRoot, newAdmin, newUser, request, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * Log search (/api/log/search, /api/log/self/search), the streamed CSV export (/log/export.csv)
 * and keyset paging of the log list, on both databases.
 */
const databaseUrl = inject("databaseUrl");
// Comma, quotes, a line break and Chinese, and a leading "=" a spreadsheet would run as a formula.
const ODD_TOKEN = '=x,"引号"\n中文';
let root: ApiSession;
let admin: ApiSession;
let upstream: MockUpstream;
let model: string;
let caller: Awaited<ReturnType<typeof userWithToken>>;
let other: Awaited<ReturnType<typeof userWithToken>>;

beforeAll(async () => {
  root = await loginRoot();
  admin = await newAdmin();
  upstream = await startOpenAiMock();
  model = uniqueModel("logsx");
  await mergeOption(root, "ModelRatio", { [model]: 1 });
  await createChannel(root, { base_url: upstream.url, models: model });
  caller = await userWithToken(1_000_000, { name: ODD_TOKEN });
  other = await userWithToken(1_000_000);
  for (const who of [caller, caller, other])
    await who.client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
});
afterAll(async () => {
  await upstream?.close();
});

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\r" && text[i + 1] === "\n") {
      endField();
      rows.push(row);
      row = [];
      i += 1;
    } else field += c;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

async function exportCsv(session: ApiSession | undefined, query: string) {
  const res = await fetch(`${baseUrl()}/log/export.csv?${query}`, {
    headers: { "X-Forwarded-For": fakeIp(), ...(session ? { Cookie: session.cookie } : {}) },
    redirect: "manual",
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, rows: res.status === 200 ? parseCsv(bytes.toString("utf8").replace(/^\uFEFF/, "")) : [] };
}

describe("keyword search", () => {
  it("admin search: visitors and users refused; admins and root find every user's rows, newest first", async () => {
    expect((await request("GET", `/api/log/search?keyword=${model}`)).json).toMatchObject({ success: false });
    expect((await caller.user.call("GET", `/api/log/search?keyword=${model}`)).json).toMatchObject({ success: false });
    for (const who of [admin, root]) {
      const res = await who.call("GET", `/api/log/search?keyword=${model}`);
      expect(res.json.success).toBe(true);
      const items = res.json.data as { user_id: number; created_at: number; id: number; other: string }[];
      expect(items.map((i) => i.user_id).sort()).toEqual(
        [caller.user.userId, caller.user.userId, other.user.userId].sort(),
      );
      expect(JSON.parse(items[0]!.other).admin_info).toBeDefined();
      const order = items.map((i) => [i.created_at, i.id] as const);
      expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]));
    }
    // By user name and by token name too.
    expect(
      ((await root.call("GET", `/api/log/search?keyword=${other.user.username}`)).json.data as unknown[]).length,
    ).toBeGreaterThanOrEqual(1);
    expect(
      ((await root.call("GET", `/api/log/search?keyword=${encodeURIComponent(ODD_TOKEN)}`)).json.data as unknown[])
        .length,
    ).toBe(2);
  });

  it("self search: each signed-in role sees only its own rows, without the channel chain; visitors refused", async () => {
    expect((await request("GET", `/api/log/self/search?keyword=${model}`)).json).toMatchObject({ success: false });
    const mine = await caller.user.call("GET", `/api/log/self/search?keyword=${model}`);
    expect(mine.json.success).toBe(true);
    expect(mine.json.data).toHaveLength(2);
    for (const item of mine.json.data as { user_id: number; other: string }[]) {
      expect(item.user_id).toBe(caller.user.userId);
      expect(JSON.parse(item.other)).not.toHaveProperty("admin_info");
    }
    expect((await other.user.call("GET", `/api/log/self/search?keyword=${model}`)).json.data).toHaveLength(1);
    // A user's search never reaches someone else's rows, not by their name either.
    expect((await caller.user.call("GET", `/api/log/self/search?keyword=${other.user.username}`)).json.data).toEqual(
      [],
    );
    for (const who of [admin, root])
      expect((await who.call("GET", `/api/log/self/search?keyword=${model}`)).json).toEqual({
        success: true,
        message: "",
        data: [],
      });
  });

  it("answers odd keywords with a list, never a server error", async () => {
    for (const keyword of ["", "%", "_", "\\", "2", "99999999999999", "'; drop table logs; --", "x".repeat(5000)]) {
      const res = await root.call("GET", `/api/log/search?keyword=${encodeURIComponent(keyword)}`);
      expect(res.status, keyword).toBe(200);
      expect(res.json.success, keyword).toBe(true);
      expect((res.json.data as unknown[]).length, keyword).toBeLessThanOrEqual(100);
    }
  });
});

describe("CSV export", () => {
  it("visitors are sent to sign in; a user gets only their own rows; admins and root everyone's, with the admin filters", async () => {
    const visitor = await exportCsv(undefined, "");
    expect(visitor.res.status).toBe(302);
    expect(visitor.res.headers.get("location")).toMatch(/^\/login/);

    const own = await exportCsv(caller.user, "type=2");
    expect(own.res.status).toBe(200);
    expect(own.res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(own.res.headers.get("content-disposition")).toMatch(/^attachment; filename="logs-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect([...own.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = own.rows;
    expect(header).toEqual(["时间", "令牌", "类型", "模型", "用时(秒)", "流式", "提示", "补全", "额度", "详情"]);
    expect(rows).toHaveLength(2);
    // The user filter of the admin view is ignored for a user.
    expect((await exportCsv(caller.user, `type=2&username=${other.user.username}`)).rows).toHaveLength(3);

    for (const who of [admin, root]) {
      const all = await exportCsv(who, `model_name=${model}`);
      expect(all.rows[0]!.slice(0, 3)).toEqual(["时间", "渠道", "用户"]);
      expect(
        all.rows
          .slice(1)
          .map((r) => r[2])
          .sort(),
      ).toEqual([caller.user.username, caller.user.username, other.user.username].sort());
      const one = await exportCsv(who, `model_name=${model}&username=${other.user.username}`);
      expect(one.rows).toHaveLength(2);
    }
  });

  it("escapes commas, quotes, line breaks and formulas, and keeps Chinese readable", async () => {
    const { rows, bytes } = await exportCsv(caller.user, `model_name=${model}`);
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(10);
      expect(row[1]).toBe(`'${ODD_TOKEN}`);
      expect(row[2]).toBe("消费");
      expect(row[3]).toBe(model);
      expect(row[9]).toMatch(/倍率/);
    }
    expect(bytes.toString("utf8")).toContain(`"'=x,""引号""\n中文"`);
  });
});

describe("keyset pages", () => {
  it("next and previous cursors give every row once while new rows are being written", async () => {
    const target = await newUser();
    let quota = 0;
    const edit = async () => {
      quota += 1;
      expect((await root.call("PUT", "/api/user/", { id: target.userId, quota })).json.success).toBe(true);
    };
    for (let i = 0; i < 12; i += 1) await edit();
    const all = (await target.call("GET", "/api/log/self?type=3&page_size=100")).json.data.items.map(
      (i: { id: number }) => i.id,
    );
    expect(all).toHaveLength(12);

    const first = (await target.call("GET", "/api/log/self?type=3&page_size=5")).json.data;
    expect(first).toMatchObject({ total: 12, total_exact: true, page: 1, page_size: 5, prev_after: "" });
    // Newer rows arrive between page loads: with offsets the next page would repeat rows.
    for (let i = 0; i < 3; i += 1) await edit();
    const second = (await target.call("GET", `/api/log/self?type=3&page_size=5&before=${first.next_before}`)).json.data;
    await edit();
    const third = (await target.call("GET", `/api/log/self?type=3&page_size=5&before=${second.next_before}`)).json.data;
    expect(third.next_before).toBe("");
    const seen = [...first.items, ...second.items, ...third.items].map((i: { id: number }) => i.id);
    expect(seen).toEqual(all);
    // Back from the second page: the rows of the first.
    const back = (await target.call("GET", `/api/log/self?type=3&page_size=5&after=${second.prev_after}`)).json.data;
    expect(back.items.map((i: { id: number }) => i.id)).toEqual(first.items.map((i: { id: number }) => i.id));
    // Someone else's cursor shows nothing of theirs: the filter still pins the user.
    const stranger = (await caller.user.call("GET", `/api/log/self?type=3&page_size=5&before=${first.next_before}`))
      .json.data;
    expect(stranger.items).toEqual([]);
  });

  it("malformed cursors fall back to the first page; offset pages past the bound are empty, never an error", async () => {
    for (const cursor of ["x", "1_", "_1", "1e5_3", "99999999999999999999_1", "-1_-1"]) {
      const res = await caller.user.call("GET", `/api/log/self?type=2&before=${encodeURIComponent(cursor)}`);
      expect(res.json.success, cursor).toBe(true);
      expect(res.json.data.items, cursor).toHaveLength(2);
    }
    const deep = await root.call("GET", "/api/log/?p=5000&page_size=100");
    expect(deep.json).toMatchObject({ success: true, data: { items: [], page: 5000 } });
  });
});

describe.skipIf(!databaseUrl)("a large export is streamed (PostgreSQL)", () => {
  let client: pg.Client;
  let user: ApiSession;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    user = await newUser();
  });
  afterAll(async () => {
    await client?.query("delete from logs where user_id = $1", [user.userId]);
    await client?.end();
  });

  it("the first rows arrive before the last are read: a row written mid-download, older than all, is in the file", async () => {
    // Fifty batches: reading them all takes far longer than the insert below takes to follow the first chunk.
    const rows = 50_000;
    const at = Math.floor(Date.now() / 1000) - 3 * 86400;
    await client.query(
      `insert into logs (created_at, type, content, user_id, username, model_name, quota)
       select $1 + g / 25, 2, 'row ' || g, $2, $3, 'bulk', g from generate_series(1, ${rows}) g`,
      [at, user.userId, user.username],
    );
    // Uncompressed, so the server's socket cannot swallow the whole file at once.
    const res = await fetch(`${baseUrl()}/log/export.csv`, {
      headers: { Cookie: user.cookie, "Accept-Encoding": "identity" },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const firstChunk = await reader.read();
    let text = decoder.decode(firstChunk.value, { stream: true });
    expect(text.startsWith("\uFEFF时间,")).toBe(true);
    await client.query(
      "insert into logs (created_at, type, content, user_id, username, model_name) values (5000, 2, 'written mid-download', $1, $2, 'bulk')",
      [user.userId, user.username],
    );
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
    const lines = parseCsv(text.replace(/^\uFEFF/, ""));
    expect(lines).toHaveLength(1 + rows + 1);
    expect(lines[lines.length - 1]![9]).toBe("written mid-download");
    expect(new Set(lines.slice(1).map((l) => l[9])).size).toBe(rows + 1);
  }, 120_000);
});

describe("log types are written where they happen", () => {
  it("an admin's quota change is a management log; a channel's automatic disable one system log, however many calls hit it", async () => {
    const target = await newUser();
    expect((await root.call("PUT", "/api/user/", { id: target.userId, quota: 4242 })).json.success).toBe(true);
    const manage = (await root.call("GET", `/api/log/?type=3&username=${target.username}`)).json.data.items;
    expect(manage).toHaveLength(1);
    expect(manage[0]).toMatchObject({ type: 3, user_id: target.userId, content: expect.stringContaining("4242") });

    const broken = await startOpenAiMock();
    const options = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
    const previous = options.find((o) => o.key === "AutomaticDisableChannelEnabled")?.value ?? "false";
    try {
      broken.fault = {
        kind: "status",
        status: 401,
        body: {
          error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
        },
      };
      const failing = uniqueModel("ad");
      await mergeOption(root, "ModelRatio", { [failing]: 1 });
      const id = await createChannel(root, { base_url: broken.url, models: failing, auto_ban: 1 });
      expect(
        (await root.call("PUT", "/api/option/", { key: "AutomaticDisableChannelEnabled", value: "true" })).json.success,
      ).toBe(true);
      for (let i = 0; i < 2; i += 1)
        await expect(
          caller.client.chat.completions.create({ model: failing, messages: [{ role: "user", content: "hi" }] }),
        ).rejects.toThrow();
      expect((await root.call("GET", `/api/channel/${id}`)).json.data.status).toBe(3);
      const system = (await root.call("GET", `/api/log/?type=4&channel=${id}`)).json.data.items;
      expect(system).toHaveLength(1);
      expect(system[0]).toMatchObject({
        type: 4,
        channel: id,
        content: expect.stringMatching(new RegExp(`（#${id}）已被自动禁用，原因：401 Incorrect API key`)),
      });
      // Operators' business: a user's own log never shows it.
      const own = (await caller.user.call("GET", "/api/log/self?type=4")).json.data.items as { content: string }[];
      expect(own.some((l) => l.content.includes("自动禁用"))).toBe(false);
    } finally {
      await root.call("PUT", "/api/option/", { key: "AutomaticDisableChannelEnabled", value: previous });
      await broken.close();
    }
  });
});
