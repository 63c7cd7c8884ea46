'use strict';
// Tags and keys: a producer sends messages tagged TagA, TagB and TagC, each
// with two keys; a consumer group subscribed to `TagA || TagC` receives
// exactly the TagA and TagC messages, with their tags, keys and bodies, while
// a second group on the same topic, subscribed to `*`, receives all of them
// (two consumer groups and a producer in one process, as a Node service runs
// them).

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { Message } = require('ali-ons');
const env = require('../lib/env');
const clients = require('../lib/clients');
const { startAdmin } = require('../lib/admin');
const { eventually } = require('../lib/eventually');

after(clients.closeAll);

const TAGS = ['TagA', 'TagB', 'TagC'];
const COUNT = 12;

function summary(records) {
  return records
    .map(r => `${r.tags}|${r.keys}|${r.body}`)
    .sort();
}

test('a TagA || TagC subscription receives exactly the TagA and TagC messages, with their keys', async () => {
  const topic = env.unique('NodeTags');
  const admin = await startAdmin();
  try {
    await admin.createTopics([topic]);
  } finally {
    await admin.close();
  }

  const filtered = await clients.consumer(env.unique('NodeTagsAC'), topic, 'TagA || TagC');
  const all = await clients.consumer(env.unique('NodeTagsAll'), topic, '*');
  const producer = await clients.producer(env.unique('NodeTagsProducer'));

  const sent = [];
  for (let i = 0; i < COUNT; i++) {
    const tag = TAGS[i % TAGS.length];
    const msg = new Message(topic, tag, `tags-body-${i}`);
    msg.keys = [`key-${i}`, `order-${i}`];
    const result = await producer.send(msg);
    assert.equal(result.sendStatus, 'SEND_OK', `send ${i}`);
    sent.push({ tags: tag, keys: `key-${i} order-${i}`, body: `tags-body-${i}` });
  }
  const expected = summary(sent.filter(m => m.tags !== 'TagB'));

  await eventually(`${COUNT} messages in the * group`, () => all.received.size >= COUNT,
    { describe: () => `${all.received.size} received` });
  await eventually(`${expected.length} messages in the TagA || TagC group`,
    () => filtered.received.size >= expected.length,
    { describe: () => JSON.stringify(summary(filtered.received.records)) });

  assert.deepEqual(summary(all.received.records), summary(sent));
  assert.deepEqual(summary(filtered.received.records), expected);
  for (const r of filtered.received.records) {
    assert.equal(r.topic, topic);
  }
});
