/** Text made safe to place in a mail's HTML body or attribute: the five characters HTML gives meaning. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
