#!/usr/bin/env node
// The `limited` command: the program is cli.ts. `npm run build` bundles this entry and all it
// imports (the packages aside) into dist/src/cli/main.js, one module for a new process to load
// (docs/cli.md, "Start-up"); tsc's cli.js stays beside it, the same program in separate modules.
import './cli.js';
