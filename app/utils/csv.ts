/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled.
 * Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading
 * apostrophe: token and model names are chosen by users and end up in an admin's Excel.
 */
export function csvField(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: (string | number | boolean)[]): string => `${fields.map(csvField).join(",")}\r\n`;

/** A byte-order mark first, so Excel reads the file as UTF-8 (and shows Chinese) instead of the system code page. */
export const UTF8_BOM = "\uFEFF";
