import { afterEach, describe, expect, it, vi } from "vitest";
import { logRequestError } from "~/web/request-error-log.server";

/** The error response Remix builds itself for a request its routes cannot take (router's ErrorResponseImpl). */
function remixErrorResponse(status: number, statusText: string, message: string) {
  const error = new Error(message);
  return { status, statusText, internal: true, data: `Error: ${message}`, error };
}

const args = (request = new Request("http://127.0.0.1:3000/api/status", { method: "POST" })) => ({
  request,
  params: {},
  context: {},
});

afterEach(() => vi.restoreAllMocks());

describe("the server log for errors Remix reports", () => {
  it("writes nothing for the 4xx Remix answers a client's mistake with", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    logRequestError(
      remixErrorResponse(
        405,
        "Method Not Allowed",
        'You made a POST request to "/api/status" but did not provide an `action`',
      ),
      args(),
    );
    logRequestError(remixErrorResponse(404, "Not Found", 'No route matches URL "/x"'), args());
    logRequestError(remixErrorResponse(400, "Bad Request", "Invalid request method"), args());
    expect(log).not.toHaveBeenCalled();
  });

  it("keeps an unexpected error with its stack, also when Remix wrapped it in a 5xx", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const crash = new Error("the database went away");
    logRequestError(crash, args());
    const wrapped = remixErrorResponse(500, "Internal Server Error", "loader failed");
    logRequestError(wrapped, args());
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls[0]![0]).toBe(crash);
    expect(log.mock.calls[1]![0]).toBe(wrapped.error);
    expect(String((log.mock.calls[0]![0] as Error).stack)).toContain("    at ");
  });

  it("writes nothing for a request the client abandoned", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const controller = new AbortController();
    controller.abort();
    logRequestError(
      new Error("aborted"),
      args(new Request("http://127.0.0.1:3000/log", { signal: controller.signal })),
    );
    expect(log).not.toHaveBeenCalled();
  });
});
