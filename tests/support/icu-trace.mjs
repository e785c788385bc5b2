// Loaded with `node --import` before a module under test: reports on stderr each use of a service
// that makes ICU map its locale or zone data into the process (several MB of resident memory).
const report = (what) =>
  process.stderr.write(`[icu] ${what}\n${new Error().stack.split("\n").slice(3, 6).join("\n")}\n`);
for (const name of [
  "DateTimeFormat",
  "NumberFormat",
  "Collator",
  "Segmenter",
  "PluralRules",
  "RelativeTimeFormat",
  "ListFormat",
  "DisplayNames",
]) {
  const Service = Intl[name];
  Intl[name] = new Proxy(Service, {
    construct(target, args) {
      report(`Intl.${name}`);
      return Reflect.construct(target, args);
    },
    apply(target, self, args) {
      report(`Intl.${name}()`);
      return Reflect.apply(target, self, args);
    },
  });
}
for (const [proto, method] of [
  [String.prototype, "localeCompare"],
  [Number.prototype, "toLocaleString"],
  [Date.prototype, "toLocaleString"],
  [Date.prototype, "toLocaleDateString"],
  [Date.prototype, "toLocaleTimeString"],
]) {
  const original = proto[method];
  proto[method] = function (...args) {
    report(method);
    return original.apply(this, args);
  };
}
