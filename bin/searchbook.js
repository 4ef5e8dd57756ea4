#!/usr/bin/env node
'use strict';
require('../dist/kernel/src/cli.js')
  .main(process.argv.slice(2))
  .then(code => {
    if (code >= 0) {
      process.exitCode = code;
    }
  });
