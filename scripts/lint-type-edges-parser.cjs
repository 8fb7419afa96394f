// The TypeScript parser for import-x's view of imported files (eslint.config.js, the import cycles
// block): `import type` and `export type … from` read as value imports, so that no-cycle, which
// skips type-only edges and has no option to count them, sees every edge.
const parser = require('@typescript-eslint/parser');

function valueEdges(ast) {
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      node.importKind = 'value';
      for (const s of node.specifiers) if ('importKind' in s) s.importKind = 'value';
    } else if ((node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source) {
      node.exportKind = 'value';
      for (const s of node.specifiers ?? []) if ('exportKind' in s) s.exportKind = 'value';
    }
  }
  return ast;
}

module.exports = {
  ...parser,
  parseForESLint(code, options) {
    const result = parser.parseForESLint(code, options);
    valueEdges(result.ast);
    return result;
  },
  parse(code, options) {
    return valueEdges(parser.parse(code, options));
  },
};
