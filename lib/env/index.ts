// Environments (Harbor tasks): bundles, their store, import and export, residuals and checks.
// The public API of lib/env: other modules import it from here, never from its files (README, Layers).
export { bundleFile, type TaskBundle, filesUnder, type BundleFile } from './bundle.ts';
export { loadBundle, getVersion, storeBundle, resolveVersionId } from './store.ts';
export { parseTaskConfig, type TaskConfig } from './task-config.ts';
export { internetRequests } from './harbor-warnings.ts';
export { type StoredFileChange, applyResidual, serializeResidual, diffBundles, type Residual, type FileChange } from './residual.ts';
export { contentHash, METADATA_SIDECAR, sha256Hex } from './content-hash.ts';
export { validateBundle, notTextReason, NEAR_MISS_DIR, ORACLE_FILE } from './validate-bundle.ts';
export { formatProblem } from './problems.ts';
export { readTasksAt, importCollection, importPath } from './import.ts';
export { type TarEntry, packTarBuffer, firstFileIn, packTar, filesIn } from './tar.ts';
export { REGISTRY_FILE, registrySchema, type DatasetSpec } from './dataset.ts';
export { writeTaskDir, exportVersion } from './export.ts';
export { exportTaskTarball } from './export-archive.ts';
export { formatBytes } from './import-limits.ts';
export { comparePaths, unsafePathReason } from './paths.ts';
export { renderSidecar } from './sidecar.ts';
export { readTaskDir } from './read-task-dir.ts';
