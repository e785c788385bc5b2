import { describe, expect, it } from "vitest";
import { jsonWithoutNul, readTaskFilter } from "~/domain/tasks/task-list";
import {
  actionOfCustomId,
  clearModeFlags,
  decodeTaskId,
  mjSubmitKind,
  readReportedMjTask,
} from "~/relay/tasks/mj-wire";

describe("Midjourney wire parsing", () => {
  it("reads the action of a submit and the task it acts on", () => {
    expect(mjSubmitKind("imagine", { prompt: "cat" })).toEqual({ action: "IMAGINE" });
    expect(mjSubmitKind("imagine", { prompt: "  " })).toEqual({ error: "prompt_is_required" });
    expect(mjSubmitKind("change", { taskId: "17", action: "variation", index: 2 })).toEqual({
      action: "VARIATION",
      originTaskId: "17",
    });
    expect(mjSubmitKind("change", { taskId: "17", action: "ZOOM" })).toEqual({ error: "action_is_invalid" });
    expect(mjSubmitKind("simple-change", { content: "17 U2" })).toEqual({ action: "UPSCALE", originTaskId: "17" });
    expect(mjSubmitKind("simple-change", { content: "17 v4" })).toEqual({ action: "VARIATION", originTaskId: "17" });
    expect(mjSubmitKind("simple-change", { content: "17 R" })).toEqual({ action: "REROLL", originTaskId: "17" });
    expect(mjSubmitKind("simple-change", { content: "17 U5" })).toEqual({ error: "content_is_invalid" });
    expect(mjSubmitKind("modal", {})).toEqual({ error: "task_id_is_required" });
    expect(mjSubmitKind("insight-face/swap", {})).toEqual({ action: "SWAP_FACE" });
    expect(mjSubmitKind("upload-discord-images", {})).toEqual({ action: "UPLOAD" });
  });

  it("maps button custom ids to actions as the reference does", () => {
    expect(actionOfCustomId("MJ::JOB::upsample::1::85a4")).toBe("UPSCALE");
    expect(actionOfCustomId("MJ::JOB::upsample_v6_2x_subtle::1::85a4::SOLO")).toBe("UPSCALE");
    expect(actionOfCustomId("MJ::JOB::variation::3::85a4")).toBe("VARIATION");
    expect(actionOfCustomId("MJ::JOB::low_variation::1::85a4::SOLO")).toBe("LOW_VARIATION");
    expect(actionOfCustomId("MJ::JOB::high_variation::1::85a4::SOLO")).toBe("HIGH_VARIATION");
    expect(actionOfCustomId("MJ::JOB::pan_left::1::85a4::SOLO")).toBe("PAN");
    expect(actionOfCustomId("MJ::JOB::reroll::0::85a4::SOLO")).toBe("REROLL");
    expect(actionOfCustomId("MJ::Outpaint::50::1::85a4::SOLO")).toBe("ZOOM");
    expect(actionOfCustomId("MJ::CustomZoom::85a4")).toBe("CUSTOM_ZOOM");
    expect(actionOfCustomId("MJ::Inpaint::1::85a4::SOLO")).toBe("INPAINT");
    expect(actionOfCustomId("something else")).toBeUndefined();
  });

  it("reads an untrusted task object field by field", () => {
    const task = readReportedMjTask({
      id: 1735689600123456,
      status: "in_progress",
      progress: "45%",
      submitTime: "1735689600123",
      startTime: -5,
      finishTime: 1e30,
      failReason: "a\u0000b",
      buttons: [{ customId: "x" }],
      properties: { finalPrompt: "Cat" },
      imageUrl: 42,
    });
    expect(task).toMatchObject({
      id: "1735689600123456",
      status: "IN_PROGRESS",
      progress: "45%",
      submitTime: 1735689600123,
      startTime: 0,
      finishTime: 0,
      failReason: "ab",
      imageUrl: "42",
    });
    expect(JSON.parse(task!.buttons)).toEqual([{ customId: "x" }]);
    expect(readReportedMjTask({ status: "SUCCESS" })).toBeUndefined();
    expect(readReportedMjTask([1])).toBeUndefined();
  });

  it("clears mode flags and refuses broken task ids", () => {
    expect(clearModeFlags("cat --fast --ar 16:9 --TURBO")).toBe("cat --ar 16:9");
    expect(decodeTaskId("%ZZ")).toBe("");
    expect(decodeTaskId("a%00b")).toBe("");
    expect(decodeTaskId("17%20")).toBe("17 ");
  });

  it("keeps values jsonb can store and filters in range", () => {
    expect(jsonWithoutNul({ "k\u0000": ["a\u0000b", "\ud800x", "😀"] })).toEqual({ k: ["ab", "\ufffdx", "😀"] });
    expect(readTaskFilter(new URLSearchParams("channel_id=2147483648&mj_id=a%00b"), "mj_id", "all")).toMatchObject({
      channelId: undefined,
      taskId: "ab",
    });
    expect(readTaskFilter(new URLSearchParams("channel_id=7"), "mj_id", { userId: 3 })).toMatchObject({
      userId: 3,
      channelId: undefined,
    });
  });
});
