/** Node flags written as text ("--flag --other=1") as an argument list. */
export const argsOf = (text = ""): string[] => text.split(" ").filter(Boolean);

/** Environment written as text ("NAME=value OTHER=1") as an object. */
export const envOf = (text = ""): Record<string, string> =>
  Object.fromEntries(
    text
      .split(" ")
      .filter(Boolean)
      .map((pair) => pair.split("=") as [string, string]),
  );
