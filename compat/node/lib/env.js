'use strict';
// The servers under test, read from the environment that
// compat/ref-servers.sh writes to $RUN_DIR/env.sh, and unique names per run.
// Proves nothing by itself: it fails early and clearly when the environment
// is missing, so that a test never runs against a default address.

const crypto = require('node:crypto');

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: start the servers with compat/ref-servers.sh ` +
      'and source $RUN_DIR/env.sh (or run compat/node/run.sh with RUN_DIR set)');
  }
  return value;
}

// The name server the clients are given (ali-ons's `nameSrv` option).
function namesrvAddr() {
  return required('NAMESRV_ADDR');
}

// The broker the test topics are created on (broker-a of ref-servers.sh).
function brokerAddr() {
  return required('BROKER_ADDR');
}

const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;

// A topic or group name no other run (or test) uses: prefix_<run>_<n>.
let counter = 0;
function unique(prefix) {
  counter += 1;
  return `${prefix}_${runId}_${counter}`;
}

module.exports = { namesrvAddr, brokerAddr, unique };
