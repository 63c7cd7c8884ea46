'use strict';
// Ordered messages: a producer sends messages for three sharding keys,
// interleaved, each with ali-ons's shardingKey (which picks the queue from
// the key). Asserted: every message of a key is stored on one queue at
// increasing queue offsets in send order (the send results); the consumer
// receives every message once, from the queue and offset it was stored at,
// and, per key, in send order. ali-ons has no orderly (queue-locking)
// consumer; its push consumer hands over one message at a time per consumer,
// in queue-offset order within each queue, which is what is checked here.

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { Message } = require('ali-ons');
const env = require('../lib/env');
const clients = require('../lib/clients');
const { startAdmin } = require('../lib/admin');
const { eventually } = require('../lib/eventually');
const { shardingKeys } = require('../lib/sharding');

after(clients.closeAll);

const QUEUES = 4;
const PER_KEY = 10;

test('messages with one sharding key stay on one queue and arrive in send order', async () => {
  const topic = env.unique('NodeOrdered');
  const admin = await startAdmin();
  try {
    await admin.createTopics([topic], QUEUES);
  } finally {
    await admin.close();
  }

  const { received } = await clients.consumer(env.unique('NodeOrderedConsumer'), topic, '*');
  const producer = await clients.producer(env.unique('NodeOrderedProducer'));

  const keys = shardingKeys(`order-${topic}`, 3, QUEUES);
  const sent = new Map(keys.map(k => [k, []]));
  for (let seq = 0; seq < PER_KEY; seq++) {
    for (const key of keys) {
      const msg = new Message(topic, 'Ordered', `${key}#${seq}`);
      msg.shardingKey = key;
      msg.keys = [key];
      const result = await producer.send(msg);
      assert.equal(result.sendStatus, 'SEND_OK');
      sent.get(key).push({
        body: `${key}#${seq}`,
        queueId: Number(result.messageQueue.queueId), // a header string
        queueOffset: result.queueOffset,
      });
    }
  }

  for (const [key, msgs] of sent) {
    const queues = new Set(msgs.map(m => m.queueId));
    assert.equal(queues.size, 1, `key ${key} was sent to queues ${[...queues]}`);
    assertIncreasing(msgs.map(m => m.queueOffset), `send offsets of ${key}`);
  }

  const total = keys.length * PER_KEY;
  await eventually(`${total} ordered messages`, () => received.size >= total,
    { describe: () => `${received.size} received` });
  assert.equal(received.size, total, 'each message once');

  for (const [key, msgs] of sent) {
    const got = received.records.filter(r => r.keys === key);
    assert.deepEqual(got.map(r => r.body), msgs.map(m => m.body), `order of ${key}`);
    assert.deepEqual(
      got.map(r => [r.queueId, r.queueOffset]),
      msgs.map(m => [m.queueId, m.queueOffset]),
      `queue and offset of each ${key} message as the send results gave them`);
  }
});

function assertIncreasing(values, what) {
  for (let i = 1; i < values.length; i++) {
    assert.ok(values[i] > values[i - 1], `${what} not increasing: ${values}`);
  }
}
