// Every public function of the package has a doc comment: the functions exported from
// src/index.ts, the public methods and constructors of its exported classes, and the methods of
// its exported interfaces (Solver's included, whichever file declares them). Read with the
// TypeScript compiler API from the sources, as `npm run docs` (typedoc) reads them.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

interface Documented {
  /** e.g. `createSolver`, `Solver.damper`, `Inertializer.constructor` */
  name: string;
  comment: string;
}

/** A doc comment's text, with its tags (a comment may be only `@param` lines, each with units). */
function docText(summary: ts.SymbolDisplayPart[], tags: ts.JSDocTagInfo[]): string {
  const tagText = tags.map((tag) => ts.displayPartsToString(tag.text)).join(' ');
  return `${ts.displayPartsToString(summary)} ${tagText}`.trim();
}

function hasTag(node: ts.Node, tag: string): boolean {
  return ts.getJSDocTags(node).some((t) => t.tagName.text === tag);
}

function isPublicMember(declaration: ts.Declaration): boolean {
  const flags = ts.getCombinedModifierFlags(declaration);
  const named = (declaration as ts.NamedDeclaration).name;
  return (
    !(flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) &&
    !(named && ts.isPrivateIdentifier(named)) &&
    !hasTag(declaration, 'internal')
  );
}

function isCallable(checker: ts.TypeChecker, symbol: ts.Symbol, at: ts.Node): boolean {
  return checker.getTypeOfSymbolAtLocation(symbol, at).getCallSignatures().length > 0;
}

/** Every public function and method reachable from the entry point's exports, with its comment. */
function publicFunctions(): Documented[] {
  const { config } = ts.readConfigFile(fileURLToPath(new URL('../../tsconfig.json', import.meta.url)), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, fileURLToPath(new URL('..', import.meta.url)));
  const program = ts.createProgram([ENTRY], options);
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY)!;
  const comment = (symbol: ts.Symbol) => docText(symbol.getDocumentationComment(checker), symbol.getJsDocTags(checker));
  const found: Documented[] = [];

  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    const name = exported.name;
    if (symbol.flags & ts.SymbolFlags.Function || (symbol.flags & ts.SymbolFlags.Variable && isCallable(checker, symbol, entry))) {
      found.push({ name, comment: comment(symbol) });
    }
    if (symbol.flags & ts.SymbolFlags.Class) {
      const classDeclaration = declaration as ts.ClassDeclaration;
      for (const member of classDeclaration.members) {
        if (!isPublicMember(member)) continue;
        if (ts.isConstructorDeclaration(member)) {
          const signature = checker.getSignatureFromDeclaration(member)!;
          found.push({
            name: `${name}.constructor`,
            comment: docText(signature.getDocumentationComment(checker), signature.getJsDocTags()),
          });
        } else if (ts.isMethodDeclaration(member)) {
          found.push({ name: `${name}.${member.name.getText()}`, comment: comment(checker.getSymbolAtLocation(member.name)!) });
        }
      }
    }
    if (symbol.flags & ts.SymbolFlags.Interface) {
      // All members, inherited and merged ones included (Solver gains its families' methods so).
      for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
        const memberDeclaration = member.declarations?.[0];
        if (!memberDeclaration || !isPublicMember(memberDeclaration)) continue;
        const isMethod = ts.isMethodSignature(memberDeclaration) || ts.isMethodDeclaration(memberDeclaration);
        if (isMethod || isCallable(checker, member, memberDeclaration))
          found.push({ name: `${name}.${member.name}`, comment: comment(member) });
      }
    }
  }
  return found;
}

describe('doc comments', () => {
  const functions = publicFunctions();

  it('finds the public API (the core of it at least)', () => {
    const names = functions.map((f) => f.name);
    // If these are not found, the walk above is broken and the next test would prove nothing.
    for (const core of ['createSolver', 'halflifeToDamping', 'Solver.damper', 'Solver.springDamper', 'Solver.alloc']) {
      expect(names).toContain(core);
    }
  });

  it('every public function and method has a non-empty doc comment', () => {
    expect(
      functions
        .filter((f) => f.comment === '')
        .map((f) => f.name)
        .sort(),
    ).toEqual([]);
  });
});
