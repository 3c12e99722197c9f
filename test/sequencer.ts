// The order test files start in (vitest.config.ts, `sequence.sequencer`). On 2 workers a long file
// that starts last runs alone at the end while the other worker idles. Vitest orders files by the
// durations its cache remembers, but CI's first pass has no cache, and its second pass (PostgreSQL)
// finds the PostgreSQL-only process tests recorded as skipped (0 ms) by the first, so they used to
// start last: the 73 s pay-schedules crash test ran alone at the end. So the process tests (server
// processes, kill -9, the CLI's spawns) start first, then the browser and catalog walks, then the
// rest in Vitest's own order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST: RegExp[] = [
  /\/test\/process\/|\/src\/cli\/cli\.test\.ts$|\.crash\.test\.ts$/,
  /\.browser\.test\.ts$|\/test\/isolation\/|\/examples\//,
];

const rank = (spec: TestSpecification) => {
  const index = FIRST.findIndex((pattern) => pattern.test(spec.moduleId));
  return index === -1 ? FIRST.length : index;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, i) => [spec, i]));
    const project = new Map<string, number>();
    for (const spec of sorted) if (!project.has(spec.project.name)) project.set(spec.project.name, project.size);
    // Projects keep their order (Vitest runs them one after the other); within one, rank first.
    return [...sorted].sort(
      (a, b) =>
        (project.get(a.project.name) ?? 0) - (project.get(b.project.name) ?? 0) ||
        rank(a) - rank(b) ||
        (position.get(a) ?? 0) - (position.get(b) ?? 0),
    );
  }
}
