import { describe, expect, it } from "vitest";
import { keyRows, maskKey } from "~/domain/channels/channel-key-hints";
import {
  enabledKeyCount,
  KEY_STATUS,
  multiKeyInfo,
  ONE_KEY_INFO,
  parseChannelInfo,
  splitKeys,
  withKeyStatus,
} from "~/domain/channels/multi-key";

/** The reference's channel_info as read at the edge, and the hints the console shows of keys. */
describe("channel_info", () => {
  it("reads the reference's JSON; blank or unreadable text is a one-key channel", () => {
    expect(parseChannelInfo("")).toEqual(ONE_KEY_INFO);
    expect(parseChannelInfo("{not json")).toEqual(ONE_KEY_INFO);
    const info = parseChannelInfo(
      JSON.stringify({
        is_multi_key: true,
        multi_key_size: 3,
        multi_key_mode: "polling",
        multi_key_status_list: { 1: 3 },
        multi_key_disabled_reason: { 1: "401" },
      }),
    );
    expect(info).toMatchObject({
      is_multi_key: true,
      multi_key_size: 3,
      multi_key_mode: "polling",
      multi_key_status_list: { 1: 3 },
      multi_key_disabled_time: {},
    });
    // A field of the wrong shape falls back alone; the rest is kept.
    expect(
      parseChannelInfo(JSON.stringify({ is_multi_key: true, multi_key_size: 2, multi_key_mode: "sometimes" })),
    ).toMatchObject({ multi_key_size: 2, multi_key_mode: "random" });
  });

  it("counts enabled keys, ignoring statuses past the key set's size", () => {
    let info = multiKeyInfo(3, "random");
    expect(enabledKeyCount(info)).toBe(3);
    info = withKeyStatus(info, 0, KEY_STATUS.manuallyDisabled, "手动禁用", 100);
    info = withKeyStatus(info, 7, KEY_STATUS.autoDisabled, "stale", 100);
    expect(enabledKeyCount(info)).toBe(2);
    info = withKeyStatus(info, 0, KEY_STATUS.enabled, "", 200);
    expect(info.multi_key_status_list).toEqual({ 7: 3 });
    expect(enabledKeyCount(ONE_KEY_INFO)).toBe(1);
  });

  it("splits a multi-key channel's key text into its keys in line order; a one-key channel is one key", () => {
    expect(splitKeys("a\r\n\n b \nc\n", multiKeyInfo(3, "random"))).toEqual(["a", "b", "c"]);
    expect(splitKeys("a\nb", ONE_KEY_INFO)).toEqual(["a\nb"]);
  });
});

describe("key hints", () => {
  it("shows the first 3 and last 4 characters of a long key, at most a quarter of a short one", () => {
    expect(maskKey("sk-abcdefghijklmnopqrstuvwxyz0123")).toBe("sk-…0123");
    expect(maskKey("sk-0123456789abc")).toBe("sk-…9abc");
    expect(maskKey("abcdefgh")).toBe("…gh");
    expect(maskKey("abc")).toBe("…");
    expect(maskKey("")).toBe("…");
  });

  it("lists each key by index with its status, reason and time, never the key", () => {
    const keys = ["sk-first-key-000000001", "sk-second-key-00000002"];
    const info = withKeyStatus(
      multiKeyInfo(2, "random"),
      1,
      KEY_STATUS.autoDisabled,
      "401 Unauthorized",
      1_700_000_000,
    );
    const rows = keyRows(keys.join("\n"), info);
    expect(rows).toEqual([
      { index: 0, hint: "sk-…0001", status: 1, reason: "", time: 0 },
      { index: 1, hint: "sk-…0002", status: 3, reason: "401 Unauthorized", time: 1_700_000_000 },
    ]);
    expect(JSON.stringify(rows)).not.toContain("first-key");
    expect(keyRows("sk-one", ONE_KEY_INFO)).toEqual([]);
    // A key text that cannot be opened still lists every index, so its keys can be managed.
    expect(keyRows(null, info).map((r) => [r.index, r.hint, r.status])).toEqual([
      [0, "（无法解密）", 1],
      [1, "（无法解密）", 3],
    ]);
  });
});
