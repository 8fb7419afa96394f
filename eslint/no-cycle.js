// @ts-check
/**
 * `local/no-cycle`: a module may not reach itself again through its imports. Static imports,
 * re-exports, dynamic `import()` (a lazy import still ties the two modules together) and
 * type-only imports (two modules that describe each other are one design) all count. Resolves relative paths and the
 * project's aliases (`@/` → src/, `@testing` → test/testing/); packages are leaves.
 *
 * A local rule because eslint-plugin-import-x is not among the installed packages; it does what
 * `import-x/no-cycle` would do for this repo (see docs/kits.md, "Import rules").
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/**
 * @param {string} root
 * @returns {Record<string, string>}
 */
const aliasesOf = (root) => ({ '@/': path.join(root, 'src') + path.sep, '@testing': path.join(root, 'test', 'testing') });

/** @type {Map<string, string | null>} */
const resolved = new Map();

/** @param {string} base */
function withExtension(base) {
  if (EXTENSIONS.includes(path.extname(base)) && fs.existsSync(base)) return base;
  for (const candidate of [...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`))]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * @param {string} specifier
 * @param {string} from
 * @param {string} root
 */
function resolve(specifier, from, root) {
  const key = `${from}\0${specifier}`;
  const cached = resolved.get(key);
  if (cached !== undefined) return cached;
  let base = null;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else {
    for (const [alias, target] of Object.entries(aliasesOf(root))) {
      if (specifier === alias || specifier.startsWith(alias.endsWith('/') ? alias : `${alias}/`)) {
        base = path.join(target, specifier.slice(alias.length));
        break;
      }
    }
  }
  const file = base === null ? null : withExtension(base);
  resolved.set(key, file);
  return file;
}

/** @type {Map<string, string[]>} */
const edges = new Map();

/**
 * The files `file` imports at run time.
 * @param {string} file
 * @param {string} root
 */
function importsOf(file, root) {
  const cached = edges.get(file);
  if (cached) return cached;
  /** @type {string[]} */
  const specifiers = [];
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  /** @param {ts.Node} node */
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const files = specifiers.flatMap((specifier) => {
    const target = resolve(specifier, file, root);
    return target ? [target] : [];
  });
  edges.set(file, files);
  return files;
}

/**
 * The shortest import path from `start` back to `goal`, or null.
 * @param {string} start
 * @param {string} goal
 * @param {string} root
 */
function pathBack(start, goal, root) {
  /** @type {Map<string, string | null>} */
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    for (const next of importsOf(file, root)) {
      if (next === goal) {
        const chain = [file];
        for (let at = previous.get(file); at; at = previous.get(at)) chain.unshift(at);
        return chain;
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles (static, type-only, re-export and dynamic imports).' },
    messages: { cycle: 'Import cycle: {{chain}}. Move what both need into a module of its own.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    /**
     * @param {import('estree').Node} node
     * @param {unknown} source
     */
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const target = resolve(source, file, root);
      if (!target) return;
      const chain = target === file ? [] : pathBack(target, file, root);
      if (!chain) return;
      const names = [file, ...chain, file].map((name) => path.relative(root, name));
      context.report({ node, messageId: 'cycle', data: { chain: names.join(' → ') } });
    };
    return {
      ImportDeclaration(node) {
        check(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value);
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value);
      },
    };
  },
};

export default { rules: { 'no-cycle': noCycle } };
