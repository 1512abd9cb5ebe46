-- CreateTable
CREATE TABLE "DriftInputVersion" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "DriftInputVersion_pkey" PRIMARY KEY ("id")
);

-- Data: the one version row.
INSERT INTO "DriftInputVersion" ("id", "version") VALUES (1, 0);

-- Triggers: a write to a row the drift page reads bumps the version in the writing transaction
-- (lib/drift/input-version.ts lists them). Rollouts count through their groups' sums (and their
-- versions, for calibration staleness); audit events only as gate changes.
-- Deferred to the commit, and once per transaction: the version row is locked only while the
-- writing transaction commits, so two writers never wait on each other's rows while holding it.
CREATE FUNCTION "drift_input_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('envolve.drift_input_bumped', true) IS DISTINCT FROM 'on' THEN
    UPDATE "DriftInputVersion" SET "version" = "version" + 1 WHERE "id" = 1;
    PERFORM set_config('envolve.drift_input_bumped', 'on', true);
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER "drift_input_Lineage" AFTER INSERT OR UPDATE OR DELETE ON "Lineage" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_Generation" AFTER INSERT OR UPDATE OR DELETE ON "Generation" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_PlanRound" AFTER INSERT OR UPDATE OR DELETE ON "PlanRound" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_Attempt" AFTER INSERT OR UPDATE OR DELETE ON "Attempt" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_ProbeGroup" AFTER INSERT OR UPDATE OR DELETE ON "ProbeGroup" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_EnvironmentVersion" AFTER INSERT OR UPDATE OR DELETE ON "EnvironmentVersion" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_EnvironmentFile" AFTER INSERT OR UPDATE OR DELETE ON "EnvironmentFile" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_CalibrationSet" AFTER INSERT OR UPDATE OR DELETE ON "CalibrationSet" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_CalibrationItem" AFTER INSERT OR UPDATE OR DELETE ON "CalibrationItem" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_Rollout_insert" AFTER INSERT ON "Rollout" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."groupId" IS NOT NULL) EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_Rollout_update" AFTER UPDATE OF "groupId", "versionId", "turns", "promptTokens", "completionTokens" ON "Rollout" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."groupId" IS NOT NULL OR OLD."groupId" IS NOT NULL OR NEW."versionId" <> OLD."versionId") EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_Rollout_delete" AFTER DELETE ON "Rollout" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_AuditEvent_insert" AFTER INSERT ON "AuditEvent" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."action" = 'lineage.gate') EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_AuditEvent_update" AFTER UPDATE ON "AuditEvent" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."action" = 'lineage.gate' OR OLD."action" = 'lineage.gate') EXECUTE FUNCTION "drift_input_changed"();
CREATE CONSTRAINT TRIGGER "drift_input_AuditEvent_delete" AFTER DELETE ON "AuditEvent" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."action" = 'lineage.gate') EXECUTE FUNCTION "drift_input_changed"();
