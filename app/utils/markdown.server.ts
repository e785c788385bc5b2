import MarkdownIt from "markdown-it";

/**
 * Operator-written content (home page, about, notice) is markdown. Raw HTML is disabled so a
 * stolen admin account cannot plant script on every visitor's page; links are kept.
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** The product lets HomePageContent / About be a URL, shown in a frame instead of rendered. */
export function isFrameUrl(content: string): boolean {
  return /^https?:\/\/\S+$/i.test(content.trim());
}
