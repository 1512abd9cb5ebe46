// Validation of an environment version: the oracle and invalid-test trials and their verdict.
// The public API of lib/validate: other modules import it from here, never from its files (README, Layers).
export { trialRequest, taskResources } from './trial-request.ts';
export { BUILD_FAILED, REFUSED, validateEnvironment, type RunRecord } from './validate-environment.ts';
export { VALIDATE_JOB, validateJobPayload, enqueueValidation } from './jobs.ts';
