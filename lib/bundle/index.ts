// A task bundle: a Harbor task's files in memory, its task.toml read against the deployment's
// ceilings, and tar packing. The bottom layer every other module builds on (env stores and imports
// bundles, sandbox runs them); it imports nothing else of lib but config.
export { bundleFile, type TaskBundle, filesUnder, type BundleFile } from './bundle.ts';
export { parseTaskConfig, ceilingWarnings, type TaskConfig } from './task-config.ts';
export { type TarEntry, packTarBuffer, firstFileIn, packTar, filesIn } from './tar.ts';
