import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ServerBuild } from "@remix-run/node";
import type { ObservedResponse } from "../app/utils/observed-response.server";

/** What the server build's entry module exports besides the Remix document handler. */
export type EntryExports = {
  bootSteps: (typeof import("../app/entry.server"))["bootSteps"];
  startBoot: (sequence: () => Promise<void>) => Promise<void>;
  isFreshEmbeddedDatabase: () => boolean;
  prepareDatabase: () => Promise<void>;
  shutdownApp: () => Promise<void>;
  billingWritten: () => Promise<void>;
  handleRelay: (req: IncomingMessage, res: ObservedResponse) => Promise<void>;
  handleRealtimeUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;
  isRelayPath: (url: string) => boolean;
  refuseCrossSiteMutation: (req: IncomingMessage, res: ServerResponse) => boolean;
  apiBodyLimit: () => number;
  answerDatabaseOutages: (build: ServerBuild) => ServerBuild;
  answerInReadersLanguage: (build: ServerBuild) => ServerBuild;
};

export function entryOf(build: ServerBuild): EntryExports {
  return build.entry.module as unknown as EntryExports;
}
