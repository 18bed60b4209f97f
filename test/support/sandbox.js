// The tests reach the sandbox only through its public module and over HTTP.
const { startSandbox } = require('../../sandbox/server');

module.exports = { startSandbox };
