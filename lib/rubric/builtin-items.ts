// The rubric Envolve ships: Harbor's quality criteria, Envolve's own environment
// contracts, and the plan reviewer's items. syncBuiltinRubric stores them as versioned rows.
import { ENVOLVE_ITEMS } from './builtin/envolve-items.ts';
import { HARBOR_ITEMS } from './builtin/harbor-items.ts';
import { PLAN_ITEMS } from './builtin/plan-items.ts';
import type { RubricItemDef } from './types.ts';

export const BUILTIN_RUBRIC: RubricItemDef[] = [...HARBOR_ITEMS, ...ENVOLVE_ITEMS, ...PLAN_ITEMS];
