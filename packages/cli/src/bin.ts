#!/usr/bin/env node
// The `mcpc` executable: --version and --help answered before anything heavy loads; the rest runs in main.
import { run } from './main.js';

process.exitCode = await run(process.argv.slice(2));
