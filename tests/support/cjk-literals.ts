import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * Every string and template literal with Chinese text in the server code that can reach a
 * reader: `.ts` modules whole, and in `.tsx` routes only their `loader` and `action` (the page
 * markup is translated separately). A template literal's `${…}` parts become `{{}}`, the same
 * shape catalog keys are compared in.
 */
export type CjkLiteral = { file: string; line: number; text: string };

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;
const SERVER_PARTS = new Set(["loader", "action"]);

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
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `{{}}${span.literal.text}`).join("");
  return undefined;
}

/** Whether a `.tsx` node sits inside the module's `loader` or `action` function. */
function inServerPart(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isFunctionDeclaration(at) && at.name && SERVER_PARTS.has(at.name.text)) return true;
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name) && SERVER_PARTS.has(at.name.text)) return true;
  }
  return false;
}

export function cjkLiterals(root: string, dirs: string[]): CjkLiteral[] {
  const found: CjkLiteral[] = [];
  for (const file of dirs.flatMap((dir) => filesUnder(join(root, dir)))) {
    const tsx = file.endsWith(".tsx");
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      const text = literalText(node);
      if (text !== undefined) {
        // A literal inside a template's substitution is visited on its own below; the template
        // itself is taken whole only when it carries Chinese outside its substitutions.
        if (CJK.test(text) && (!tsx || inServerPart(node)) && !ts.isImportDeclaration(node.parent)) {
          found.push({ file: relative(root, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
        }
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
