-- CreateIndex
CREATE INDEX "ProbeGroup_policy_policyVersion_createdAt_idx" ON "ProbeGroup"("policy", "policyVersion", "createdAt");

-- Data: oracle and nop cannot gate a lineage any more (lib/gate/gate-policy.ts). A lineage gated
-- by either is moved to trainer groups, its releases go back to approved (as a policy change in the
-- app does: trainer groups release them again), and the audit log says so, once per lineage.
INSERT INTO "AuditEvent" ("id", "actorEmail", "action", "subjectType", "subjectId", "before", "after", "createdAt")
SELECT 'migration-20261202200614_policy_gate_trainer-' || "id", 'migration:20261202200614_policy_gate_trainer', 'lineage.gate', 'lineage', "id",
  '{"policy":"' || "probePolicy" || '"}',
  '{"policy":"trainer","reason":"oracle and nop cannot gate a lineage (they prove solvability, which validation already did): moved to trainer groups by a migration, and every release went back to approved until trainer groups release it"}',
  CURRENT_TIMESTAMP
FROM "Lineage" WHERE "probePolicy" IN ('oracle', 'nop');

UPDATE "Generation"
SET "state" = 'approved', "revision" = "revision" + 1, "releasedByGroupId" = NULL, "releasedByPolicy" = NULL, "releaseRule" = NULL, "updatedAt" = CURRENT_TIMESTAMP
WHERE "state" = 'released' AND "lineageId" IN (SELECT "id" FROM "Lineage" WHERE "probePolicy" IN ('oracle', 'nop'));

UPDATE "Lineage"
SET "probePolicy" = 'trainer', "frontier" = CASE WHEN "frontier" IS NULL THEN NULL ELSE 0 END, "updatedAt" = CURRENT_TIMESTAMP
WHERE "probePolicy" IN ('oracle', 'nop');
