import type { Sequence } from './types.ts';

// Structural validity of a sequence: ids are unique and non-empty, every step names a scenario
// and a skill, and dependencies point only to EARLIER steps. The last rule makes the order of
// the steps a topological order of the dependency DAG, so no cycle (and no self-dependency) can
// be expressed.
export function structuralViolations(sequence: Sequence): string[] {
  const violations: string[] = [];
  const seen = new Set<string>();
  sequence.steps.forEach((step, index) => {
    const where = `step ${index + 1} (${step.id || 'no id'})`;
    if (!step.id) violations.push(`${where}: empty id`);
    else if (seen.has(step.id)) violations.push(`${where}: duplicate id "${step.id}"`);
    if (!step.scenario.trim()) violations.push(`${where}: empty scenario`);
    if (!step.skill.trim()) violations.push(`${where}: empty skill`);
    const deps = new Set<string>();
    for (const dep of step.dependsOn) {
      if (deps.has(dep)) violations.push(`${where}: depends on "${dep}" twice`);
      deps.add(dep);
      if (dep === step.id) violations.push(`${where}: depends on itself`);
      else if (!seen.has(dep)) violations.push(`${where}: depends on "${dep}", which is not an earlier step`);
    }
    seen.add(step.id);
  });
  return violations;
}
