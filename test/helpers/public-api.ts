/**
 * The package's public surface, read from the sources with the TypeScript compiler API as typedoc
 * reads them: the entry points of typedoc.json, and from each its exported functions and classes,
 * the public methods and constructors of those classes and the methods of its exported interfaces
 * (Solver's included, whichever file declares them). Used by the doc-comment and doc-example tests.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The entry points typedoc documents, as absolute paths (`src/index.ts`, `src/three/index.ts`, …). */
export const ENTRY_POINTS: string[] = (JSON.parse(readFileSync(`${ROOT}typedoc.json`, 'utf8')).entryPoints as string[]).map(
  (path) => `${ROOT}${path}`,
);

export interface PublicSymbol {
  /** The entry point's package path, e.g. `spring-solver/three`. */
  module: string;
  /** e.g. `createSolver`, `Solver.damper`, `Inertializer.constructor`, `InstancedSprings` (the class itself). */
  name: string;
  kind: 'function' | 'class' | 'constructor' | 'method';
  /** The doc comment's text with its tags (a comment may be only `@param` lines). */
  comment: string;
  /** The text of each `@example` tag. */
  examples: string[];
  /** The declaration that holds the comment (one per symbol: an entry point's re-export of another's is the same). */
  declaration: ts.Declaration;
}

/** A doc comment's text, with its tags. */
function docText(summary: ts.SymbolDisplayPart[], tags: ts.JSDocTagInfo[]): string {
  const tagText = tags.map((tag) => ts.displayPartsToString(tag.text)).join(' ');
  return `${ts.displayPartsToString(summary)} ${tagText}`.trim();
}

function examplesOf(tags: ts.JSDocTagInfo[]): string[] {
  return tags.filter((tag) => tag.name === 'example').map((tag) => ts.displayPartsToString(tag.text));
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

/** The `@module` name of an entry point's first comment (`spring-solver/three`). */
function moduleName(entry: ts.SourceFile): string {
  const match = /@module\s+(\S+)/.exec(entry.getFullText());
  if (!match) throw new Error(`${entry.fileName} has no @module tag`);
  return match[1]!;
}

function createProgram(entryPoints: string[]): ts.Program {
  const { config } = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  return ts.createProgram(entryPoints, options);
}

/**
 * The `@group` tags of every export of the entry points (types included) and of the members of
 * the Solver interface, which typedoc shows grouped by family: e.g. `spring-solver/three spring3`
 * with `['Single values']`, `spring-solver Solver.damper` with `['Core springs']`.
 */
export function groupTags(entryPoints: string[] = ENTRY_POINTS): { name: string; groups: string[] }[] {
  const program = createProgram(entryPoints);
  const checker = program.getTypeChecker();
  const groups = (symbol: ts.Symbol) =>
    symbol
      .getJsDocTags(checker)
      .filter((tag) => tag.name === 'group')
      .map((tag) => ts.displayPartsToString(tag.text).trim());
  const found: { name: string; groups: string[] }[] = [];
  for (const path of entryPoints) {
    const entry = program.getSourceFile(path)!;
    const module = moduleName(entry);
    for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      // `export * as quat from …` carries its comment on the export statement.
      const statement = exported.declarations?.[0];
      const own =
        statement && ts.isNamespaceExport(statement)
          ? ts
              .getJSDocTags(statement.parent)
              .filter((tag) => tag.tagName.text === 'group')
              .map((tag) => ts.getTextOfJSDocComment(tag.comment)!.trim())
          : [];
      found.push({ name: `${module} ${exported.name}`, groups: own.length > 0 ? own : groups(symbol) });
      if (exported.name === 'Solver' && symbol.flags & ts.SymbolFlags.Interface) {
        for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
          const declaration = member.declarations?.[0];
          if (declaration && isPublicMember(declaration)) found.push({ name: `${module} Solver.${member.name}`, groups: groups(member) });
        }
      }
    }
  }
  return found;
}

/** Every public function, class, constructor and method reachable from the given entry points. */
export function publicSymbols(entryPoints: string[] = ENTRY_POINTS): PublicSymbol[] {
  const program = createProgram(entryPoints);
  const checker = program.getTypeChecker();
  const found: PublicSymbol[] = [];
  const seen = new Set<ts.Declaration>();

  for (const path of entryPoints) {
    const entry = program.getSourceFile(path)!;
    const module = moduleName(entry);
    const add = (
      name: string,
      kind: PublicSymbol['kind'],
      declaration: ts.Declaration,
      summary: ts.SymbolDisplayPart[],
      tags: ts.JSDocTagInfo[],
    ) => {
      if (seen.has(declaration)) return;
      seen.add(declaration);
      found.push({ module, name, kind, comment: docText(summary, tags), examples: examplesOf(tags), declaration });
    };
    const addSymbol = (name: string, kind: PublicSymbol['kind'], symbol: ts.Symbol) =>
      add(name, kind, symbol.declarations![0]!, symbol.getDocumentationComment(checker), symbol.getJsDocTags(checker));

    const visit = (moduleSymbol: ts.Symbol, prefix: string) => {
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = symbol.declarations?.[0];
        if (!declaration) continue;
        const name = `${prefix}${exported.name}`;
        // `export * as quat from …`: the namespace's functions are public too (quat.mul).
        if (symbol.flags & ts.SymbolFlags.ValueModule && ts.isSourceFile(declaration)) visit(symbol, `${name}.`);
        if (symbol.flags & ts.SymbolFlags.Function || (symbol.flags & ts.SymbolFlags.Variable && isCallable(checker, symbol, entry))) {
          addSymbol(name, 'function', symbol);
        }
        if (symbol.flags & ts.SymbolFlags.Class) {
          addSymbol(name, 'class', symbol);
          for (const member of (declaration as ts.ClassDeclaration).members) {
            if (!isPublicMember(member)) continue;
            if (ts.isConstructorDeclaration(member)) {
              const signature = checker.getSignatureFromDeclaration(member)!;
              add(`${name}.constructor`, 'constructor', member, signature.getDocumentationComment(checker), signature.getJsDocTags());
            } else if (ts.isMethodDeclaration(member)) {
              addSymbol(`${name}.${member.name.getText()}`, 'method', checker.getSymbolAtLocation(member.name)!);
            }
          }
        }
        if (symbol.flags & ts.SymbolFlags.Interface) {
          // All members, inherited and merged ones included (Solver gains its families' methods so).
          for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
            const memberDeclaration = member.declarations?.[0];
            if (!memberDeclaration || !isPublicMember(memberDeclaration)) continue;
            const isMethod = ts.isMethodSignature(memberDeclaration) || ts.isMethodDeclaration(memberDeclaration);
            if (isMethod || isCallable(checker, member, memberDeclaration)) addSymbol(`${name}.${member.name}`, 'method', member);
          }
        }
      }
    };
    visit(checker.getSymbolAtLocation(entry)!, '');
  }
  return found;
}
