/**
 * What `npm publish` would ship, for the package tests (test/package/): the file list of
 * `npm pack --dry-run`, and the tarball itself, packed into a folder of the caller's.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (with a trailing slash). */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/** `npm pack --json`'s description of one tarball. */
interface PackResult {
  filename: string;
  files: { path: string }[];
}

function npmPack(args: string[]): PackResult {
  return JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', ...args], { cwd: root, encoding: 'utf8' }))[0];
}

/** The paths of the files the tarball would hold (`npm pack --dry-run`). */
export function packedFiles(): string[] {
  return npmPack(['--dry-run']).files.map((f) => f.path);
}

/** Packs the package (dist/ as built) into `folder`; returns the tarball's path. */
export function packTarball(folder: string): string {
  return join(folder, npmPack(['--pack-destination', folder]).filename);
}
