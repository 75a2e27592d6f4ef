// The API reference (`npm run docs`, typedoc with typedoc.json) leaves out every member tagged
// @internal. The published declarations keep those members (tsconfig.json has no stripInternal, so
// the .d.ts files never contradict each other: docs/DECISIONS.md, "Declarations without
// stripInternal"); typedoc's `excludeInternal` is what keeps them out of the docs.
import { fileURLToPath } from 'node:url';
import { Application, type ProjectReflection, ReflectionKind } from 'typedoc';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function convert(): Promise<ProjectReflection> {
  const app = await Application.bootstrapWithPlugins({ options: `${root}typedoc.json`, logLevel: 'Error' });
  const project = await app.convert();
  if (!project) throw new Error('typedoc could not convert the project');
  return project;
}

describe('the API reference', () => {
  let names: string[];
  let internal: string[];

  beforeAll(async () => {
    const project = await convert();
    const reflections = project.getReflectionsByKind(ReflectionKind.All);
    names = reflections.map((r) => r.getFullName());
    const tagged = (r: (typeof reflections)[number]) =>
      r.comment?.hasModifier('@internal') ||
      ('signatures' in r && Array.isArray(r.signatures) && r.signatures.some((s) => s.comment?.hasModifier('@internal')));
    internal = reflections.filter(tagged).map((r) => r.getFullName());
  }, 120_000);

  it('documents the public classes whose members include internal ones, one module per entry point named by its path', () => {
    for (const entry of [
      'spring-solver/three',
      'spring-solver/vrm',
      'spring-solver/bvh',
      'spring-solver/embedded',
      'spring-solver/reference',
    ]) {
      expect(names).toContain(entry);
    }
    expect(names).toContain('spring-solver/vrm.SpringBones');
    expect(names).toContain('spring-solver.createSolver');
    expect(names).toContain('spring-solver/three.InertializedMixerGroup');
    expect(names).toContain('spring-solver/three.InertializedMixerOptions.root');
  });

  it('leaves out every member tagged @internal', () => {
    expect(internal).toEqual([]);
    expect(names).not.toContain('spring-solver/three.InertializedMixerGroup.alloc');
    expect(names).not.toContain('spring-solver/three.InertializedMixerOptions.zeroVelocity');
  });
});
