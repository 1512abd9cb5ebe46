// Environments (Harbor tasks): the store of their bundles (lib/bundle), import and export, residuals and checks.
// The public API of lib/env: other modules import it from here, never from its files (README, Layers).
export { loadBundle, getVersion, storeBundle, resolveVersionId } from './store.ts';
export { internetRequests } from './harbor-warnings.ts';
export { type StoredFileChange, applyResidual, serializeResidual, diffBundles, type Residual, type FileChange } from './residual.ts';
export { contentHash, METADATA_SIDECAR, sha256Hex } from './content-hash.ts';
export { validateBundle, notTextReason, NEAR_MISS_DIR, ORACLE_FILE } from './validate-bundle.ts';
export { formatProblem } from './problems.ts';
export { readTasksAt, importCollection, importPath } from './import.ts';
export { REGISTRY_FILE, registrySchema, type DatasetSpec } from './dataset.ts';
export { writeTaskDir, exportVersion } from './export.ts';
export { exportTaskTarball } from './export-archive.ts';
export { formatBytes } from './import-limits.ts';
export { comparePaths, unsafePathReason } from './paths.ts';
export { renderSidecar } from './sidecar.ts';
export { readTaskDir } from './read-task-dir.ts';
