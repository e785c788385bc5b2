/**
 * An embedding as the client asked for it: numbers, or with `encoding_format: "base64"` (what the
 * openai SDK asks for by default) the little-endian float32 bytes in base64, as OpenAI sends them.
 */
export function formatEmbedding(values: unknown, body: Record<string, unknown>): number[] | string {
  const numbers = Array.isArray(values) ? values.map((v) => (typeof v === "number" ? v : Number(v) || 0)) : [];
  if (body.encoding_format !== "base64") return numbers;
  const floats = new Float32Array(numbers);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString("base64");
}
