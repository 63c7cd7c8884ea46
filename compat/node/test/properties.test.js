'use strict';
// A plain send and consume with user properties, two producers and a
// consumer in one process: every message arrives once with its tag, keys,
// body and user properties as sent; the broker lists the consumer's client
// id in its group while it runs (GET_CONSUMER_LIST_BY_GROUP, fed by ali-ons's
// heartbeats) and no longer once it is closed (UNREGISTER_CLIENT).

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { Message } = require('ali-ons');
const env = require('../lib/env');
const clients = require('../lib/clients');
const { startAdmin } = require('../lib/admin');
const { eventually } = require('../lib/eventually');

after(clients.closeAll);

const PER_PRODUCER = 4;

function userProperties(producerName, i) {
  return { source: producerName, seq: String(i), note: `a b=c; ü ${i}` };
}

test('user properties arrive as sent and the broker sees the consumer come and go', async () => {
  const topic = env.unique('NodeProps');
  const group = env.unique('NodePropsConsumer');
  const admin = await startAdmin();
  try {
    await admin.createTopics([topic]);

    const { consumer, received } = await clients.consumer(group, topic, '*');
    let listed = [];
    await eventually(`the broker to list ${consumer.clientId} in ${group}`, async () => {
      listed = await admin.consumerIds(group);
      return listed.includes(consumer.clientId);
    }, { describe: () => JSON.stringify(listed) });

    const producers = {
      first: await clients.producer(env.unique('NodePropsProducerA')),
      second: await clients.producer(env.unique('NodePropsProducerB')),
    };
    const sent = [];
    for (let i = 0; i < PER_PRODUCER; i++) {
      for (const [name, producer] of Object.entries(producers)) {
        const msg = new Message(topic, 'Props', `props-${name}-${i}`);
        msg.keys = [`props-${name}-${i}`];
        Object.assign(msg.properties, userProperties(name, i));
        const result = await producer.send(msg);
        assert.equal(result.sendStatus, 'SEND_OK');
        assert.ok(result.msgId, 'a send result has a message id');
        sent.push({ name, i, body: `props-${name}-${i}`, msgId: result.msgId });
      }
    }

    await eventually(`${sent.length} messages`, () => received.size >= sent.length,
      { describe: () => JSON.stringify(received.bodies()) });
    assert.equal(received.size, sent.length, 'each message once');
    for (const m of sent) {
      const got = received.records.find(r => r.body === m.body);
      assert.ok(got, `${m.body} received`);
      assert.equal(got.tags, 'Props');
      assert.equal(got.keys, m.body);
      for (const [k, v] of Object.entries(userProperties(m.name, m.i))) {
        assert.equal(got.properties[k], v, `property ${k} of ${m.body}`);
      }
    }

    await clients.close(consumer);
    await eventually(`the broker to drop ${consumer.clientId} from ${group}`, async () => {
      listed = await admin.consumerIds(group);
      return !listed.includes(consumer.clientId);
    }, { describe: () => JSON.stringify(listed) });
  } finally {
    await admin.close();
  }
});
