'use strict';
// Sharding keys that ali-ons 3.12.0 keeps on one queue.
//
// ali-ons picks a message's queue from its shardingKey: md5(key), first four
// bytes as an unsigned int, modulo the number of queue ids. For a key whose
// index is 0 it then turns queue id 0 into '' ("no queue chosen") and sends
// round robin instead (`queueIds[index] || ''` in TopicPublishInfo), a client
// bug: such a key is not ordered by any server. The ordered test therefore
// uses keys whose index is not 0; this reproduces the client's index only to
// stay off that bug, and the test checks where each message really went.

const crypto = require('node:crypto');

function queueIndex(key, queueCount) {
  return crypto.createHash('md5').update(key).digest().readUInt32BE(0) % queueCount;
}

// `count` keys "<prefix>-<n>" on distinct queues other than queue 0 (as many
// as there are such queues), in the order found.
function shardingKeys(prefix, count, queueCount) {
  if (count > queueCount - 1) {
    throw new Error(`at most ${queueCount - 1} keys on distinct non-zero queues of ${queueCount}`);
  }
  const keys = [];
  const used = new Set();
  for (let n = 0; keys.length < count; n++) {
    const key = `${prefix}-${n}`;
    const index = queueIndex(key, queueCount);
    if (index !== 0 && !used.has(index)) {
      used.add(index);
      keys.push(key);
    }
  }
  return keys;
}

module.exports = { shardingKeys };
