/** Operator content: a URL becomes a frame, anything else arrives as server-rendered markdown. */
export function SiteContent({ frameUrl, html, title }: { frameUrl?: string; html?: string; title: string }) {
  if (frameUrl) return <iframe src={frameUrl} title={title} className="h-[80vh] w-full rounded border-0" />;
  return <div className="prose-content" dangerouslySetInnerHTML={{ __html: html ?? "" }} />;
}
