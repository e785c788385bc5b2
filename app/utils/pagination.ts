/** `p` is 0-based as in the reference; page sizes are clamped so nobody asks for a million rows. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export function readPage(url: URL, sizeParam = "page_size", defaultSize = 10): { page: number; size: number } {
  const page = Math.max(0, Math.floor(Number(url.searchParams.get("p") ?? "0")) || 0);
  const requested = Math.floor(Number(url.searchParams.get(sizeParam) ?? defaultSize)) || defaultSize;
  return { page, size: Math.min(100, Math.max(1, requested)) };
}
