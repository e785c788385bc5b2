import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * Every string and template literal with Chinese text in the code that can reach a reader: `.ts`
 * modules and `.tsx` pages whole. A template literal's `${…}` parts become `{{}}`, the same
 * shape catalog keys are compared in. `fixed` marks Chinese written straight into page markup
 * (JSX text, or a quoted attribute): it cannot follow the reader's language at all.
 */
export type CjkLiteral = { file: string; line: number; text: string; fixed?: boolean };

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;

function filesUnder(dir: string): string[] {
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The text of a literal with each substitution as `{{}}`. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((span) => `{{}}${span.literal.text}`).join("");
  return undefined;
}

/** Chinese placed in markup as it is: JSX text, or a JSX attribute given a quoted string. */
function fixedMarkupText(node: ts.Node): string | undefined {
  if (ts.isJsxText(node)) return node.text.trim();
  if (ts.isStringLiteral(node) && ts.isJsxAttribute(node.parent)) return node.text;
  return undefined;
}

export function cjkLiterals(root: string, dirs: string[]): CjkLiteral[] {
  const found: CjkLiteral[] = [];
  for (const file of dirs.flatMap((dir) => filesUnder(join(root, dir)))) {
    const tsx = file.endsWith(".tsx");
    const source = ts.createSourceFile(
      file,
      readFileSync(file, "utf8"),
      ts.ScriptTarget.Latest,
      true,
      tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (node: ts.Node): void => {
      const line = () => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const fixed = tsx ? fixedMarkupText(node) : undefined;
      const text = literalText(node);
      if (fixed !== undefined && CJK.test(fixed)) {
        found.push({ file: relative(root, file), line: line(), text: fixed, fixed: true });
      } else if (text !== undefined) {
        // A literal inside a template's substitution is visited on its own below; the template
        // itself is taken whole only when it carries Chinese outside its substitutions.
        if (CJK.test(text) && !ts.isImportDeclaration(node.parent))
          found.push({ file: relative(root, file), line: line(), text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * Placeholders of every style (`{{name}}`, `{name}`, a template's `${…}`) made one, so keys and
 * literals compare; values side by side are one value to a reader (and to the catalog).
 */
export function placeholderShape(text: string): string {
  return text.replace(/\{\{\s*[\w.]*\s*\}\}|\{\w+\}/g, "{{}}").replace(/(\{\{\}\})+/g, "{{}}");
}

export { CJK };
