'use strict';
// Waiting for a condition with a deadline, instead of sleeping and then
// asserting: polls `check` until it returns a truthy value or the deadline
// passes, then fails with what was awaited and the last state seen.

const { setTimeout: delay } = require('node:timers/promises');

async function eventually(what, check, { timeoutMs = 30000, intervalMs = 100, describe } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await check();
      if (value) {
        return value;
      }
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const state = describe ? `; last state: ${describe()}` : '';
      const cause = lastError ? `; last error: ${lastError.name}: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${state}${cause}`);
    }
    await delay(intervalMs);
  }
}

module.exports = { eventually };
