/**
 * Engine knowledge stays in its engine's folder: outside kernel/src/engines/, no code names an
 * engine (a string, an identifier or a text a user reads). Comments may name one, to explain.
 * The list of engines is the registry's (kernel/src/engines/engine-registry.ts) and each engine's own
 * descriptor; everything else asks them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const SCANNED = ['kernel/src', 'contracts', 'extension/src'];
const ENGINE_FOLDER = 'kernel/src/engines/';
const ENGINE_WORD = /elasticsearch|typesense|opensearch/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap(entry => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      return entry === 'node_modules' ? [] : sourceFiles(path);
    }
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** The names, strings and template texts of a file that name an engine, with their lines; comments are not read. */
export function engineNamesInCode(
  text: string
): { line: number; token: string }[] {
  const source = ts.createSourceFile(
    'scanned.ts',
    text,
    ts.ScriptTarget.Latest,
    true
  );
  const found: { line: number; token: string }[] = [];
  const visit = (node: ts.Node): void => {
    const named =
      ts.isIdentifier(node) || ts.isPrivateIdentifier(node)
        ? node.text
        : ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)
          ? node.text
          : undefined;
    if (named !== undefined && ENGINE_WORD.test(named)) {
      found.push({
        line:
          source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        token: named.slice(0, 80)
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const naming = SCANNED.flatMap(dir => sourceFiles(join(ROOT, dir)))
  .map(file => relative(ROOT, file).split('\\').join('/'))
  .filter(
    file =>
      !file.startsWith(ENGINE_FOLDER) ||
      file === `${ENGINE_FOLDER}engine-registry.ts`
  )
  .map(file => ({
    file,
    names: engineNamesInCode(readFileSync(join(ROOT, file), 'utf8'))
  }))
  .filter(({ names }) => names.length > 0);

test('the scanner sees engine names in strings, templates and identifiers, not in comments', () => {
  const sample = [
    '// elasticsearch in a comment',
    "/* Typesense */ const a = 'typesense';",
    'const b = `x ${a} Elasticsearch`;',
    'const OpenSearchThing = 1;'
  ].join('\n');
  expect(engineNamesInCode(sample).map(n => n.line)).toEqual([2, 3, 4]);
});

test('outside the engine folders, only the registry names an engine', () => {
  const files = naming.map(({ file }) => file);
  const unexpected = naming.filter(
    ({ file }) => file !== `${ENGINE_FOLDER}engine-registry.ts`
  );
  expect(
    unexpected.map(
      ({ file, names }) =>
        `${file}: ${names.map(n => `line ${n.line}: ${n.token}`).join('; ')}`
    )
  ).toEqual([]);
  expect(files).toContain(`${ENGINE_FOLDER}engine-registry.ts`);
});
