// Plan-level items for Loop 1's reviewer. Their checks read /bundle/plan.json
// ({edit: {axis, effort, inserted, replaced}, child: {steps}, rationale}) and
// /bundle/parent-sequence.json ({steps}); each step is {id, scenario, skill, dependsOn}.
import type { RubricItemDef } from '../types.ts';

// Exits 1 with the problems jq lists (one string each), 0 when the list is empty.
function jqProblems(program: string, passMessage: string): string {
  return (
    String.raw`jq -e '.edit and .child.steps' plan.json >/dev/null 2>&1 || { echo "plan.json is not a plan"; exit 1; }
jq -e '.steps' parent-sequence.json >/dev/null 2>&1 || { echo "parent-sequence.json is not a sequence"; exit 1; }
problems=$(jq -r --slurpfile parent parent-sequence.json '` +
    program +
    String.raw` | .[]' plan.json) || exit 1
if [ -n "$problems" ]; then printf '%s\n' "$problems"; exit 1; fi
echo '` +
    passMessage +
    `'
`
  );
}

const lengthInsertsDepend: RubricItemDef = {
  key: 'plan_length_inserts_depend',
  title: 'A length edit inserts steps that depend on existing outputs',
  description:
    'The length axis makes the execution chain longer with dependencies between steps; a step that consumes ' +
    'nothing earlier is a second task bolted on, not a longer chain.',
  check: jqProblems(
    String.raw`if .edit.axis != "length" then [] else
  .edit.inserted as $inserted
  | (.child.steps | map(.id)) as $ids
  | if ($inserted | length) == 0 then ["a length edit must insert at least one step"] else
    [ $inserted[] as $id
      | ($ids | index($id)) as $pos
      | if $pos == null then "inserted step \($id) is not in the child sequence"
        else (.child.steps[$pos].dependsOn // []) as $deps
          | $ids[0:$pos] as $earlier
          | if ($deps | length) == 0 then "inserted step \($id) depends on no earlier step"
            else ($deps | map(. as $d | select(($earlier | index($d)) == null))) as $unknown
              | if ($unknown | length) > 0 then "inserted step \($id) depends on \($unknown | join(", ")), which do not come before it"
                else empty end
            end
        end ]
    end
end`,
    'not a length edit, or every inserted step consumes an earlier step',
  ),
  question: null,
  appliesTo: 'plan',
};

const effortBound: RubricItemDef = {
  key: 'plan_effort_bound',
  title: 'The edit stays within its effort',
  description:
    'Evolution effort bounds how much changes between two generations: low edits exactly one step, high one ' + 'contiguous span of steps, max is unbounded.',
  check: jqProblems(
    String.raw`(.child.steps | map(.id)) as $ids
| ((.edit.inserted // []) + ((.edit.replaced // []) | map(.stepId)) | unique) as $changed
| ($changed | map(. as $c | $ids | index($c))) as $positions
| if ($changed | length) == 0 then ["the edit changes no step"]
  elif ($positions | any(. == null)) then ["the edit names steps that are not in the child sequence"]
  elif .edit.effort == "low" and ($changed | length) != 1 then ["low effort must change exactly one step, this edit changes \($changed | length)"]
  elif .edit.effort == "high" and (($positions | max) - ($positions | min) + 1) != ($changed | length) then ["high effort must change one contiguous span, the changed steps are at positions \($positions | sort | map(tostring) | join(", "))"]
  elif (.edit.effort | IN("low", "high", "max") | not) then ["unknown effort \(.edit.effort)"]
  else [] end`,
    'the edit is within its effort',
  ),
  question: null,
  appliesTo: 'plan',
};

const axisConsistent: RubricItemDef = {
  key: 'plan_axis_consistent',
  title: 'The edit changes only what its axis allows',
  description:
    'Length keeps every parent step and inserts new ones; scenario replaces scenarios and keeps every skill; skill ' +
    'replaces skills and keeps every scenario. An edit that changes more confounds the difficulty axes.',
  check: jqProblems(
    String.raw`.edit.axis as $axis
| ($parent[0].steps | map({key: .id, value: .}) | from_entries) as $before
| (.child.steps | map(select(.id as $id | $before | has($id)))) as $kept
| ($parent[0].steps | map(.id)) as $parentIds
| [ if ($kept | map(.id)) != $parentIds then "the child does not keep the parent steps in order" else empty end,
    if $axis == "length" then
      (if ((.edit.replaced // []) | length) > 0 then "a length edit replaces nothing" else empty end),
      ($kept[] | select(.scenario != $before[.id].scenario or .skill != $before[.id].skill) | "length edit changed existing step \(.id)")
    elif $axis == "scenario" or $axis == "skill" then
      (if ((.edit.inserted // []) | length) > 0 or (.child.steps | length) != ($parentIds | length) then "a \($axis) edit neither inserts nor removes steps" else empty end),
      ((.edit.replaced // [])[] | select(.field != $axis) | "a \($axis) edit replaces the \(.field) of step \(.stepId)"),
      ($kept[] | select((if $axis == "scenario" then .skill != $before[.id].skill else .scenario != $before[.id].scenario end)) | "a \($axis) edit changed the other field of step \(.id)")
    else "unknown axis \($axis)" end ]`,
    'the edit changes only what its axis allows',
  ),
  question: null,
  appliesTo: 'plan',
};

const rationale: RubricItemDef = {
  key: 'plan_rationale',
  title: 'The plan says why it makes the task harder',
  description: "Reviewers approve generations by reading the proposer's reasoning; a plan without one cannot be reviewed.",
  check: String.raw`jq -e '(.rationale // "") | type == "string" and (gsub("\\s"; "") | length) >= 20' plan.json >/dev/null || { echo "the plan has no rationale (at least 20 characters)"; exit 1; }
echo "the plan states a rationale"
`,
  question:
    "Does the plan's rationale explain how the edit makes the environment harder along its axis, and is the " +
    'child sequence a coherent single task whose final outcome can be verified from artifacts?',
  appliesTo: 'plan',
};

export const PLAN_ITEMS: RubricItemDef[] = [lengthInsertsDepend, effortBound, axisConsistent, rationale];
