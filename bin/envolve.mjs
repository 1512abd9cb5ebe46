#!/usr/bin/env node
// The `envolve` command. The CLI is TypeScript, run through tsx's loader so that a clone
// needs no separate compile step.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../workers/cli.ts', import.meta.url).href);
