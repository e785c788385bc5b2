/**
 * Whether the database refused the data itself (a constraint, a cast, a value out of range)
 * rather than being unreachable or busy: only then does trying the same write again never help.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = String((error as { code?: string }).code ?? "");
  // No SQLSTATE, or connection (08), shutdown (57P) and resource (53) classes: try again as is.
  return /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08") && !code.startsWith("57P") && !code.startsWith("53");
}
