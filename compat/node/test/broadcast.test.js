'use strict';
// Broadcasting: two consumer instances of one group in BROADCASTING mode
// (ali-ons's isBroadcast; distinct instanceName, so two client ids as two
// processes would have) each receive every message a producer sends, and
// the broker lists both clients in the group.

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { Message } = require('ali-ons');
const env = require('../lib/env');
const clients = require('../lib/clients');
const { startAdmin } = require('../lib/admin');
const { eventually } = require('../lib/eventually');

after(clients.closeAll);

const COUNT = 8;

test('every broadcasting consumer of a group receives every message', async () => {
  const topic = env.unique('NodeBroadcast');
  const group = env.unique('NodeBroadcastGroup');
  const admin = await startAdmin();
  try {
    await admin.createTopics([topic]);

    const one = await clients.consumer(group, topic, '*', { isBroadcast: true, instanceName: `${group}-one` });
    const two = await clients.consumer(group, topic, '*', { isBroadcast: true, instanceName: `${group}-two` });
    assert.notEqual(one.consumer.clientId, two.consumer.clientId);

    const ids = [one.consumer.clientId, two.consumer.clientId].sort();
    let listed = [];
    await eventually(`the broker to list ${ids} in ${group}`, async () => {
      listed = await admin.consumerIds(group);
      return ids.every(id => listed.includes(id));
    }, { describe: () => JSON.stringify(listed) });

    const producer = await clients.producer(env.unique('NodeBroadcastProducer'));
    const sent = [];
    for (let i = 0; i < COUNT; i++) {
      const result = await producer.send(new Message(topic, 'Broadcast', `broadcast-${i}`));
      assert.equal(result.sendStatus, 'SEND_OK');
      sent.push(`broadcast-${i}`);
    }

    for (const [name, c] of [['one', one], ['two', two]]) {
      await eventually(`consumer ${name} to receive ${COUNT} messages`, () => c.received.size >= COUNT,
        { describe: () => JSON.stringify(c.received.bodies()) });
      assert.deepEqual(c.received.bodies().sort(), [...sent].sort(), `consumer ${name}`);
    }
  } finally {
    await admin.close();
  }
});
