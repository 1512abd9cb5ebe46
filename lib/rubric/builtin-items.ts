// The rubric Envolve ships: Harbor's quality criteria, Envolve's own environment
// contracts, the checks judged by Envolve's own code, and the plan reviewer's items.
// syncBuiltinRubric stores them as versioned rows.
import { ENVOLVE_ITEMS } from './builtin/envolve-items.ts';
import { HARBOR_ITEMS } from './builtin/harbor-items.ts';
import { OFFLINE_ITEMS } from './builtin/offline-items.ts';
import { PLAN_ITEMS } from './builtin/plan-items.ts';
import type { RubricItemDef } from './types.ts';

export const BUILTIN_RUBRIC: RubricItemDef[] = [...HARBOR_ITEMS, ...ENVOLVE_ITEMS, ...OFFLINE_ITEMS, ...PLAN_ITEMS];
