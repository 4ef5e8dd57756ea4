#!/usr/bin/env node
'use strict';
// The wheel's `searchbook` entry. Node.js 22.1+ (the wheel runs on 24) keeps the compiled bundle
// in its compile cache under the OS temp directory, so later kernel starts skip compiling
// megabytes of JavaScript; older versions have no enableCompileCache and just load it.
require('node:module').enableCompileCache?.();
require('../lib/searchbook.js');
