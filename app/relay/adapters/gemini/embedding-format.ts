import { encodeEmbedding } from "../shared/openai-shapes";

/** An embedding as the client asked for it: numbers, or base64 float32 bytes (encodeEmbedding). */
export function formatEmbedding(values: unknown, body: Record<string, unknown>): number[] | string {
  const numbers = Array.isArray(values) ? values.map((v) => (typeof v === "number" ? v : Number(v) || 0)) : [];
  return encodeEmbedding(numbers, body.encoding_format) as number[] | string;
}
