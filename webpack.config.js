// The extension reaches the contracts it shares with the kernel through one alias
// (`@searchbook/contracts/...`); tsc leaves the specifier as written, so the bundler resolves it.
const path = require('path');

module.exports = {
  resolve: {
    alias: {
      '@searchbook/contracts': path.resolve(__dirname, 'lib', 'contracts')
    }
  }
};
