-- CreateTable
CREATE TABLE "DriftInputVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0
);

-- Data: the one version row.
INSERT INTO "DriftInputVersion" ("id", "version") VALUES (1, 0);

-- Triggers: a write to a row the drift page reads bumps the version in the writing transaction
-- (lib/drift/input-version.ts lists them). Rollouts count through their groups' sums (and their
-- versions, for calibration staleness); audit events only as gate changes.
CREATE TRIGGER "drift_input_Lineage_insert" AFTER INSERT ON "Lineage" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Lineage_update" AFTER UPDATE ON "Lineage" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Lineage_delete" AFTER DELETE ON "Lineage" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Generation_insert" AFTER INSERT ON "Generation" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Generation_update" AFTER UPDATE ON "Generation" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Generation_delete" AFTER DELETE ON "Generation" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_PlanRound_insert" AFTER INSERT ON "PlanRound" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_PlanRound_update" AFTER UPDATE ON "PlanRound" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_PlanRound_delete" AFTER DELETE ON "PlanRound" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Attempt_insert" AFTER INSERT ON "Attempt" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Attempt_update" AFTER UPDATE ON "Attempt" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Attempt_delete" AFTER DELETE ON "Attempt" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_ProbeGroup_insert" AFTER INSERT ON "ProbeGroup" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_ProbeGroup_update" AFTER UPDATE ON "ProbeGroup" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_ProbeGroup_delete" AFTER DELETE ON "ProbeGroup" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_EnvironmentVersion_insert" AFTER INSERT ON "EnvironmentVersion" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_EnvironmentVersion_update" AFTER UPDATE ON "EnvironmentVersion" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_EnvironmentVersion_delete" AFTER DELETE ON "EnvironmentVersion" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_EnvironmentFile_insert" AFTER INSERT ON "EnvironmentFile" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_EnvironmentFile_update" AFTER UPDATE ON "EnvironmentFile" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_EnvironmentFile_delete" AFTER DELETE ON "EnvironmentFile" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_CalibrationSet_insert" AFTER INSERT ON "CalibrationSet" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_CalibrationSet_update" AFTER UPDATE ON "CalibrationSet" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_CalibrationSet_delete" AFTER DELETE ON "CalibrationSet" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_CalibrationItem_insert" AFTER INSERT ON "CalibrationItem" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_CalibrationItem_update" AFTER UPDATE ON "CalibrationItem" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_CalibrationItem_delete" AFTER DELETE ON "CalibrationItem" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Rollout_insert" AFTER INSERT ON "Rollout" WHEN NEW."groupId" IS NOT NULL BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Rollout_update" AFTER UPDATE OF "groupId", "versionId", "turns", "promptTokens", "completionTokens" ON "Rollout" WHEN NEW."groupId" IS NOT NULL OR OLD."groupId" IS NOT NULL OR NEW."versionId" <> OLD."versionId" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_Rollout_delete" AFTER DELETE ON "Rollout" BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_AuditEvent_insert" AFTER INSERT ON "AuditEvent" WHEN NEW."action" = 'lineage.gate' BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_AuditEvent_update" AFTER UPDATE ON "AuditEvent" WHEN NEW."action" = 'lineage.gate' OR OLD."action" = 'lineage.gate' BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "drift_input_AuditEvent_delete" AFTER DELETE ON "AuditEvent" WHEN OLD."action" = 'lineage.gate' BEGIN UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1; END;
