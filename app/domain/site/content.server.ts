import { getOptionValue } from "~/domain/options/store.server";
import { isFrameUrl, renderMarkdown } from "~/utils/markdown.server";

export type SiteContentKey = "HomePageContent" | "About" | "Notice";

/** A page's operator content, ready to show: a frame URL, or markdown rendered without raw HTML. */
export function loadSiteContent(key: SiteContentKey): { raw: string; frameUrl?: string; html?: string } {
  const raw = (getOptionValue(key) ?? "").trim();
  if (!raw) return { raw };
  if (key !== "Notice" && isFrameUrl(raw)) return { raw, frameUrl: raw };
  return { raw, html: renderMarkdown(raw) };
}
