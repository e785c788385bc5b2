/** `p` is 0-based as in the reference; page sizes are clamped so nobody asks for a million rows. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

const MAX_PAGE = 1_000_000;

export function readPage(url: URL, sizeParam = "page_size", defaultSize = 10): { page: number; size: number } {
  // Capped so an absurd page number is an empty page, not an OFFSET the database refuses.
  const page = Math.min(MAX_PAGE, Math.max(0, Math.floor(Number(url.searchParams.get("p") ?? "0")) || 0));
  const requested = Math.floor(Number(url.searchParams.get(sizeParam) ?? defaultSize)) || defaultSize;
  return { page, size: Math.min(100, Math.max(1, requested)) };
}

/** The log lists count pages from 1 (`p`), unlike every other list (the reference's quirk, kept for its clients). */
export function readLogPage(url: URL): { page: number; size: number } {
  const { page, size } = readPage(url);
  return { page: Math.max(1, page), size };
}
