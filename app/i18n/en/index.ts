import { accountMessages } from "./accounts";
import { apiMessages } from "./api";
import { channelMessages } from "./channels";
import { consoleMessages } from "./console";
import { logMessages } from "./logs";
import { mailMessages } from "./mail";
import { relayMessages } from "./relay";
import { relayRefusalMessages } from "./relay-refusals";
import { relayUpstreamMessages } from "./relay-upstream";
import { tokenMessages } from "./tokens";
import { shellPageText } from "./pages-shell";
import { channelPageText } from "./pages-channels";
import { settingsPageText } from "./pages-settings";
import { usagePageText } from "./pages-usage";
import { accountPageText } from "./pages-accounts";

/** The English catalog: Chinese source text → English, one file per area. */
export const english: Record<string, string> = {
  ...consoleMessages,
  ...apiMessages,
  ...accountMessages,
  ...channelMessages,
  ...tokenMessages,
  ...logMessages,
  ...mailMessages,
  ...relayMessages,
  ...relayRefusalMessages,
  ...relayUpstreamMessages,
  // Page markup: labels, headings and buttons, one file per area.
  ...shellPageText,
  ...channelPageText,
  ...settingsPageText,
  ...usagePageText,
  ...accountPageText,
};
