#!/usr/bin/env node
// Prints how many saved connection profiles the user has and where (for scripts/start.sh,
// which leaves the sandbox engines off when the user works with their own clusters).
const {
  ProfileStore
} = require('../dist/kernel/src/connections/profile-store');

const store = new ProfileStore();
store
  .load()
  .then(file => process.stdout.write(`${file.profiles.length} ${store.path}\n`))
  .catch(() => process.stdout.write(`0 ${store.path}\n`));
